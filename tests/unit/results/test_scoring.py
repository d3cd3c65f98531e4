"""The one scoring rule: which reward counts for every error class, with and without a reward."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from lhtb.errors import ERROR_POLICY, ErrorClass
from lhtb.metrics.models import DEFAULT_THRESHOLD, DEFAULT_THRESHOLDS
from lhtb.results.models import AgentSpec, ErrorInfo, TrialResult
from lhtb.results.scoring import FULL_PASS_THRESHOLD, PASS_THRESHOLD, counted_reward, scored_reward

# What a trial of each error class counts as when it has no reward: 0.0 = the agent's failure, None = excluded.
WITHOUT_REWARD: dict[ErrorClass, float | None] = {
    ErrorClass.TASK_INVALID: None,
    ErrorClass.ENVIRONMENT_BUILD: None,
    ErrorClass.BASE_IMAGE_MISSING: None,
    ErrorClass.ENVIRONMENT_START: None,
    ErrorClass.AGENT_SETUP: None,
    ErrorClass.AGENT_ERROR: 0.0,
    ErrorClass.LLM_TRANSIENT: None,
    ErrorClass.LLM_AUTH: None,
    ErrorClass.VERIFIER_TIMEOUT: 0.0,
    ErrorClass.VERIFIER_ERROR: 0.0,
    ErrorClass.ARTIFACTS_REFUSED: 0.0,
    ErrorClass.HARNESS_ERROR: None,
    ErrorClass.CANCELLED: None,
}
GRADED = {ErrorClass.AGENT_ERROR}  # its reward counts: the verifier graded what the agent left


def test_every_error_class_is_pinned() -> None:
    assert set(WITHOUT_REWARD) == set(ERROR_POLICY)


@pytest.mark.parametrize("error_class", list(ErrorClass))
def test_error_without_reward(error_class: ErrorClass) -> None:
    assert counted_reward(None, error_class) == WITHOUT_REWARD[error_class]


@pytest.mark.parametrize("error_class", list(ErrorClass))
def test_error_with_reward_counts_only_when_graded(error_class: ErrorClass) -> None:
    expected = 0.6 if error_class in GRADED else WITHOUT_REWARD[error_class]
    assert counted_reward(0.6, error_class) == expected


def test_graded_error_keeps_its_reward_even_a_pass() -> None:
    assert counted_reward(1.0, ErrorClass.AGENT_ERROR) == 1.0
    assert counted_reward(0.0, ErrorClass.AGENT_ERROR) == 0.0


def test_no_error() -> None:
    assert counted_reward(0.7, None) == 0.7
    assert counted_reward(0.0, None) == 0.0
    assert counted_reward(None, None) == 0.0  # no reward and no error is a failure, never an exclusion


@pytest.mark.parametrize(
    ("reward", "error_class"), [(0.3, None), (None, None), (0.3, ErrorClass.AGENT_ERROR), (0.3, ErrorClass.CANCELLED)]
)
def test_scored_reward_of_a_result_is_the_same_rule(reward: float | None, error_class: ErrorClass | None) -> None:
    now = datetime.now(UTC)
    result = TrialResult(
        trial_name="t",
        job_name="j",
        task_name="task",
        agent=AgentSpec(name="a"),
        attempt=1,
        started_at=now,
        finished_at=now,
        reward=reward,
        error=None if error_class is None else ErrorInfo(error_class=error_class, message="m"),
    )
    assert scored_reward(result) == counted_reward(reward, error_class)


def test_thresholds_are_the_reports_defaults() -> None:
    assert (PASS_THRESHOLD, FULL_PASS_THRESHOLD) == (0.95, 1.0)
    assert DEFAULT_THRESHOLD == PASS_THRESHOLD
    assert {PASS_THRESHOLD, FULL_PASS_THRESHOLD} <= set(DEFAULT_THRESHOLDS)
