"""The :class:`Scorecard` a task verifier fills with weighted, scored subtasks and writes as ``reward.json``.

Author mistakes raise :class:`GradingError` at once. A check whose value (or the callable computing it)
fails scores 0 with an ``error:`` detail and grading goes on. Nothing touches disk before
:meth:`Scorecard.write`, so a verifier script that crashes leaves no ``reward.json`` (a verifier error).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from lhtb.grading import kinds
from lhtb.grading.atomic import write_text_atomic
from lhtb.grading.errors import GradingError
from lhtb.grading.record import KINDS, REWARD_SCHEMA, VISIBILITIES, ScoredSubtask, weighted_reward
from lhtb.grading.report import format_scorecard

OUTPUT_DIR_ENV = "LHTB_VERIFIER_OUTPUT_DIR"
DEFAULT_OUTPUT_DIR = "/logs/verifier"
REWARD_FILENAME = "reward.json"
_MAX_ERROR_CHARS = 500

T = TypeVar("T")
# A check's value: the value itself, or a zero-argument callable computing it (so a failure is contained).
ValueOrThunk: TypeAlias = T | Callable[[], T]
Scorer = Callable[[Any], kinds.Scored]


@contextmanager
def _naming(name: object) -> Iterator[None]:
    """Prefix any GradingError with the subtask it is about."""
    try:
        yield
    except GradingError as exc:
        raise GradingError(f"subtask {name!r}: {exc}") from None


def _error_note(exc: Exception) -> str:
    message = " ".join(str(exc).split())
    if len(message) > _MAX_ERROR_CHARS:
        message = message[: _MAX_ERROR_CHARS - 3] + "..."
    return f"error: {type(exc).__name__}: {message}" if message else f"error: {type(exc).__name__}"


class Scorecard:
    """Collects subtasks; ``reward`` is sum(w*s)/sum(w); ``write()`` emits ``<output_dir>/reward.json``."""

    def __init__(self, output_dir: str | os.PathLike[str] | None = None, *, metadata: dict | None = None) -> None:
        self.output_dir = Path(output_dir or os.environ.get(OUTPUT_DIR_ENV) or DEFAULT_OUTPUT_DIR)
        self.metadata: dict[str, object] = dict(metadata or {})
        self._subtasks: list[ScoredSubtask] = []

    @property
    def subtasks(self) -> tuple[ScoredSubtask, ...]:
        return tuple(self._subtasks)

    def binary(
        self,
        name: str,
        weight: float,
        passed: ValueOrThunk[object],
        *,
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """1.0 if ``passed`` is true, else 0.0."""
        return self._grade(name, weight, "binary", visibility, detail, passed, kinds.score_binary)

    def continuous(
        self,
        name: str,
        weight: float,
        value: ValueOrThunk[float],
        *,
        target: float,
        tolerance: float,
        bound: float,
        relative: bool = False,
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """1.0 within ``tolerance`` of ``target``, linear to 0.0 at ``bound``; relative: error / |target|."""
        bounds: dict[str, Any] = dict(target=target, tolerance=tolerance, bound=bound, relative=relative)
        return self._grade(
            name,
            weight,
            "continuous",
            visibility,
            detail,
            value,
            partial(kinds.score_continuous, **bounds),
            validate=lambda: kinds.validate_continuous(target, tolerance, bound, relative),
        )

    def banded(
        self,
        name: str,
        weight: float,
        value: ValueOrThunk[float],
        *,
        bands: Sequence[tuple[float, float]],
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """Piecewise-linear through the (x, score) ``bands``, clamped at both ends."""
        return self._grade(
            name,
            weight,
            "banded",
            visibility,
            detail,
            value,
            lambda v: kinds.score_banded(v, bands=bands),
            validate=lambda: kinds.validate_bands(bands),
        )

    def fraction(
        self,
        name: str,
        weight: float,
        cases: ValueOrThunk[Iterable[object]],
        *,
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """k/n of the boolean ``cases``; no cases scores 0."""
        return self._grade(name, weight, "fraction", visibility, detail, cases, kinds.score_fraction)

    def episodes(
        self,
        name: str,
        weight: float,
        successes: ValueOrThunk[Iterable[object]],
        *,
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """Fraction of episodes whose success flag fired; no episodes scores 0."""
        return self._grade(name, weight, "episodes", visibility, detail, successes, kinds.score_episodes)

    def episode_returns(
        self,
        name: str,
        weight: float,
        returns: ValueOrThunk[Iterable[float]],
        *,
        low: float,
        high: float,
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """Mean of each return normalized to [0, 1] between ``low`` and ``high`` (kind ``episodes``)."""
        return self._grade(
            name,
            weight,
            "episodes",
            visibility,
            detail,
            returns,
            lambda v: kinds.score_episode_returns(v, low=low, high=high),
            validate=lambda: kinds.validate_return_range(low, high),
        )

    def add(
        self,
        name: str,
        weight: float,
        score: ValueOrThunk[float],
        *,
        kind: str,
        visibility: str = "hidden",
        detail: str = "",
    ) -> float:
        """Record a score the author computed; it must be a finite number in [0, 1]."""

        def raw(value: object) -> kinds.Scored:
            number = kinds.author_number(value, "score")
            if not 0.0 <= number <= 1.0:
                raise GradingError(f"score must be in [0, 1], got {number}")
            return kinds.Scored(number, "")

        def validate_kind() -> None:
            if kind not in KINDS:
                raise GradingError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")

        return self._grade(name, weight, kind, visibility, detail, score, raw, validate=validate_kind)

    def check(
        self,
        name: str,
        *,
        weight: float = 1.0,
        kind: str = "binary",
        visibility: str = "hidden",
        detail: str = "",
        **params: object,
    ) -> Callable[[Callable[[], T]], Callable[[], T]]:
        """Decorator: grade a zero-argument function's return value now, with the check method named ``kind``.

        ``kind`` is ``binary``, ``continuous``, ``banded``, ``fraction``, ``episodes`` or ``episode_returns``;
        ``params`` are that method's keywords (``target=``, ``bands=``...); the function is returned as is.
        """
        methods: dict[str, Callable[..., float]] = {
            "binary": self.binary,
            "continuous": self.continuous,
            "banded": self.banded,
            "fraction": self.fraction,
            "episodes": self.episodes,
            "episode_returns": self.episode_returns,
        }
        if kind not in methods:
            raise GradingError(f"subtask {name!r}: kind must be one of {', '.join(methods)}, got {kind!r}")

        def decorate(function: Callable[[], T]) -> Callable[[], T]:
            methods[kind](name, weight, function, visibility=visibility, detail=detail, **params)
            return function

        return decorate

    @property
    def reward(self) -> float:
        """sum(w*s)/sum(w) over the subtasks so far; a GradingError if there are none or all weights are 0."""
        if not self._subtasks:
            raise GradingError("the scorecard has no subtasks; add at least one check first")
        if math.fsum(s.weight for s in self._subtasks) <= 0:
            raise GradingError("every subtask has weight 0; at least one weight must be positive")
        return weighted_reward(self._subtasks)

    def to_json(self) -> str:
        """The ``lhtb.reward/1`` document for the subtasks so far."""
        payload: dict[str, object] = {
            "schema": REWARD_SCHEMA,
            "reward": self.reward,
            "subtasks": [s.as_dict() for s in self._subtasks],
        }
        if self.metadata:
            payload["metadata"] = self.metadata
        try:
            return json.dumps(payload, indent=2, allow_nan=False) + "\n"
        except (TypeError, ValueError) as exc:
            raise GradingError(f"metadata must be JSON-serializable with finite numbers: {exc}") from None

    def write(self) -> float:
        """Atomically write ``<output_dir>/reward.json``, print the scorecard table, and return the reward."""
        document = self.to_json()
        reward = self.reward
        write_text_atomic(self.output_dir / REWARD_FILENAME, document)
        print(format_scorecard(self._subtasks, reward), flush=True)
        return reward

    def _grade(
        self,
        name: str,
        weight: float,
        kind: str,
        visibility: str,
        detail: str,
        value: object,
        scorer: Scorer,
        *,
        validate: Callable[[], object] | None = None,
    ) -> float:
        with _naming(name):
            weight_f = self._validate_header(name, weight, visibility, detail)
            if validate is not None:
                validate()
            try:
                resolved = value() if callable(value) else value
                scored = scorer(resolved)
            except GradingError:
                raise
            except Exception as exc:  # the agent's work broke the check: score 0, keep grading
                scored = kinds.Scored(0.0, _error_note(exc))
        full_detail = "; ".join(part for part in (detail, scored.note) if part)
        self._subtasks.append(ScoredSubtask(name, weight_f, scored.score, kind, visibility, full_detail))
        return scored.score

    def _validate_header(self, name: str, weight: float, visibility: str, detail: str) -> float:
        if not isinstance(name, str) or not name.strip():
            raise GradingError("name must be a non-empty string")
        if any(s.name == name for s in self._subtasks):
            raise GradingError("duplicate subtask name; every subtask needs its own name")
        weight_f = kinds.author_number(weight, "weight")
        if weight_f < 0:
            raise GradingError(f"weight must be >= 0, got {weight_f:g}")
        if visibility not in VISIBILITIES:
            raise GradingError(f"visibility must be 'public' or 'hidden', got {visibility!r}")
        if not isinstance(detail, str):
            raise GradingError(f"detail must be a string, got {type(detail).__name__}")
        return weight_f
