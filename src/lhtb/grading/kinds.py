"""Pure scoring functions, one per subtask kind: a value in, a score in [0, 1] and a short note out.

``validate_*`` functions check the author's parameters and raise :class:`GradingError`. ``score_*`` functions
validate first, then raise ``TypeError`` for a value of the wrong type (the scorecard turns that into a 0 with
an ``error:`` detail, since values come from the agent's work).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from lhtb.grading.errors import GradingError


class Scored(NamedTuple):
    score: float
    note: str


def as_number(value: object, what: str = "value") -> float:
    """``value`` as a float; bool, None and strings are refused because they are almost always a bug."""
    if isinstance(value, (bool, str, bytes)) or value is None:
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r}")
    try:
        return float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int beyond float range
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r}") from None


def as_flag(value: object, what: str = "value") -> bool:
    """``value`` as a bool: a bool or a number equal to 0 or 1 (numpy bools work); else a TypeError."""
    if isinstance(value, bool):
        return value
    if value is not None and not isinstance(value, (str, bytes)):
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            number = math.nan
        if number in (0.0, 1.0):
            return number == 1.0
    raise TypeError(f"{what} must be a bool (or 0/1), got {type(value).__name__} {value!r}")


def author_number(value: object, what: str) -> float:
    """A finite number given by the task author; anything else is a :class:`GradingError`."""
    try:
        number = as_number(value, what)
    except TypeError as exc:
        raise GradingError(str(exc)) from None
    if not math.isfinite(number):
        raise GradingError(f"{what} must be finite, got {number}")
    return number


def score_binary(passed: object) -> Scored:
    return Scored(1.0, "passed") if as_flag(passed, "passed") else Scored(0.0, "failed")


def validate_continuous(target: object, tolerance: object, bound: object, relative: bool) -> tuple[float, float, float]:
    """The author's (target, tolerance, bound) as floats, or a :class:`GradingError` naming the bad one."""
    target_f = author_number(target, "target")
    tolerance_f = author_number(tolerance, "tolerance")
    bound_f = author_number(bound, "bound")
    if tolerance_f < 0:
        raise GradingError(f"tolerance must be >= 0, got {tolerance_f}")
    if tolerance_f > bound_f:
        raise GradingError(f"tolerance ({tolerance_f}) must not exceed bound ({bound_f})")
    if relative and target_f == 0:
        raise GradingError("relative error is undefined for target 0; use relative=False with an absolute tolerance")
    return target_f, tolerance_f, bound_f


def score_continuous(value: object, *, target: float, tolerance: float, bound: float, relative: bool = False) -> Scored:
    """1.0 if the error is <= tolerance, falling linearly to 0.0 at error >= bound; NaN/inf scores 0."""
    target, tolerance, bound = validate_continuous(target, tolerance, bound, relative)
    number = as_number(value)
    if not math.isfinite(number):
        return Scored(0.0, f"value is {number}")
    error = abs(number - target) / (abs(target) if relative else 1.0)
    if error <= tolerance:
        score = 1.0
    elif error >= bound:
        score = 0.0
    else:
        score = (bound - error) / (bound - tolerance)
    label = "relative error" if relative else "error"
    note = f"value={number:.6g} target={target:.6g} {label}={error:.3g}"
    note += f" (tolerance {tolerance:g}, bound {bound:g})"
    return Scored(min(1.0, max(0.0, score)), note)


def validate_bands(bands: object) -> list[tuple[float, float]]:
    """Check (x, score) points: at least one, x finite and strictly increasing, scores in [0, 1]."""
    if isinstance(bands, (str, bytes)) or not isinstance(bands, Iterable):
        raise GradingError(f"bands must be a list of (x, score) pairs, got {bands!r}")
    points: list[tuple[float, float]] = []
    for point in bands:
        if not isinstance(point, Sequence) or isinstance(point, str) or len(point) != 2:
            raise GradingError(f"each band must be an (x, score) pair, got {point!r}")
        x = author_number(point[0], "band x")
        score = author_number(point[1], "band score")
        if not 0.0 <= score <= 1.0:
            raise GradingError(f"band score must be in [0, 1], got {score} at x={x:g}")
        if points and x <= points[-1][0]:
            raise GradingError(f"bands must be sorted by strictly increasing x, got {x:g} after {points[-1][0]:g}")
        points.append((x, score))
    if not points:
        raise GradingError("bands must contain at least one (x, score) point")
    return points


def score_banded(value: object, *, bands: Sequence[tuple[float, float]]) -> Scored:
    """Piecewise-linear through the band points, clamped to the end scores outside them; NaN scores 0."""
    points = validate_bands(bands)
    number = as_number(value)
    if math.isnan(number):
        return Scored(0.0, "value is nan")
    xs = [x for x, _ in points]
    if number <= xs[0]:
        score = points[0][1]
    elif number >= xs[-1]:
        score = points[-1][1]
    else:
        right = bisect.bisect_right(xs, number)
        (x0, s0), (x1, s1) = points[right - 1], points[right]
        interpolated = s0 + (s1 - s0) * (number - x0) / (x1 - x0)
        score = min(max(interpolated, min(s0, s1)), max(s0, s1))  # rounding must not leave the segment
    return Scored(min(1.0, max(0.0, score)), f"value={number:.6g}")


def _count_flags(flags: Iterable[object], what: str) -> tuple[int, int]:
    if isinstance(flags, (str, bytes)) or not isinstance(flags, Iterable):
        raise TypeError(f"{what} must be an iterable of bools, got {type(flags).__name__}")
    passed = total = 0
    for index, flag in enumerate(flags):
        passed += as_flag(flag, f"{what}[{index}]")
        total += 1
    return passed, total


def score_fraction(cases: Iterable[object]) -> Scored:
    """k/n of the cases passed; no cases scores 0 (an empty case list is never a pass)."""
    passed, total = _count_flags(cases, "cases")
    if total == 0:
        return Scored(0.0, "no cases")
    return Scored(passed / total, f"{passed}/{total} cases passed")


def score_episodes(successes: Iterable[object]) -> Scored:
    """Fraction of episodes whose success flag fired; no episodes scores 0."""
    passed, total = _count_flags(successes, "successes")
    if total == 0:
        return Scored(0.0, "no episodes")
    return Scored(passed / total, f"{passed}/{total} episodes succeeded")


def validate_return_range(low: object, high: object) -> tuple[float, float]:
    low_f, high_f = author_number(low, "low"), author_number(high, "high")
    if low_f >= high_f:
        raise GradingError(f"low must be < high, got low={low_f:g} high={high_f:g}")
    return low_f, high_f


def score_episode_returns(returns: Iterable[object], *, low: float, high: float) -> Scored:
    """Mean of clamp((r - low) / (high - low), 0, 1); a NaN/inf return counts 0; no episodes scores 0."""
    low, high = validate_return_range(low, high)
    if isinstance(returns, (str, bytes)) or not isinstance(returns, Iterable):
        raise TypeError(f"returns must be an iterable of numbers, got {type(returns).__name__}")
    normalized = []
    for index, episode_return in enumerate(returns):
        number = as_number(episode_return, f"returns[{index}]")
        share = (number - low) / (high - low) if math.isfinite(number) else 0.0
        normalized.append(min(1.0, max(0.0, share)))
    if not normalized:
        return Scored(0.0, "no episodes")
    mean = math.fsum(normalized) / len(normalized)
    return Scored(min(1.0, mean), f"mean normalized return {mean:.3g} over {len(normalized)} episodes")
