# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded generator of hidden log files, one family per behaviour the parser must get right."""

from __future__ import annotations

import random

from lhtb.grading import stress

LEVELS = ("DEBUG", "INFO", "WARN", "ERROR")
LEVEL_WEIGHTS = (0.15, 0.5, 0.2, 0.15)
SERVICES = ("auth", "billing", "search", "cart", "gateway", "mailer", "inventory")
WORDS = (
    "user",
    "login",
    "ok",
    "query",
    "cache",
    "miss",
    "retry",
    "upstream",
    "slow",
    "order",
    "paid",
    "refund",
    "token",
    "expired",
    "queue",
    "drained",
    "sent",
    "batch",
    "42",
    "#7",
    "a=b",
    "done",
)
FAMILIES = ("clean", "noisy", "pipes", "level_case", "mixed")


def _between(rng: random.Random, low: int, high: int) -> int:
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def _level(rng: random.Random) -> str:
    x = rng.random()
    for level, weight in zip(LEVELS, LEVEL_WEIGHTS, strict=True):
        if x < weight:
            return level
        x -= weight
    return LEVELS[-1]


def _timestamp(rng: random.Random) -> str:
    return (
        f"2024-{_between(rng, 1, 12):02d}-{_between(rng, 1, 28):02d}T"
        f"{_between(rng, 0, 23):02d}:{_between(rng, 0, 59):02d}:{_between(rng, 0, 59):02d}"
    )


def _message(rng: random.Random, *, pipe: bool) -> str:
    words = [stress.pick(rng, WORDS) for _ in range(_between(rng, 0, 5))]
    if pipe:
        words.insert(_between(rng, 0, len(words)), "|")
    return " ".join(words)


def _join(rng: random.Random, fields: list[str]) -> str:
    pad = [" " * _between(rng, 0, 2) for _ in range(2 * len(fields))]
    return "|".join(pad[2 * i] + field + pad[2 * i + 1] for i, field in enumerate(fields))


def _latency(rng: random.Random) -> int:
    return int(rng.random() ** 3 * 5000)


def _entry(rng: random.Random, *, pipe: bool = False, odd_case: bool = False) -> str:
    level = _level(rng)
    if odd_case:
        mixed = "".join(c.lower() if rng.random() < 0.5 else c for c in level)
        level = stress.pick(rng, (level.lower(), level.capitalize(), mixed))
        if level == level.upper():  # the level must really differ from its canonical spelling
            level = level.lower()
    fields = [_timestamp(rng), level, stress.pick(rng, SERVICES), str(_latency(rng)), _message(rng, pipe=pipe)]
    return _join(rng, fields)


def _malformed(rng: random.Random) -> str:
    fields = [_timestamp(rng), _level(rng), stress.pick(rng, SERVICES), str(_latency(rng)), _message(rng, pipe=False)]
    kind = _between(rng, 0, 5)
    if kind == 0:
        fields[0] = fields[0].replace("T", " ")
    elif kind == 1:
        fields[1] = stress.pick(rng, ("TRACE", "FATAL", "NOTICE", "WARNING"))
    elif kind == 2:
        fields[3] = stress.pick(rng, (fields[3] + "ms", "-" + fields[3], fields[3] + ".5", "n/a"))
    elif kind == 3:
        fields[2] = ""
    elif kind == 4:
        del fields[_between(rng, 1, 4)]
    else:
        fields[0] = fields[0][:10]
    return _join(rng, fields)


def _noise(rng: random.Random) -> str:
    return stress.pick(
        rng, ("", "   ", "# " + " ".join(stress.pick(rng, WORDS) for _ in range(3)), "  # indented comment", "#")
    )


def make_log(rng: random.Random, family: str) -> str:
    """The text of one hidden log file of ``family``; every family has at least one valid entry."""
    lines = [_entry(rng) for _ in range(_between(rng, 8, 30))]
    specials: list[str] = []
    if family in ("noisy", "mixed"):
        specials += [_malformed(rng) for _ in range(_between(rng, 2, 6))]
        specials += [_noise(rng) for _ in range(_between(rng, 2, 5))]
    elif family != "clean":  # a few malformed records too, so skipping validation never passes a family
        specials += [_malformed(rng) for _ in range(_between(rng, 1, 3))]
    if family in ("pipes", "mixed"):
        specials += [_entry(rng, pipe=True) for _ in range(_between(rng, 1, 4))]
    if family in ("level_case", "mixed"):
        specials += [_entry(rng, odd_case=True) for _ in range(_between(rng, 1, 4))]
    for line in specials:
        lines.insert(_between(rng, 0, len(lines)), line)
    return "\n".join(lines) + "\n"
