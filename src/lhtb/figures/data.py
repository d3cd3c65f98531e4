"""Series behind the figures, computed without matplotlib so they can be tested and reused."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lhtb.metrics.rows import TrialRow

CURVE_POINTS = 200


def row_label(row: TrialRow) -> str:
    """The label a row has in the report (flagged variants carry their flags)."""
    return row.agent if not row.flags else f"{row.agent} [{', '.join(row.flags)}]"


@dataclass(frozen=True)
class MeanCurve:
    """Mean reward of one agent's trials at each point of agent time; the last value is the mean final reward."""

    minutes: list[float]
    mean_reward: list[float]
    n_trials: int


def step_value(times: np.ndarray, rewards: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The last observed reward at or before each grid time; 0 before the first observation."""
    index = np.searchsorted(times, grid, side="right") - 1
    return np.where(index >= 0, rewards[np.clip(index, 0, None)], 0.0).astype(np.float64)


def curve_end(rows: Sequence[TrialRow]) -> float:
    """The latest observation time (seconds) over ``rows``, so several agents can share one time axis."""
    return max((row.curve[-1][0] for row in rows if row.curve), default=0.0)


def mean_curve(rows: Sequence[TrialRow], end_sec: float | None = None, points: int = CURVE_POINTS) -> MeanCurve | None:
    """Average over a fixed set of trials (every trial with an observation) so the curve is not survivorship-biased:
    a trial counts 0 until its first verified reward and keeps its last reward after it stops."""
    curves = [row.curve for row in rows if row.curve]
    if not curves:
        return None
    end = end_sec if end_sec is not None else curve_end(rows)
    grid = np.linspace(0.0, end if end > 0 else 1.0, points)
    total = np.zeros(points)
    for curve in curves:
        times = np.array([t for t, _ in curve], dtype=np.float64)
        rewards = np.array([r for _, r in curve], dtype=np.float64)
        total += step_value(times, rewards, grid)
    return MeanCurve(
        minutes=[float(m) / 60 for m in grid],
        mean_reward=[float(v) for v in total / len(curves)],
        n_trials=len(curves),
    )


def rewards_by_label(rows: Sequence[TrialRow]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if row.reward is not None:
            out[row_label(row)].append(row.reward)
    return dict(out)


def heat_matrix(cells: Sequence[tuple[str, str, float | None]], agents: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """(task names, tasks x agents array of mean rewards, NaN where an agent has no scored trial of a task)."""
    tasks = sorted({task for task, _, _ in cells})
    task_index = {task: i for i, task in enumerate(tasks)}
    agent_index = {agent: j for j, agent in enumerate(agents)}
    matrix = np.full((len(tasks), len(agents)), math.nan)
    for task, agent, value in cells:
        if agent in agent_index and value is not None:
            matrix[task_index[task], agent_index[agent]] = value
    return tasks, matrix
