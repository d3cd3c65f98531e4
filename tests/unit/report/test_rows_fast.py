"""The report's projection loader gives exactly the row of the fully validated result, and rejects bad fields."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from lhtb.errors import ErrorClass
from lhtb.metrics.rows import to_row
from lhtb.report.rows_fast import row_from_json
from lhtb.results.models import (
    ActivityRecord,
    AgentOutcome,
    AgentSpec,
    CheckpointRecord,
    ErrorInfo,
    PhaseRecord,
    PhaseTimings,
    TrialResult,
    Usage,
)

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def result(**fields: object) -> TrialResult:
    base: dict[str, object] = {
        "trial_name": "t__a__1",
        "job_name": "job",
        "task_name": "t",
        "agent": AgentSpec(name="terminus", model="m"),
        "attempt": 1,
        "started_at": T0,
        "finished_at": T0,
        "reward": 0.5,
        "agent_outcome": AgentOutcome(stop_reason="completed"),
        "timings": PhaseTimings(agent=90.0),
        "usage": Usage(input_tokens=10, cached_input_tokens=2, output_tokens=3, cost_usd=None, episodes=4),
        "agent_timeout_sec": 600.0,
    }
    base.update(fields)
    return TrialResult(**base)  # type: ignore[arg-type]


CASES = {
    "plain": result(),
    "no model, no category": result(agent=AgentSpec(name="oracle"), category=""),
    "infrastructure error": result(reward=None, error=ErrorInfo(error_class=ErrorClass.ENVIRONMENT_START, message="x")),
    "verifier error": result(reward=None, error=ErrorInfo(error_class=ErrorClass.VERIFIER_ERROR, message="x")),
    "graded agent error": result(
        reward=0.25, error=ErrorInfo(error_class=ErrorClass.AGENT_ERROR, message="x"), category="games"
    ),
    "phases, curve, activity": result(
        phases=[
            PhaseRecord(index=0, started_at=T0, stop_reason="completed", reward=0.2, agent_sec=100.0),
            PhaseRecord(index=1, started_at=T0, stop_reason="timeout", reward=0.7, agent_sec=500.0),
        ],
        reward_curve=[CheckpointRecord(agent_sec=50.0, reward=0.1), CheckpointRecord(agent_sec=70.0, reward=None)],
        activity=ActivityRecord(last_active_sec=420.0, poll_interval_sec=12.0, cpu_floor=0.02, samples=40),
        continue_until_timeout=True,
        reward=0.7,
    ),
    "monitored, never active": result(
        activity=ActivityRecord(last_active_sec=None, poll_interval_sec=12.0, cpu_floor=0.02, samples=3)
    ),
    "diagnostic": result(feedback_mode="diagnostic", comparable=False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_projection_equals_to_row(name: str) -> None:
    trial = CASES[name]
    data = trial.model_dump_json(by_alias=True, indent=2).encode()
    fast, full = row_from_json(data, ("timeout-x2",)), to_row(trial, ("timeout-x2",))
    assert fast == full
    assert [type(v) for v in fast] == [type(v) for v in full]


@pytest.mark.parametrize(
    ("good", "bad", "field"),
    [
        (b'"reward": 0.5', b'"reward": 1.5', "reward"),
        (b'"reward": 0.5', b'"reward": NaN', "reward"),
        (b'"attempt": 1', b'"attempt": "one"', "attempt"),
        (b'"schema": "lhtb.trial/2"', b'"schema": "lhtb.trial/9"', "schema"),
    ],
)
def test_bad_fields_are_rejected_with_their_name(good: bytes, bad: bytes, field: str) -> None:
    data = result().model_dump_json(by_alias=True, indent=2).encode()
    assert good in data
    with pytest.raises(ValidationError) as info:
        row_from_json(data.replace(good, bad))
    assert field in str(info.value)


def test_malformed_json_is_an_error() -> None:
    with pytest.raises(ValidationError):
        row_from_json(b'{"trial_name": ')
