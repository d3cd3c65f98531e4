"""The report file: ``lhtb report --format json`` writes exactly this model."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lhtb.metrics.models import GroupMetrics, MetricSettings

REPORT_SCHEMA = "lhtb.report/1"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JobInfo(_Strict):
    job_name: str
    path: str
    created_at: datetime
    agent_timeout_multiplier: float
    n_results: int
    n_unfinished: int  # trial directories without a result.json (still running, or killed)
    flags: list[str]


class TaskCell(_Strict):
    """Mean scored reward of one agent on one task: a cell of the task x agent matrix."""

    task: str
    category: str
    agent: str
    mean_reward: float | None
    n_scored: int
    n_trials: int


class Report(_Strict):
    schema_: Literal["lhtb.report/1"] = Field(default="lhtb.report/1", alias="schema")
    jobs: list[JobInfo]
    settings: MetricSettings
    denominator_rule: str
    failure_mode_definitions: dict[str, str]
    leaderboard: list[GroupMetrics]  # ranked rows, best mean reward first
    flagged: list[GroupMetrics]  # diagnostic feedback / non-default timeouts, not ranked (unless included)
    spearman_rho: float | None  # between the ranking by mean reward and by solve rate, over ranked rows
    categories: list[GroupMetrics]  # ranked within each category
    task_matrix: list[TaskCell]
    problems: list[str]  # unreadable result files (only when --skip-unreadable let the report go on)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
