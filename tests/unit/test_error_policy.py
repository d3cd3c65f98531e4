"""Pins the error policy: a new ErrorClass fails here until someone decides how it is retried and counted."""

import pytest

from lhtb.errors import ERROR_POLICY, ErrorClass, ErrorPolicy

# class: (retry, grade, counts_as_failure, agent_controlled)
DECIDED: dict[ErrorClass, tuple[bool, bool, bool, bool]] = {
    ErrorClass.TASK_INVALID: (False, False, False, False),
    ErrorClass.ENVIRONMENT_BUILD: (True, False, False, False),
    ErrorClass.BASE_IMAGE_MISSING: (False, False, False, False),
    ErrorClass.ENVIRONMENT_START: (True, False, False, False),
    ErrorClass.AGENT_SETUP: (True, False, False, False),
    ErrorClass.AGENT_ERROR: (False, True, True, True),
    ErrorClass.LLM_TRANSIENT: (True, False, False, False),
    ErrorClass.LLM_AUTH: (False, False, False, False),
    ErrorClass.VERIFIER_TIMEOUT: (False, False, True, True),
    ErrorClass.VERIFIER_ERROR: (False, False, True, True),
    ErrorClass.ARTIFACTS_REFUSED: (False, False, True, True),
    ErrorClass.HARNESS_ERROR: (True, False, False, False),
    ErrorClass.CANCELLED: (False, False, False, False),
}


def test_every_class_is_decided() -> None:
    assert set(ERROR_POLICY) == set(ErrorClass) == set(DECIDED)


@pytest.mark.parametrize("error_class", list(ErrorClass))
def test_policy_is_pinned(error_class: ErrorClass) -> None:
    retry, grade, counts, agent_controlled = DECIDED[error_class]
    assert ERROR_POLICY[error_class] == ErrorPolicy(
        retry=retry, grade=grade, counts_as_failure=counts, agent_controlled=agent_controlled
    )


@pytest.mark.parametrize("error_class", [c for c in ErrorClass if ERROR_POLICY[c].agent_controlled])
def test_what_the_agent_controls_is_never_retried_or_excluded(error_class: ErrorClass) -> None:
    policy = ERROR_POLICY[error_class]
    assert not policy.retry and policy.counts_as_failure


def test_artifact_faults_are_the_agents() -> None:
    from lhtb.errors import ArtifactsRefusedError, UnsafeArchiveError

    assert UnsafeArchiveError("x").error_class is ErrorClass.ARTIFACTS_REFUSED
    assert ArtifactsRefusedError("x").error_class is ErrorClass.ARTIFACTS_REFUSED
