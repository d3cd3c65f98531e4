"""``-a terminus``: the neutral terminal agent (tmux in the task container, JSON keystroke turns)."""

from __future__ import annotations

from lhtb.agents.terminus.agent import TerminusAgent
from lhtb.agents.terminus.config import TerminusConfig
from lhtb.errors import ConfigError
from lhtb.results.models import AgentSpec

__all__ = ["TerminusAgent", "TerminusConfig", "create_terminus"]


def create_terminus(spec: AgentSpec) -> TerminusAgent:
    """Build from ``-m MODEL``, ``--model-api-base`` and ``--ak KEY=VALUE`` knobs (see docs/agents.md)."""
    from lhtb.llm import build_model

    if not spec.model:
        raise ConfigError("terminus needs a model: -m PROVIDER/MODEL (any litellm model string), or -m scripted")
    config = TerminusConfig.from_kwargs(spec.kwargs)
    return TerminusAgent(build_model(spec.model, spec.kwargs), config)
