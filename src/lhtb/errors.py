"""Error classes and the one table that decides, per class, whether to retry and whether the reward counts.

Every failure in a trial is mapped to an :class:`ErrorClass`. Infrastructure failures are retried and never
scored as the agent's 0; failures caused by the agent's own work are graded like any other outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ErrorClass(StrEnum):
    TASK_INVALID = "task_invalid"
    ENVIRONMENT_BUILD = "environment_build"
    BASE_IMAGE_MISSING = "base_image_missing"
    ENVIRONMENT_START = "environment_start"
    AGENT_SETUP = "agent_setup"
    AGENT_ERROR = "agent_error"
    LLM_TRANSIENT = "llm_transient"
    LLM_AUTH = "llm_auth"
    VERIFIER_TIMEOUT = "verifier_timeout"
    VERIFIER_ERROR = "verifier_error"
    ARTIFACTS_REFUSED = "artifacts_refused"
    HARNESS_ERROR = "harness_error"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class ErrorPolicy:
    retry: bool  # run the trial again (up to --max-retries)
    grade: bool  # still run the verifier on what the agent left
    counts_as_failure: bool  # True: the trial counts as reward 0 in metrics; False: excluded and reported
    # The agent can cause it from inside its own container or artifacts. Such a class is never retried and
    # always counts (an agent about to fail must not be able to erase its 0): docs/errors.md.
    agent_controlled: bool = False


# The single source of truth for error handling; docs/errors.md renders this table.
ERROR_POLICY: dict[ErrorClass, ErrorPolicy] = {
    ErrorClass.TASK_INVALID: ErrorPolicy(retry=False, grade=False, counts_as_failure=False),
    ErrorClass.ENVIRONMENT_BUILD: ErrorPolicy(retry=True, grade=False, counts_as_failure=False),
    # The machine lacks a base image the Dockerfile names and no registry supplied it: retrying cannot help,
    # and the task is not at fault (the fix is `lhtb images load`); excluded and reported with that fix.
    ErrorClass.BASE_IMAGE_MISSING: ErrorPolicy(retry=False, grade=False, counts_as_failure=False),
    ErrorClass.ENVIRONMENT_START: ErrorPolicy(retry=True, grade=False, counts_as_failure=False),
    ErrorClass.AGENT_SETUP: ErrorPolicy(retry=True, grade=False, counts_as_failure=False),
    ErrorClass.AGENT_ERROR: ErrorPolicy(retry=False, grade=True, counts_as_failure=True, agent_controlled=True),
    ErrorClass.LLM_TRANSIENT: ErrorPolicy(retry=True, grade=False, counts_as_failure=False),
    ErrorClass.LLM_AUTH: ErrorPolicy(retry=False, grade=False, counts_as_failure=False),
    # A verifier that crashes or hangs on the agent's artifacts must not hand the agent an exclusion: it is
    # recorded as a verifier error and counted as not passed (reward 0 in means), never as a pass.
    ErrorClass.VERIFIER_TIMEOUT: ErrorPolicy(retry=False, grade=False, counts_as_failure=True, agent_controlled=True),
    ErrorClass.VERIFIER_ERROR: ErrorPolicy(retry=False, grade=False, counts_as_failure=True, agent_controlled=True),
    # The agent's artifacts could not be snapshotted or installed for grading (over the size or file limits, a
    # stream Docker cannot produce, an archive the verifier container refuses): reward 0 with the cause.
    ErrorClass.ARTIFACTS_REFUSED: ErrorPolicy(retry=False, grade=False, counts_as_failure=True, agent_controlled=True),
    ErrorClass.HARNESS_ERROR: ErrorPolicy(retry=True, grade=False, counts_as_failure=False),
    ErrorClass.CANCELLED: ErrorPolicy(retry=False, grade=False, counts_as_failure=False),
}


class LhtbError(Exception):
    """Base class: carries the error class so the trial runner can apply :data:`ERROR_POLICY`."""

    error_class: ErrorClass = ErrorClass.HARNESS_ERROR

    def __init__(self, message: str, *, error_class: ErrorClass | None = None) -> None:
        super().__init__(message)
        if error_class is not None:
            self.error_class = error_class


class TaskInvalidError(LhtbError):
    """A task directory or task.toml is malformed; the message names the file and the field."""

    error_class = ErrorClass.TASK_INVALID


class EnvironmentBuildError(LhtbError):
    error_class = ErrorClass.ENVIRONMENT_BUILD


class BaseImageMissingError(LhtbError):
    error_class = ErrorClass.BASE_IMAGE_MISSING


class EnvironmentStartError(LhtbError):
    error_class = ErrorClass.ENVIRONMENT_START


class AgentSetupError(LhtbError):
    error_class = ErrorClass.AGENT_SETUP


class AgentError(LhtbError):
    error_class = ErrorClass.AGENT_ERROR


class VerifierError(LhtbError):
    """The verifier produced no valid reward: missing, empty, NaN, out of range, inconsistent or crashed."""

    error_class = ErrorClass.VERIFIER_ERROR


class VerifierTimeoutError(VerifierError):
    error_class = ErrorClass.VERIFIER_TIMEOUT


class ArtifactsRefusedError(LhtbError):
    """The agent's artifacts cannot be graded as a whole (too big, too many files, refused by the engine)."""

    error_class = ErrorClass.ARTIFACTS_REFUSED


class UnsafeArchiveError(ArtifactsRefusedError):
    """An archive is not a tar stream or exceeds the size/member limits; callers whose archive is not the
    agent's (verifier output) re-classify it."""


class ArchiveRefusedError(LhtbError):
    """The engine refused a tar upload; an infrastructure error unless the archive was the agent's."""


class ConfigError(LhtbError):
    """A user-supplied file or flag is invalid; never retried."""

    error_class = ErrorClass.TASK_INVALID
