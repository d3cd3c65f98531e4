"""Context management: when the conversation nears the model's window, older turns become a summary.

Kept verbatim: the system prompt, the task instruction and the last few turns. The summary is written by the
model itself; if even the summary request does not fit, the older turns are dropped with a note instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from lhtb.agents.terminus import prompts
from lhtb.llm.base import CallUsage, Message, Model
from lhtb.llm.errors import LlmContextWindowError
from lhtb.llm.scripted import estimate_tokens

SUMMARY_MAX_WORDS = 300


@dataclass(frozen=True)
class Compaction:
    messages: list[Message]
    removed: int  # messages replaced by the summary
    summary: str
    usage: CallUsage | None  # the summary call's usage (None when it could not be made)


def estimate_prompt_tokens(messages: list[Message], known_tokens: int, known_count: int) -> int:
    """Provider-counted tokens for the first ``known_count`` messages plus an estimate for the rest."""
    if known_tokens <= 0:
        known_count = 0
    return known_tokens + sum(estimate_tokens(m["content"]) for m in messages[known_count:])


def can_compact(messages: list[Message], keep_recent_turns: int) -> bool:
    return len(messages) > 2 + 2 * keep_recent_turns


async def compact(model: Model, messages: list[Message], keep_recent_turns: int) -> Compaction:
    """Replace messages[2:-2k] (k recent turns) by a model-written summary folded into the instruction."""
    keep = 2 * keep_recent_turns
    head, middle, recent = messages[:2], messages[2 : len(messages) - keep], messages[len(messages) - keep :]
    request = [dict(m) for m in messages[: len(messages) - keep]]
    request[-1]["content"] += "\n\n" + prompts.SUMMARY_REQUEST.format(max_words=SUMMARY_MAX_WORDS)
    usage: CallUsage | None = None
    try:
        reply = await model.complete(request, max_output_tokens=SUMMARY_MAX_WORDS * 2)
        summary, usage = reply.content.strip(), reply.usage
    except LlmContextWindowError:
        summary = f"[{len(middle)} earlier messages were removed without a summary: they no longer fit.]"
    instruction = dict(head[1])
    instruction["content"] += "\n\n" + prompts.SUMMARY_HANDOFF.format(summary=summary)
    return Compaction([head[0], instruction, *recent], len(middle), summary, usage)
