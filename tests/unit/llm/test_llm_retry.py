"""Retries: transient failures back off and retry, auth/config failures stop at once (docs/errors.md)."""

from __future__ import annotations

import asyncio

import pytest

from lhtb.errors import ErrorClass
from lhtb.llm import LlmAuthError, LlmContextWindowError, LlmTransientError, RetryingModel, RetryPolicy, ScriptedModel
from lhtb.llm.errors import Failure, classify


class RateLimitError(Exception):
    status_code = 429


class InternalServerError(Exception):
    status_code = 503


class AuthenticationError(Exception):
    status_code = 401


class NotFoundError(Exception):
    pass


class ContextWindowExceededError(Exception):
    status_code = 400


class APIConnectionError(Exception):
    pass


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (RateLimitError("slow down"), Failure.TRANSIENT),
        (InternalServerError("boom"), Failure.TRANSIENT),
        (APIConnectionError("refused"), Failure.TRANSIENT),
        (ConnectionResetError(), Failure.TRANSIENT),
        (TimeoutError(), Failure.TRANSIENT),
        (AuthenticationError("bad key"), Failure.AUTH),
        (NotFoundError("no such model"), Failure.AUTH),
        (ContextWindowExceededError("too long"), Failure.CONTEXT_WINDOW),
        (ValueError("bug"), Failure.OTHER),
    ],
)
def test_classify(exc: Exception, expected: Failure) -> None:
    assert classify(exc) is expected


def _retrying(script: list, attempts: int = 4) -> tuple[RetryingModel, list[float]]:
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    policy = RetryPolicy(max_attempts=attempts, base_delay_sec=1.0, max_delay_sec=5.0, jitter=0.0)
    return RetryingModel(ScriptedModel(script), policy, sleep=fake_sleep), slept


def test_transient_errors_are_retried_with_exponential_backoff() -> None:
    model, slept = _retrying([RateLimitError("429"), InternalServerError("503"), APIConnectionError("x"), "ok"])
    reply = asyncio.run(model.complete([{"role": "user", "content": "hi"}]))
    assert reply.content == "ok"
    assert slept == [1.0, 2.0, 4.0]
    assert model.retries == 3


def test_backoff_is_capped() -> None:
    policy = RetryPolicy(base_delay_sec=1.0, max_delay_sec=5.0, jitter=0.0)
    assert [policy.delay(n) for n in (1, 2, 3, 4, 5)] == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_persistent_transient_error_becomes_llm_transient() -> None:
    model, slept = _retrying([RateLimitError("429")] * 3, attempts=3)
    with pytest.raises(LlmTransientError) as info:
        asyncio.run(model.complete([{"role": "user", "content": "hi"}]))
    assert info.value.error_class is ErrorClass.LLM_TRANSIENT
    assert len(slept) == 2


def test_auth_errors_are_not_retried() -> None:
    model, slept = _retrying([AuthenticationError("bad key"), "never reached"])
    with pytest.raises(LlmAuthError) as info:
        asyncio.run(model.complete([{"role": "user", "content": "hi"}]))
    assert info.value.error_class is ErrorClass.LLM_AUTH
    assert slept == []


def test_context_window_errors_surface_for_the_agent() -> None:
    model, slept = _retrying([ContextWindowExceededError("too long")])
    with pytest.raises(LlmContextWindowError):
        asyncio.run(model.complete([{"role": "user", "content": "hi"}]))
    assert slept == []


def test_unknown_errors_propagate_unchanged() -> None:
    model, _ = _retrying([ValueError("a bug")])
    with pytest.raises(ValueError, match="a bug"):
        asyncio.run(model.complete([{"role": "user", "content": "hi"}]))
