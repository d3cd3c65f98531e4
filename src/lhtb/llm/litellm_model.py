"""Any litellm model string (``openai/<alias>`` + ``api_base`` for OpenAI-compatible servers) as a Model.

litellm is imported on first use only: it costs seconds, and the CLI must stay fast for non-LLM commands.
"""

from __future__ import annotations

import os
from typing import Any

from lhtb.llm.base import CallUsage, Message, ModelReply
from lhtb.llm.pricing import Price, litellm_price, use_local_cost_map, with_cost

DEFAULT_CONTEXT_WINDOW = 8192  # unknown models (local servers): the size our local server is started with


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) else 0


def usage_from_response(response: Any) -> CallUsage:
    """Tokens as the provider reported them (OpenAI and Anthropic spellings of the cached count)."""
    usage = getattr(response, "usage", None)
    if usage is None:
        return CallUsage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = _int(getattr(details, "cached_tokens", 0)) if details is not None else 0
    cached = cached or _int(getattr(usage, "cache_read_input_tokens", 0))
    return CallUsage(
        input_tokens=_int(getattr(usage, "prompt_tokens", 0)),
        cached_input_tokens=cached,
        output_tokens=_int(getattr(usage, "completion_tokens", 0)),
    )


class LiteLLMModel:
    """One provider call per ``complete``; retries live in RetryingModel so they can be tested offline."""

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        context_window: int | None = None,
        price: Price | None = None,
        request_timeout_sec: float = 600.0,
    ) -> None:
        self.name = model
        self.api_base = api_base
        # OpenAI-compatible local servers ignore the key, but the client refuses to send a request without one.
        self.api_key = api_key or (os.environ.get("OPENAI_API_KEY") or "sk-local" if api_base else None)
        self.temperature = temperature
        self.request_timeout_sec = request_timeout_sec
        self._price = price
        self._price_resolved = price is not None
        self._context_window = context_window

    @property
    def context_window(self) -> int:
        if self._context_window is None:
            self._context_window = self._lookup_context_window()
        return self._context_window

    def _lookup_context_window(self) -> int:
        use_local_cost_map()
        import litellm

        try:
            info = litellm.get_model_info(self.name)
        except Exception:  # litellm raises a bare Exception for unmapped models
            return DEFAULT_CONTEXT_WINDOW
        return int(info.get("max_input_tokens") or info.get("max_tokens") or DEFAULT_CONTEXT_WINDOW)

    def price(self) -> Price | None:
        if not self._price_resolved:
            self._price = litellm_price(self.name)
            self._price_resolved = True
        return self._price

    async def complete(self, messages: list[Message], *, max_output_tokens: int | None = None) -> ModelReply:
        use_local_cost_map()
        import litellm

        kwargs: dict[str, Any] = {"model": self.name, "messages": messages, "timeout": self.request_timeout_sec}
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self.api_key:
            kwargs["api_key"] = self.api_key
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if max_output_tokens is not None:
            kwargs["max_tokens"] = max_output_tokens
        response = await litellm.acompletion(num_retries=0, drop_params=True, **kwargs)
        choice = response.choices[0]
        content = choice.message.content or ""
        usage = with_cost(usage_from_response(response), self.price())
        return ModelReply(content=content, usage=usage, finish_reason=str(choice.finish_reason or "stop"))
