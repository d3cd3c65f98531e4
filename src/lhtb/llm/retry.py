"""Retries with exponential backoff and jitter, applied around any Model; auth/config errors fail at once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from lhtb.llm.base import Message, Model, ModelReply
from lhtb.llm.errors import Failure, LlmAuthError, LlmContextWindowError, LlmTransientError, classify

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 6  # first call plus five retries: ~1+2+4+8+16 s of waiting at most
    base_delay_sec: float = 1.0
    max_delay_sec: float = 30.0
    jitter: float = 0.25  # +-25 %: parallel trials hitting one rate limit do not retry in lockstep

    def delay(self, attempt: int) -> float:
        """Backoff before retry number ``attempt`` (1-based)."""
        raw = min(self.max_delay_sec, self.base_delay_sec * 2 ** (attempt - 1))
        return max(0.0, raw * (1 + random.uniform(-self.jitter, self.jitter)))


class RetryingModel:
    """Wraps a model so transient failures are retried and every failure leaves as one of our error classes."""

    def __init__(self, inner: Model, policy: RetryPolicy | None = None, sleep: Sleep = asyncio.sleep) -> None:
        self.inner = inner
        self.policy = policy or RetryPolicy()
        self._sleep = sleep
        self.retries = 0  # total retries made, for the trajectory's notes

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    async def complete(self, messages: list[Message], *, max_output_tokens: int | None = None) -> ModelReply:
        attempt = 1
        while True:
            try:
                return await self.inner.complete(messages, max_output_tokens=max_output_tokens)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failure = classify(exc)
                if failure is Failure.AUTH:
                    raise LlmAuthError(f"model {self.name}: {type(exc).__name__}: {exc}") from exc
                if failure is Failure.CONTEXT_WINDOW:
                    raise LlmContextWindowError(f"model {self.name}: context window exceeded: {exc}") from exc
                if failure is Failure.OTHER:
                    raise
                if attempt >= self.policy.max_attempts:
                    raise LlmTransientError(
                        f"model {self.name}: {type(exc).__name__} persisted after {attempt} attempts: {exc}"
                    ) from exc
                await self._sleep(self.policy.delay(attempt))
                attempt += 1
                self.retries += 1
