"""LLM failures mapped onto the error classes of docs/errors.md: transient (retry with backoff), auth/config
(never retry).

Classification looks at the status code and class names so this module does not import litellm (slow).
"""

from __future__ import annotations

import asyncio
from enum import StrEnum

from lhtb.errors import ErrorClass, LhtbError


class LlmTransientError(LhtbError):
    """Rate limit, 5xx or connection failure that outlived our retries; the trial is retried later."""

    error_class = ErrorClass.LLM_TRANSIENT


class LlmAuthError(LhtbError):
    """Bad key, unknown model, malformed request: retrying cannot help; fix the model flags."""

    error_class = ErrorClass.LLM_AUTH


class LlmContextWindowError(LhtbError):
    """The prompt no longer fits the model's window; agents react by summarising, not by retrying."""

    error_class = ErrorClass.AGENT_ERROR


class Failure(StrEnum):
    TRANSIENT = "transient"
    AUTH = "auth"
    CONTEXT_WINDOW = "context_window"
    OTHER = "other"


_TRANSIENT_NAMES = {
    "RateLimitError",
    "APIConnectionError",
    "Timeout",
    "APITimeoutError",
    "InternalServerError",
    "ServiceUnavailableError",
    "BadGatewayError",
    "ConnectError",
    "ReadTimeout",
    "RemoteProtocolError",
    "ClientConnectionError",
    "ServerDisconnectedError",
}
_AUTH_NAMES = {
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "BadRequestError",
    "UnsupportedParamsError",
    "UnprocessableEntityError",
    "ContentPolicyViolationError",
}
_TRANSIENT_STATUS = {408, 409, 425, 429}


def classify(exc: BaseException) -> Failure:
    """Decide how an exception from a provider call is handled."""
    if isinstance(exc, LlmTransientError):
        return Failure.TRANSIENT
    if isinstance(exc, LlmAuthError):
        return Failure.AUTH
    if isinstance(exc, LlmContextWindowError):
        return Failure.CONTEXT_WINDOW
    names = {cls.__name__ for cls in type(exc).__mro__}
    if "ContextWindowExceededError" in names:
        return Failure.CONTEXT_WINDOW
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        if status in _TRANSIENT_STATUS or status >= 500:
            return Failure.TRANSIENT
        if 400 <= status < 500:
            return Failure.AUTH
    if names & _TRANSIENT_NAMES or isinstance(exc, (ConnectionError, TimeoutError, asyncio.TimeoutError)):
        return Failure.TRANSIENT
    if names & _AUTH_NAMES:
        return Failure.AUTH
    return Failure.OTHER
