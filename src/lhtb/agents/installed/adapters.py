"""Recipes for mini-swe-agent, claude-code and codex: install, run, model wiring and usage parsing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from lhtb.agents.installed.base import Recipe
from lhtb.agents.installed.runtime import launcher
from lhtb.results.models import Usage


def _json_lines(stdout: str) -> Iterator[dict[str, Any]]:
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                yield value


def claude_usage(stdout: str) -> Usage:
    """``--output-format stream-json``: the final ``result`` event carries usage and total cost."""
    usage = Usage(cost_usd=None)
    for event in _json_lines(stdout):
        if event.get("type") == "result":
            raw = event.get("usage") or {}
            cached = int(raw.get("cache_read_input_tokens", 0))
            usage = Usage(
                input_tokens=int(raw.get("input_tokens", 0)) + cached + int(raw.get("cache_creation_input_tokens", 0)),
                cached_input_tokens=cached,
                output_tokens=int(raw.get("output_tokens", 0)),
                cost_usd=event.get("total_cost_usd"),
                episodes=int(event.get("num_turns", 0)),
            )
    return usage


def codex_usage(stdout: str) -> Usage:
    """``codex exec --json``: one ``turn.completed`` event per turn with that turn's usage."""
    total = Usage(cost_usd=None)
    for event in _json_lines(stdout):
        if event.get("type") == "turn.completed":
            raw = event.get("usage") or {}
            turn = Usage(
                input_tokens=int(raw.get("input_tokens", 0)),
                cached_input_tokens=int(raw.get("cached_input_tokens", 0)),
                output_tokens=int(raw.get("output_tokens", 0)),
                cost_usd=None,
                episodes=1,
            )
            total = total.plus(turn)
    return total


def mini_trajectory_usage(text: str) -> Usage:
    """mini-swe-agent's trajectory: each model message keeps the provider's response, usage included."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Usage(cost_usd=None)
    total = Usage()  # no call, no cost; one unpriced call makes the sum unknown
    for message in data.get("messages", []) if isinstance(data, dict) else []:
        extra = message.get("extra") if isinstance(message, dict) else None
        response = extra.get("response") if isinstance(extra, dict) else None
        raw = response.get("usage") if isinstance(response, dict) else None
        if not isinstance(raw, dict):
            continue
        details = raw.get("prompt_tokens_details") or {}
        cost = extra.get("cost") if isinstance(extra, dict) else None
        total = total.plus(
            Usage(
                input_tokens=int(raw.get("prompt_tokens") or 0),
                cached_input_tokens=int(details.get("cached_tokens") or 0) if isinstance(details, dict) else 0,
                output_tokens=int(raw.get("completion_tokens") or 0),
                cost_usd=float(cost) if isinstance(cost, (int, float)) and cost > 0 else None,
                episodes=1,
            )
        )
    return total


def _openai_env(model: str | None, api_base: str | None) -> dict[str, str]:
    env = {"OPENAI_BASE_URL": api_base, "OPENAI_API_BASE": api_base} if api_base else {}
    if api_base:
        env.setdefault("OPENAI_API_KEY", "sk-local")
    return env


def _claude_env(model: str | None, api_base: str | None) -> dict[str, str]:
    env = {"ANTHROPIC_MODEL": model} if model else {}
    return env | ({"ANTHROPIC_BASE_URL": api_base} if api_base else {})


RECIPES: dict[str, Recipe] = {
    "mini-swe-agent": Recipe(
        name="mini-swe-agent",
        binary="mini",
        install="",  # never run: installed on the host and mounted (python_packages)
        run=launcher("minisweagent.run.mini:app", prog="mini") + " --yolo --exit-immediately --model {model} "
        "--task {instruction} --output {agent_dir}/mini-swe-agent.trajectory.json",
        model_env=_openai_env,
        passthrough_env=("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"),
        extra_env={"MSWEA_CONFIGURED": "true", "MSWEA_COST_TRACKING": "ignore_errors"},
        notes="litellm model strings, like terminus; usage from its trajectory JSON (copied to agent/).",
        python_packages=("mini-swe-agent==2.4.6",),
        trajectory="mini-swe-agent.trajectory.json",
        parse_trajectory=mini_trajectory_usage,
    ),
    "claude-code": Recipe(
        name="claude-code",
        binary="claude",
        install="npm install -g @anthropic-ai/claude-code",
        run="claude --verbose --output-format stream-json --dangerously-skip-permissions -p {instruction}",
        model_env=_claude_env,
        passthrough_env=("ANTHROPIC_API_KEY",),
        parse_usage=claude_usage,
        extra_env={"IS_SANDBOX": "1", "DISABLE_AUTOUPDATER": "1"},
        notes="Anthropic API (or ANTHROPIC_BASE_URL); usage and cost from the stream-json result event.",
    ),
    "codex": Recipe(
        name="codex",
        binary="codex",
        install="npm install -g @openai/codex",
        run="codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "
        "--model {model} {instruction}",
        model_env=_openai_env,
        passthrough_env=("OPENAI_API_KEY",),
        parse_usage=codex_usage,
        notes="OpenAI API (or OPENAI_BASE_URL); usage from turn.completed events, cost unknown.",
    ),
}
