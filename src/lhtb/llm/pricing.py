"""Cost per call: a job-config price table first, else litellm's cost map loaded from disk, else unknown."""

from __future__ import annotations

import os
from dataclasses import dataclass

from lhtb.llm.base import CallUsage


@dataclass(frozen=True)
class Price:
    """USD per million tokens. ``cached_input`` defaults to ``input`` when a provider has no discount."""

    input: float
    output: float
    cached_input: float | None = None

    def cost(self, input_tokens: int, cached_input_tokens: int, output_tokens: int) -> float:
        cached_rate = self.input if self.cached_input is None else self.cached_input
        uncached = max(0, input_tokens - cached_input_tokens)
        return (uncached * self.input + cached_input_tokens * cached_rate + output_tokens * self.output) / 1e6


def price_from_kwargs(kwargs: dict[str, str]) -> Price | None:
    """The override table: ``price_input_per_mtok``, ``price_output_per_mtok``, ``price_cached_input_per_mtok``."""
    if "price_input_per_mtok" not in kwargs and "price_output_per_mtok" not in kwargs:
        return None
    cached = kwargs.get("price_cached_input_per_mtok")
    return Price(
        input=float(kwargs.get("price_input_per_mtok", 0)),
        output=float(kwargs.get("price_output_per_mtok", 0)),
        cached_input=None if cached is None else float(cached),
    )


def use_local_cost_map() -> None:
    """Make litellm read its bundled price map instead of fetching one (7 s and a non-local request)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def litellm_price(model: str) -> Price | None:
    """The bundled litellm price for ``model`` (with or without its provider prefix), or None if unlisted."""
    use_local_cost_map()
    import litellm

    for key in (model, model.split("/", 1)[-1]):
        entry = litellm.model_cost.get(key)
        if entry and "input_cost_per_token" in entry and "output_cost_per_token" in entry:
            cached = entry.get("cache_read_input_token_cost")
            return Price(
                input=entry["input_cost_per_token"] * 1e6,
                output=entry["output_cost_per_token"] * 1e6,
                cached_input=None if cached is None else cached * 1e6,
            )
    return None


def with_cost(usage: CallUsage, price: Price | None) -> CallUsage:
    if price is None:
        return CallUsage(usage.input_tokens, usage.cached_input_tokens, usage.output_tokens, None)
    cost = price.cost(usage.input_tokens, usage.cached_input_tokens, usage.output_tokens)
    return CallUsage(usage.input_tokens, usage.cached_input_tokens, usage.output_tokens, cost)
