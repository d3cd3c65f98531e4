"""A model that replays a script: deterministic, offline agent-loop tests (and the round-trip benchmark)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.llm.base import CallUsage, Message, ModelReply

# A step is a reply text, a reply with exact usage, an exception to raise, or a function of the conversation.
ScriptStep = str | ModelReply | BaseException | Callable[[list[Message]], str]


class ScriptExhaustedError(RuntimeError):
    """The agent asked for more replies than the test scripted: the loop did not stop when expected."""


def estimate_tokens(text: str) -> int:
    """~4 characters per token: good enough for scripted usage and context-size tests."""
    return max(1, len(text) // 4)


@dataclass
class ScriptedModel:
    script: list[ScriptStep]
    name: str = "scripted"
    context_window: int = 32_000
    price_per_mtok: float | None = None  # None: cost unknown, like an unpriced real model
    calls: list[list[Message]] = field(default_factory=list)
    then: str | None = None  # reply given forever once the script is used up (benchmarks); None: raise

    async def complete(self, messages: list[Message], *, max_output_tokens: int | None = None) -> ModelReply:
        self.calls.append([dict(m) for m in messages])
        if not self.script:
            if self.then is None:
                raise ScriptExhaustedError(f"scripted model: no reply left for call {len(self.calls)}")
            step: ScriptStep = self.then
        else:
            step = self.script.pop(0)
        if isinstance(step, BaseException):
            raise step
        if isinstance(step, ModelReply):
            return step
        text = step if isinstance(step, str) else step(messages)
        input_tokens = sum(estimate_tokens(m["content"]) for m in messages)
        output_tokens = estimate_tokens(text)
        cost = None
        if self.price_per_mtok is not None:
            cost = (input_tokens + output_tokens) * self.price_per_mtok / 1e6
        return ModelReply(content=text, usage=CallUsage(input_tokens, 0, output_tokens, cost))


def replies(items: Iterable[dict[str, object] | str]) -> list[ScriptStep]:
    """Script steps from dicts (serialised as JSON, the terminal agent's format) or raw strings."""
    return [item if isinstance(item, str) else json.dumps(item) for item in items]


def load_script(path: Path) -> ScriptedModel:
    """A script file: a JSON list of replies (objects are sent as their JSON text)."""
    data = json.loads(path.read_text())
    if not isinstance(data, list):
        raise ValueError(f"{path}: a model script is a JSON list of replies")
    return ScriptedModel(replies(data))
