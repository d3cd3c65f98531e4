"""lhtb's error classes and Harbor's exception types, in both directions (docs/harbor.md, "Results").

Harbor classifies a failed trial by the name of its exception (``harbor.models.trial.error_policy``); lhtb by
:class:`~lhtb.errors.ErrorClass`. Exported trials carry lhtb's class name and, as Harbor's ``policy_override``,
lhtb's own decision, so Harbor retries, grades and counts them as lhtb did. Imported trials map Harbor's known
exception types to the class with the same meaning; an exception type neither side knows follows Harbor's
policy for unknown types (its reward is valid): with a reward it counts as the agent's, without one it is
excluded as a harness error.
"""

from __future__ import annotations

from lhtb.errors import ERROR_POLICY, ErrorClass

_HARBOR_TYPES: dict[ErrorClass | None, tuple[str, ...]] = {
    None: ("AgentTimeoutError",),  # the agent's time ran out: an ordinary end, graded
    ErrorClass.AGENT_ERROR: (
        "NonZeroAgentExitCodeError",
        "ContextWindowExceededError",
        "OutputTokenExceededError",
        "ContextLengthExceededError",
        "OutputLengthExceededError",
        "AgentSafetyRefusalError",
        "ContentPolicyViolationError",
    ),
    ErrorClass.VERIFIER_TIMEOUT: ("VerifierTimeoutError",),
    ErrorClass.VERIFIER_ERROR: ("RewardFileNotFoundError", "RewardFileEmptyError", "VerifierOutputParseError"),
    ErrorClass.ENVIRONMENT_BUILD: ("SandboxBuildFailedError",),
    ErrorClass.ENVIRONMENT_START: (
        "EnvironmentStartTimeoutError",
        "HealthcheckError",
        "SandboxLikelyOutOfMemoryError",
        "MemoryLimitExceededError",
        "SSHAccessError",
        "GKEExecStreamClosedError",
        "GKEPodNotFoundError",
        "RuntimeRequestError",
    ),
    ErrorClass.AGENT_SETUP: ("AgentSetupTimeoutError",),
    ErrorClass.HARNESS_ERROR: ("AddTestsDirError", "DownloadVerifierDirError", "RegradeError"),
    ErrorClass.LLM_TRANSIENT: (
        "ApiError",
        "ApiRateLimitError",
        "ApiInternalServerError",
        "ApiOverloadedError",
        "ApiConnectionClosedError",
        "ApiResponseStalledError",
        "UnknownApiError",
        "NetworkConnectionError",
        "ApiConnectionError",
        "ApiUsageLimitError",
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailableError",
        "APIConnectionError",
        "APIError",
        "Timeout",
    ),
    ErrorClass.LLM_AUTH: (
        "AgentAuthenticationError",
        "ModelNotFoundError",
        "ApiProviderResourceNotFoundError",
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
    ),
    ErrorClass.CANCELLED: ("CancelledError",),
}
_FROM_HARBOR = {name: error_class for error_class, names in _HARBOR_TYPES.items() for name in names}


def exception_type(error_class: ErrorClass) -> str:
    """The name an exported trial's exception carries: lhtb's class in Harbor's CamelCase ``...Error`` form."""
    name = "".join(part.capitalize() for part in error_class.value.split("_"))
    return name if name.endswith("Error") else f"{name}Error"


_FROM_LHTB = {exception_type(error_class): error_class for error_class in ErrorClass}


def policy_override(error_class: ErrorClass) -> dict[str, bool]:
    """lhtb's decision for the class in Harbor's terms; a counted failure has a valid reward (lhtb's 0)."""
    policy = ERROR_POLICY[error_class]
    return {
        "should_retry": policy.retry,
        "should_grade": policy.grade,
        "has_valid_reward": policy.grade or policy.counts_as_failure,
    }


def error_class_of(harbor_type: str, *, has_reward: bool) -> ErrorClass | None:
    """The lhtb class of a Harbor exception type (None: an ordinary end); unknown types as the module says."""
    if harbor_type in _FROM_LHTB:
        return _FROM_LHTB[harbor_type]
    if harbor_type in _FROM_HARBOR:
        return _FROM_HARBOR[harbor_type]
    return ErrorClass.AGENT_ERROR if has_reward else ErrorClass.HARNESS_ERROR
