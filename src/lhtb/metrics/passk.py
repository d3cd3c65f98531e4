"""Pass rates: pass@1 at a reward threshold, and the unbiased pass@k estimator over attempts."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of P(at least one of k attempts passes) from n attempts with c passes.

    pass@k = 1 - C(n-c, k) / C(n, k) (Chen et al., 2021). Computed with exact integers, so it is exact up to the
    final division; requires 1 <= k <= n and 0 <= c <= n.
    """
    if not 1 <= k <= n:
        raise ValueError(f"pass@k needs 1 <= k <= n, got k={k}, n={n}")
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n, got c={c}, n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def mean_pass_at_k(per_task: Iterable[tuple[int, int]], k: int) -> tuple[float | None, int]:
    """Mean pass@k over tasks given (n attempts, c passes) per task; tasks with fewer than k attempts are left out.

    Returns (estimate or None when no task has k attempts, number of tasks that entered the mean).
    """
    values = [pass_at_k(n, c, k) for n, c in per_task if n >= k]
    return (math.fsum(values) / len(values) if values else None), len(values)


def solve_rate(rewards: Sequence[float], threshold: float) -> float | None:
    """pass@1 at ``threshold``: the share of scored trials with reward >= threshold (None when there are none)."""
    if not rewards:
        return None
    return sum(1 for r in rewards if r >= threshold) / len(rewards)
