"""The series behind the figures: reward-over-time averaging and the task x agent matrix."""

from __future__ import annotations

import math

import pytest

from lhtb.figures.data import heat_matrix, mean_curve
from lhtb.metrics.rows import TrialRow


def row(curve: tuple[tuple[float, float], ...], reward: float | None = None) -> TrialRow:
    final = curve[-1][1] if curve else reward
    return TrialRow(
        "j", "t", "a", "task", "cat", 1, (), final, None, "completed", 60.0, 600.0, None, False, 0, 0, 0, 0.0, 0, curve
    )


def test_mean_curve_has_a_fixed_denominator_and_ends_at_the_mean_final_reward() -> None:
    rows = [row(((60.0, 0.5), (120.0, 1.0))), row(((30.0, 0.2),)), row(())]  # the last has no observation
    curve = mean_curve(rows, points=5)  # grid: 0, 30, 60, 90, 120 s
    assert curve is not None and curve.n_trials == 2
    assert curve.minutes == [0.0, 0.5, 1.0, 1.5, 2.0]
    assert curve.mean_reward == pytest.approx([0.0, 0.1, 0.35, 0.35, 0.6])


def test_mean_curve_shares_a_time_axis() -> None:
    curve = mean_curve([row(((10.0, 1.0),))], end_sec=40.0, points=5)
    assert curve is not None and curve.minutes[-1] == pytest.approx(40 / 60)
    assert curve.mean_reward == [0.0, 1.0, 1.0, 1.0, 1.0]
    assert mean_curve([row(())]) is None


def test_heat_matrix_marks_missing_cells() -> None:
    tasks, matrix = heat_matrix([("t1", "a", 1.0), ("t2", "b", 0.5), ("t2", "a", None)], ["a", "b"])
    assert tasks == ["t1", "t2"]
    assert matrix[0, 0] == 1.0 and matrix[1, 1] == 0.5
    assert math.isnan(matrix[0, 1]) and math.isnan(matrix[1, 0])
