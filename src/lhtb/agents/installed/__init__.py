"""CLI agents installed into the task container (mini-swe-agent, claude-code, codex); see docs/agents.md."""

from __future__ import annotations

from lhtb.agents.installed.adapters import RECIPES
from lhtb.agents.installed.base import InstalledAgent, Recipe, ResumableInstalledAgent
from lhtb.errors import ConfigError
from lhtb.results.models import AgentSpec

__all__ = ["RECIPES", "InstalledAgent", "Recipe", "ResumableInstalledAgent", "create_installed"]


def create_installed(spec: AgentSpec) -> InstalledAgent:
    try:
        recipe = RECIPES[spec.name]
    except KeyError:
        raise ConfigError(f"no installed-agent recipe named {spec.name!r}; known: {', '.join(RECIPES)}") from None
    return ResumableInstalledAgent(recipe, spec) if recipe.resume else InstalledAgent(recipe, spec)
