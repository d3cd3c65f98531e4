"""Agent names on the command line → agent factories."""

from __future__ import annotations

from collections.abc import Callable

from lhtb.agents.base import Agent
from lhtb.errors import ConfigError
from lhtb.results.models import AgentSpec


def _oracle(spec: AgentSpec) -> Agent:
    from lhtb.agents.builtin import OracleAgent

    return OracleAgent()


def _nop(spec: AgentSpec) -> Agent:
    from lhtb.agents.builtin import NopAgent

    return NopAgent()


AGENT_FACTORIES: dict[str, Callable[[AgentSpec], Agent]] = {
    "oracle": _oracle,
    "nop": _nop,
}


def create_agent(spec: AgentSpec) -> Agent:
    try:
        factory = AGENT_FACTORIES[spec.name]
    except KeyError:
        known = ", ".join(sorted(AGENT_FACTORIES))
        raise ConfigError(f"unknown agent {spec.name!r}; known agents: {known}") from None
    return factory(spec)
