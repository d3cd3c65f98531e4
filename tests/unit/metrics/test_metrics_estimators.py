"""pass@k against the closed form, bootstrap determinism, Spearman against scipy."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from scipy import stats

from lhtb.metrics.bootstrap import bootstrap_mean_ci
from lhtb.metrics.passk import mean_pass_at_k, pass_at_k, solve_rate
from lhtb.metrics.ranking import average_ranks, spearman


def closed_form(n: int, c: int, k: int) -> Fraction:
    """1 - C(n-c, k) / C(n, k), exact."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


@pytest.mark.parametrize(("n", "c", "k"), [(10, 0, 1), (10, 3, 1), (10, 3, 2), (10, 3, 8), (5, 5, 3), (25, 1, 5)])
def test_pass_at_k_matches_closed_form(n: int, c: int, k: int) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(float(closed_form(n, c, k)), abs=1e-15)


def test_pass_at_k_hand_computed() -> None:
    # n=4 attempts, c=1 pass: pass@1 = 1/4; pass@2 = 1 - C(3,2)/C(4,2) = 1 - 3/6 = 1/2; pass@4 = 1.
    assert pass_at_k(4, 1, 1) == 0.25
    assert pass_at_k(4, 1, 2) == 0.5
    assert pass_at_k(4, 1, 4) == 1.0
    assert pass_at_k(4, 0, 4) == 0.0


def test_pass_at_k_rejects_impossible_input() -> None:
    with pytest.raises(ValueError, match="k <= n"):
        pass_at_k(2, 1, 3)
    with pytest.raises(ValueError, match="c <= n"):
        pass_at_k(2, 3, 1)


def test_mean_pass_at_k_leaves_out_tasks_with_too_few_attempts() -> None:
    # task A: 4 attempts 1 pass (pass@2 = 0.5); task B: 2 attempts 2 passes (1.0); task C: 1 attempt (left out).
    estimate, used = mean_pass_at_k([(4, 1), (2, 2), (1, 1)], 2)
    assert (estimate, used) == (0.75, 2)
    assert mean_pass_at_k([(1, 1)], 2) == (None, 0)


def test_solve_rate_at_threshold() -> None:
    rewards = [1.0, 0.95, 0.949, 0.0]
    assert solve_rate(rewards, 0.95) == 0.5
    assert solve_rate(rewards, 1.0) == 0.25
    assert solve_rate([], 0.95) is None


def test_bootstrap_is_deterministic_for_a_seed_and_changes_with_it() -> None:
    clusters = [[0.1, 0.2], [0.9], [0.5, 0.6, 0.7], [0.0], [1.0, 1.0]]
    first = bootstrap_mean_ci(clusters, key="a", seed=7, resamples=500)
    assert first == bootstrap_mean_ci(clusters, key="a", seed=7, resamples=500)
    assert first != bootstrap_mean_ci(clusters, key="a", seed=8, resamples=500)
    assert first != bootstrap_mean_ci(clusters, key="b", seed=7, resamples=500)
    assert first is not None
    low, high = first
    mean = sum(sum(c) for c in clusters) / sum(len(c) for c in clusters)
    assert 0.0 <= low < mean < high <= 1.0


def test_bootstrap_edge_cases() -> None:
    assert bootstrap_mean_ci([]) is None
    assert bootstrap_mean_ci([[0.5, 0.5], [0.5]]) == (0.5, 0.5)
    # one task: there is no task-level variation to resample, so the interval is the point itself
    assert bootstrap_mean_ci([[0.0, 1.0]]) == (0.5, 0.5)


def test_bootstrap_covers_like_the_normal_interval_for_many_tasks() -> None:
    values = [[(i * 37 % 101) / 100] for i in range(400)]
    low, high = bootstrap_mean_ci(values, resamples=4000)  # type: ignore[misc]
    flat = [v[0] for v in values]
    mean = sum(flat) / len(flat)
    se = stats.sem(flat)
    assert low == pytest.approx(mean - 1.96 * se, abs=0.01)
    assert high == pytest.approx(mean + 1.96 * se, abs=0.01)


def test_average_ranks_share_ties() -> None:
    assert average_ranks([0.9, 0.5, 0.5, 0.1]) == [1.0, 2.5, 2.5, 4.0]
    assert average_ranks([3.0, 1.0, 2.0], descending=False) == [3.0, 1.0, 2.0]


@pytest.mark.parametrize(
    ("x", "y"),
    [
        ([0.9, 0.8, 0.7, 0.1], [0.95, 0.5, 0.6, 0.0]),
        ([0.5, 0.5, 0.4, 0.3, 0.3], [0.2, 0.3, 0.3, 0.1, 0.0]),
        ([1.0, 0.0], [0.0, 1.0]),
        ([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.6, 0.1, 0.5, 0.2, 0.4, 0.3]),
    ],
)
def test_spearman_matches_scipy(x: list[float], y: list[float]) -> None:
    expected = stats.spearmanr(x, y).statistic
    assert spearman(x, y) == pytest.approx(expected, abs=1e-12)


def test_spearman_undefined_cases() -> None:
    assert spearman([0.5], [0.5]) is None
    assert spearman([0.5, 0.5], [0.1, 0.9]) is None
    with pytest.raises(ValueError):
        spearman([1.0], [1.0, 2.0])
