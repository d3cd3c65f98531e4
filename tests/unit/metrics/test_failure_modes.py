"""Failure-mode classification and aggregation on constructed trial results."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from lhtb.errors import ErrorClass
from lhtb.metrics.aggregate import agent_metrics, category_metrics
from lhtb.metrics.failure_modes import FailureMode, classify
from lhtb.metrics.models import MetricSettings
from lhtb.metrics.rows import DIAGNOSTIC_FLAG, job_flags, to_row
from lhtb.results.models import (
    ActivityRecord,
    AgentOutcome,
    AgentSpec,
    CheckpointRecord,
    ErrorInfo,
    JobConfig,
    PhaseRecord,
    PhaseTimings,
    TrialResult,
    Usage,
)

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def trial(
    reward: float | None = 0.5,
    *,
    stop: str = "completed",
    agent_sec: float = 100.0,
    timeout: float | None = 1000.0,
    error: ErrorClass | None = None,
    task: str = "t1",
    agent: str = "a",
    attempt: int = 1,
    cost: float | None = 1.0,
    category: str = "cat",
    **extra: object,
) -> TrialResult:
    return TrialResult(
        trial_name=f"{task}__{agent}__{attempt}",
        job_name="job",
        task_name=task,
        category=category,
        agent=AgentSpec(name=agent),
        attempt=attempt,
        started_at=T0,
        finished_at=T0,
        reward=reward,
        error=None if error is None else ErrorInfo(error_class=error, message="x"),
        agent_outcome=AgentOutcome(stop_reason=stop),  # type: ignore[arg-type]
        timings=PhaseTimings(agent=agent_sec),
        usage=Usage(input_tokens=1000, cached_input_tokens=100, output_tokens=10, cost_usd=cost, episodes=3),
        agent_timeout_sec=timeout,
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("result", "mode"),
    [
        (trial(0.95), FailureMode.SOLVED),
        (trial(1.0, stop="timeout"), FailureMode.SOLVED),
        (trial(0.9, stop="timeout", agent_sec=1000), FailureMode.TIMEOUT_WORKING),
        (trial(0.1, stop="timeout", agent_sec=1000), FailureMode.TIMEOUT_WORKING),
        (trial(0.8), FailureMode.FALSE_FINISH),
        (trial(0.75, agent_sec=999), FailureMode.FALSE_FINISH),
        (trial(0.74, agent_sec=100), FailureMode.EARLY_EXIT),
        (trial(0.0, agent_sec=499), FailureMode.EARLY_EXIT),
        (trial(0.0, agent_sec=500), FailureMode.FINISHED_LOW),
        (trial(0.2, timeout=None), FailureMode.FINISHED_LOW),
        (trial(0.3, stop="error", error=ErrorClass.AGENT_ERROR), FailureMode.AGENT_ERROR),
        (trial(None, error=ErrorClass.VERIFIER_ERROR), FailureMode.VERIFIER_ERROR),
        (trial(None, stop="timeout", error=ErrorClass.VERIFIER_TIMEOUT), FailureMode.VERIFIER_ERROR),
        (trial(None, error=ErrorClass.ENVIRONMENT_START, stop="not_started"), FailureMode.INFRASTRUCTURE_ERROR),
        (trial(None, error=ErrorClass.HARNESS_ERROR), FailureMode.INFRASTRUCTURE_ERROR),
        (trial(0.2, stop="cancelled"), FailureMode.OTHER),
    ],
)
def test_classify(result: TrialResult, mode: FailureMode) -> None:
    assert classify(to_row(result), 0.95) == mode.value


def seen(last_active: float | None, *, samples: int = 10, steps: int = 0) -> ActivityRecord:
    return ActivityRecord(
        last_active_sec=last_active, poll_interval_sec=20.0, cpu_floor=0.02, samples=samples, agent_steps=steps
    )


@pytest.mark.parametrize(
    ("timeout", "activity", "mode"),
    [
        # 1000 s timeout: the window is min(300, 100) = 100 s of idleness at the end
        (1000.0, seen(950.0), FailureMode.TIMEOUT_WORKING),
        (1000.0, seen(900.0), FailureMode.TIMEOUT_WORKING),  # idle exactly the window: not yet stalled
        (1000.0, seen(899.0), FailureMode.TIMEOUT_STALLED),
        (1000.0, seen(None), FailureMode.TIMEOUT_STALLED),  # monitored, never seen working
        (1000.0, seen(None, samples=0), FailureMode.TIMEOUT_WORKING),  # no reading at all: not monitored
        (1000.0, seen(None, samples=0, steps=3), FailureMode.TIMEOUT_STALLED),
        (1000.0, None, FailureMode.TIMEOUT_WORKING),  # results without activity records keep their mode
        (7200.0, seen(6950.0), FailureMode.TIMEOUT_WORKING),  # long timeout: the window is 300 s
        (7200.0, seen(6899.0), FailureMode.TIMEOUT_STALLED),
    ],
)
def test_timeouts_split_into_working_and_stalled(
    timeout: float, activity: ActivityRecord | None, mode: FailureMode
) -> None:
    result = trial(0.4, stop="timeout", agent_sec=timeout, timeout=timeout, activity=activity)
    assert classify(to_row(result), 0.95) == mode.value


def test_threshold_moves_the_solved_line() -> None:
    assert classify(to_row(trial(0.95)), 1.0) == FailureMode.FALSE_FINISH.value
    assert classify(to_row(trial(0.9)), 0.9) == FailureMode.SOLVED.value


def test_last_phase_decides_how_the_agent_stopped() -> None:
    phases = [
        PhaseRecord(index=0, started_at=T0, stop_reason="completed", reward=0.5, agent_sec=300),
        PhaseRecord(index=1, started_at=T0, stop_reason="timeout", reward=0.6, agent_sec=700, mode="restart"),
    ]
    row = to_row(trial(0.6, stop="completed", agent_sec=1000, phases=phases, continue_until_timeout=True))
    assert row.stop_reason == "timeout" and row.agent_sec == 1000
    assert classify(row, 0.95) == FailureMode.TIMEOUT_WORKING.value
    assert row.curve == ((300.0, 0.5), (1000.0, 0.6))


def test_curve_merges_checkpoints_and_final_reward() -> None:
    curve = [CheckpointRecord(agent_sec=60, reward=0.2), CheckpointRecord(agent_sec=120, reward=None, error="x")]
    row = to_row(trial(0.7, agent_sec=150, reward_curve=curve))
    assert row.curve == ((60.0, 0.2), (150.0, 0.7))


def test_flags_for_diagnostic_and_timeouts() -> None:
    assert to_row(trial(feedback_mode="diagnostic", comparable=False)).flags == (DIAGNOSTIC_FLAG,)
    config = JobConfig(
        job_name="j",
        created_at=T0,
        dataset_path="d",
        task_names=[],
        agents=[],
        attempts=1,
        concurrency=1,
        max_retries=0,
        agent_timeout_multiplier=2.0,
        lhtb_version="0",
    )
    assert job_flags(config) == ("timeout-x2",)
    assert job_flags(config.model_copy(update={"agent_timeout_multiplier": 1.0})) == ()


def test_aggregation_hand_computed() -> None:
    rows = [
        to_row(trial(1.0, task="t1", attempt=1, cost=2.0)),
        to_row(trial(0.8, task="t1", attempt=2, cost=1.0)),
        to_row(trial(0.0, task="t2", attempt=1, cost=0.5, category="other")),
        to_row(trial(None, task="t2", attempt=2, error=ErrorClass.VERIFIER_ERROR, cost=0.5, category="other")),
        to_row(trial(None, task="t2", attempt=3, error=ErrorClass.ENVIRONMENT_BUILD, cost=0.0, category="other")),
    ]
    settings = MetricSettings(ks=(1, 2), resamples=200)
    (group,) = agent_metrics(rows, settings)
    assert (group.n_trials, group.n_scored, group.n_excluded, group.n_tasks) == (5, 4, 1, 2)
    assert group.errors_by_class == {"environment_build": 1, "verifier_error": 1}
    assert group.mean_reward == pytest.approx(1.8 / 4)
    assert group.pass_rates == {"0.9": 0.25, "0.95": 0.25, "1": 0.25}
    # per task (n, c): t1 (2, 1), t2 (2, 0): pass@1 = (0.5 + 0) / 2; pass@2 = (1 + 0) / 2
    assert group.pass_at_k == {"1": 0.25, "2": 0.5}
    assert (group.n_solved, group.near_misses) == (1, 1)
    assert group.cost_per_task == pytest.approx(4.0 / 4) and group.cost_per_solved == pytest.approx(4.0)
    assert group.mean_input_tokens == 1000 and group.mean_episodes == 3
    assert group.failure_modes["solved"] == 1 and group.failure_modes["false_finish"] == 1
    assert group.failure_modes["verifier_error"] == 1 and group.failure_modes["infrastructure_error"] == 1
    assert sum(group.failure_modes.values()) == 5  # every trial has exactly one mode
    by_category = {g.category: g for g in category_metrics(rows, settings)}
    assert by_category["cat"].mean_reward == pytest.approx(0.9)
    assert by_category["other"].n_excluded == 1


def test_unknown_cost_stays_unknown() -> None:
    rows = [to_row(trial(1.0, cost=None)), to_row(trial(1.0, attempt=2, cost=3.0))]
    (group,) = agent_metrics(rows, MetricSettings(resamples=100))
    assert group.cost_per_task is None and group.cost_per_solved is None
    assert group.cost_unknown_trials == 1


def test_no_scored_trials_gives_no_numbers_not_zero() -> None:
    rows = [to_row(trial(None, error=ErrorClass.LLM_AUTH))]
    (group,) = agent_metrics(rows, MetricSettings(resamples=100))
    assert group.mean_reward is None and group.ci_low is None and group.pass_rates["0.95"] is None
    assert group.n_excluded == 1 and group.cost_per_task is None
