"""Average ranks and Spearman's rho, written out so the leaderboard does not need scipy at run time."""

from __future__ import annotations

import math
from collections.abc import Sequence


def average_ranks(values: Sequence[float], *, descending: bool = True) -> list[float]:
    """Rank 1 = best; tied values share the mean of the ranks they span (1, 2.5, 2.5, 4), as scipy does."""
    order = sorted(range(len(values)), key=lambda i: -values[i] if descending else values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = shared
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson's r of the average ranks; None when undefined (< 2 items or a constant ranking)."""
    if len(x) != len(y):
        raise ValueError(f"spearman needs equal lengths, got {len(x)} and {len(y)}")
    if len(x) < 2:
        return None
    rank_x, rank_y = average_ranks(x), average_ranks(y)
    mean_x, mean_y = math.fsum(rank_x) / len(x), math.fsum(rank_y) / len(y)
    dx = [r - mean_x for r in rank_x]
    dy = [r - mean_y for r in rank_y]
    var_x, var_y = math.fsum(d * d for d in dx), math.fsum(d * d for d in dy)
    if var_x == 0 or var_y == 0:
        return None
    return math.fsum(a * b for a, b in zip(dx, dy, strict=True)) / math.sqrt(var_x * var_y)
