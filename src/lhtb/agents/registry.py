"""Agent names on the command line → agent factories."""

from __future__ import annotations

from collections.abc import Callable

from lhtb.agents.base import Agent
from lhtb.errors import ConfigError
from lhtb.qa.exploits.names import BASELINE as EXPLOIT_BASELINE
from lhtb.qa.exploits.names import EXPLOITS
from lhtb.results.models import AgentSpec


def _oracle(spec: AgentSpec) -> Agent:
    from lhtb.agents.builtin import OracleAgent

    return OracleAgent()


def _baseline(spec: AgentSpec) -> Agent:
    from lhtb.agents.builtin import BaselineAgent

    return BaselineAgent()


def _shortcut(spec: AgentSpec) -> Agent:
    from lhtb.agents.builtin import ShortcutAgent

    script = spec.kwargs.get("script")
    if not isinstance(script, str):
        raise ConfigError("agent 'shortcut' needs --ak script=NAME (a file under the task's tests/shortcuts/)")
    return ShortcutAgent(script)


def _nop(spec: AgentSpec) -> Agent:
    from lhtb.agents.builtin import NopAgent

    return NopAgent()


def _terminus(spec: AgentSpec) -> Agent:
    from lhtb.agents.terminus import create_terminus

    return create_terminus(spec)


def _exploit(spec: AgentSpec) -> Agent:
    from lhtb.qa.exploits import create_exploit

    return create_exploit(spec)  # type: ignore[return-value]


def _installed(spec: AgentSpec) -> Agent:
    from lhtb.agents.installed import create_installed

    return create_installed(spec)


AGENT_FACTORIES: dict[str, Callable[[AgentSpec], Agent]] = {
    "oracle": _oracle,
    "baseline": _baseline,
    "nop": _nop,
    "shortcut": _shortcut,
    "terminus": _terminus,
    "mini-swe-agent": _installed,
    "claude-code": _installed,
    "codex": _installed,
    # lhtb tasks audit: the exploit agents and the paced nop baseline (lhtb/qa/exploits/names.py)
    **dict.fromkeys([*EXPLOITS, EXPLOIT_BASELINE], _exploit),
}


def is_known_agent(name: str) -> bool:
    return name in AGENT_FACTORIES or ":" in name


def _import_factory(name: str) -> Callable[[AgentSpec], Agent]:
    """``package.module:Attr`` names a custom agent class or factory taking the AgentSpec."""
    import importlib

    module_name, _, attr = name.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"agent {name!r}: cannot import {attr!r} from {module_name!r}: {exc}") from exc


def create_agent(spec: AgentSpec) -> Agent:
    if spec.name in AGENT_FACTORIES:
        return AGENT_FACTORIES[spec.name](spec)
    if ":" in spec.name:
        return _import_factory(spec.name)(spec)
    known = ", ".join(sorted(AGENT_FACTORIES))
    raise ConfigError(f"unknown agent {spec.name!r}; known agents: {known}, or module:Class") from None
