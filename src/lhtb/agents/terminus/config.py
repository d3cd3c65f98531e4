"""The terminal agent's knobs, read from ``--ak KEY=VALUE`` agent kwargs (all strings on the command line)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from lhtb.agents.terminus.output import DEFAULT_MAX_OUTPUT_CHARS
from lhtb.errors import ConfigError

# Keys consumed by the model layer (lhtb.llm.build_model), accepted here so typos elsewhere still fail loudly.
MODEL_KEYS = {
    "api_base",
    "api_key",
    "temperature",
    "context_window",
    "request_timeout_sec",
    "max_attempts",
    "script",
    "price_input_per_mtok",
    "price_output_per_mtok",
    "price_cached_input_per_mtok",
}


@dataclass(frozen=True)
class TerminusConfig:
    max_episodes: int = 200  # model calls over the whole conversation (all phases)
    max_tokens: int | None = None  # input + output tokens over the whole conversation
    max_cost_usd: float | None = None  # enforced only while the cost is known
    max_reply_tokens: int = 2048  # per model reply
    summarize_at: float = 0.8  # summarise when the prompt would exceed this share of the usable window
    keep_recent_turns: int = 3  # model turns (reply + observation) kept verbatim when summarising
    max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS  # terminal output shown per turn (head + tail)
    width: int = 160
    height: int = 40

    @classmethod
    def from_kwargs(cls, kwargs: dict[str, str]) -> TerminusConfig:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, object] = {}
        for key, raw in kwargs.items():
            if key in MODEL_KEYS:
                continue
            if key not in known:
                allowed = ", ".join(sorted({*known, *MODEL_KEYS}))
                raise ConfigError(f"terminus: unknown agent kwarg {key!r}; known: {allowed}")
            kind = float if key in ("max_cost_usd", "summarize_at") else int
            try:
                values[key] = kind(raw)
            except ValueError:
                raise ConfigError(f"terminus: agent kwarg {key}={raw!r} is not a {kind.__name__}") from None
        config = cls(**values)  # type: ignore[arg-type]
        if not 0.1 <= config.summarize_at <= 1.0:
            raise ConfigError(f"terminus: summarize_at must be in [0.1, 1], got {config.summarize_at}")
        return config
