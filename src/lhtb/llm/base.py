"""The seam between agents and LLM providers: one async ``complete`` call, usage counted per call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from lhtb.results.models import Usage

# OpenAI-style chat messages: {"role": "system" | "user" | "assistant", "content": "..."}.
Message = dict[str, str]


@dataclass(frozen=True)
class CallUsage:
    """Tokens of one call as the provider reported them; ``input_tokens`` includes the cached ones."""

    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None  # None: no price known for this model (never silently 0)

    def as_usage(self, episodes: int = 0) -> Usage:
        return Usage(
            input_tokens=self.input_tokens,
            cached_input_tokens=self.cached_input_tokens,
            output_tokens=self.output_tokens,
            cost_usd=self.cost_usd,
            episodes=episodes,
        )


@dataclass(frozen=True)
class ModelReply:
    content: str
    usage: CallUsage = field(default_factory=CallUsage)
    finish_reason: str = "stop"


class Model(Protocol):
    """What an agent needs from a model. Implementations: LiteLLMModel, ScriptedModel, RetryingModel."""

    @property
    def name(self) -> str: ...

    @property
    def context_window(self) -> int:
        """Tokens; agents summarise before a conversation outgrows it."""
        ...

    async def complete(self, messages: list[Message], *, max_output_tokens: int | None = None) -> ModelReply: ...
