"""Seeded, reproducible stress cases generated at verify time, so they never sit in the image for an agent.

Every stream comes from :func:`rng`, which derives a ``random.Random`` seed from sha256 of the seed and
labels: the same seed always yields the same cases, on any machine, and each label gets an independent stream
(adding a case or a label never shifts the others). The generators below draw only through
``Random.random()``, the one method whose sequence Python guarantees across versions.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from lhtb.grading.errors import GradingError

SEED_ENV = "LHTB_VERIFY_SEED"
T = TypeVar("T")
V = TypeVar("V")


def rng(seed: int, *labels: object) -> random.Random:
    """An independent ``random.Random`` for ``seed`` and ``labels`` (labels count by their ``str()``)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GradingError(f"seed must be an int, got {type(seed).__name__} {seed!r}")
    digest = hashlib.sha256()
    for part in (str(seed), *(str(label) for label in labels)):
        encoded = part.encode("utf-8")
        digest.update(len(encoded).to_bytes(8, "big") + encoded)  # length prefix: ("ab","c") != ("a","bc")
    return random.Random(int.from_bytes(digest.digest(), "big"))


def seed_from_env(default: int, var: str = SEED_ENV) -> int:
    """The integer in environment variable ``var``, or ``default`` when it is unset or empty."""
    raw = os.environ.get(var, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise GradingError(f"environment variable {var} must be an integer, got {raw!r}") from None


def cases(seed: int, n: int, factory: Callable[[random.Random, int], T]) -> list[T]:
    """``[factory(rng(seed, "case", i), i) for i in range(n)]``; case i does not depend on ``n``."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise GradingError(f"n must be a non-negative int, got {n!r}")
    return [factory(rng(seed, "case", index), index) for index in range(n)]


def pick(rng: random.Random, choices: Sequence[T]) -> T:
    """One element of ``choices``, drawn through ``rng.random()``."""
    if not choices:
        raise GradingError("cannot pick from an empty sequence")
    return choices[min(int(rng.random() * len(choices)), len(choices) - 1)]


def perturb_number(rng: random.Random, x: float, rel: float) -> float:
    """``x`` times a uniform factor in [1 - rel, 1 + rel]."""
    if not math.isfinite(rel) or rel < 0:
        raise GradingError(f"rel must be a finite number >= 0, got {rel!r}")
    return x * (1.0 + rel * (2.0 * rng.random() - 1.0))


def rename_fields(
    rng: random.Random, record: Mapping[str, V], mapping_choices: Mapping[str, Sequence[str]]
) -> dict[str, V]:
    """A copy of ``record`` with each field in ``mapping_choices`` renamed to one of its choices, order kept.

    Example: ``rename_fields(r, {"price": 3}, {"price": ["price", "Price", "unit_price"]})``.
    """
    renamed: dict[str, V] = {}
    for field, value in record.items():
        new_name = pick(rng, mapping_choices[field]) if field in mapping_choices else field
        if new_name in renamed:
            raise GradingError(f"renaming {field!r} to {new_name!r} collides with another field")
        renamed[new_name] = value
    return renamed


def drop_values(
    rng: random.Random, rows: Sequence[Mapping[str, V] | Sequence[V]], p: float, *, missing: object = None
) -> list:
    """Copies of ``rows`` (dicts or lists) with each value replaced by ``missing`` with probability ``p``."""
    if not 0.0 <= p <= 1.0:
        raise GradingError(f"p must be in [0, 1], got {p!r}")

    def keep() -> bool:
        return rng.random() >= p

    dropped: list = []
    for row in rows:
        if isinstance(row, Mapping):
            dropped.append({key: value if keep() else missing for key, value in row.items()})
        else:
            dropped.append([value if keep() else missing for value in row])
    return dropped


def noise(rng: random.Random, values: Sequence[float], sigma: float) -> list[float]:
    """``values`` plus independent Gaussian noise of standard deviation ``sigma`` (Box-Muller)."""
    if not math.isfinite(sigma) or sigma < 0:
        raise GradingError(f"sigma must be a finite number >= 0, got {sigma!r}")
    noisy = []
    for value in values:
        radius = math.sqrt(-2.0 * math.log(1.0 - rng.random()))  # 1 - random() is in (0, 1], so log is finite
        noisy.append(value + sigma * radius * math.cos(2.0 * math.pi * rng.random()))
    return noisy
