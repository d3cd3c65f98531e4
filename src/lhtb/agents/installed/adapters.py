"""Recipes for mini-swe-agent, claude-code and codex: install, run, model wiring and usage parsing."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any, Final

from lhtb.agents.installed.base import Recipe
from lhtb.agents.installed.npm import NpmAgent
from lhtb.agents.installed.runtime import launcher
from lhtb.results.models import Usage

SELF_REPORTED: Final = "self-reported"  # every figure here comes from the CLI's own output (docs/integrity.md)


def _json_lines(stdout: str) -> Iterator[dict[str, Any]]:
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except (ValueError, RecursionError):  # bad JSON, a 5,000-digit number, nesting bombs
                continue
            if isinstance(value, dict):
                yield value


def _valid(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def _figure(raw: dict[str, Any], *keys: str) -> object:
    """The sum of ``raw[keys]`` (missing or null: 0); the first invalid value instead, for Usage to refuse."""
    values = [raw.get(key) or 0 for key in keys]
    bad = [v for v in values if not _valid(v)]
    return bad[0] if bad else sum(values)


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# The parsers below read what the CLI printed: numbers are passed to Usage as found, never coerced with int(),
# so a forged figure (negative, NaN, a string) is refused with a note by Usage's validator instead of raising.
def claude_usage(stdout: str) -> Usage:
    """``--output-format stream-json``: the final ``result`` event carries usage and total cost."""
    usage = Usage(cost_usd=None)
    for event in _json_lines(stdout):
        if event.get("type") == "result":
            raw = _mapping(event.get("usage"))
            usage = Usage.reported(
                input_tokens=_figure(raw, "input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"),
                cached_input_tokens=_figure(raw, "cache_read_input_tokens"),
                output_tokens=_figure(raw, "output_tokens"),
                cost_usd=event.get("total_cost_usd"),
                episodes=_figure(event, "num_turns"),
            )
    return usage.labelled(SELF_REPORTED)


def codex_usage(stdout: str) -> Usage:
    """``codex exec --json``: one ``turn.completed`` event per turn with that turn's usage."""
    total = Usage(cost_usd=None)
    for event in _json_lines(stdout):
        if event.get("type") == "turn.completed":
            raw = _mapping(event.get("usage"))
            turn = Usage.reported(
                input_tokens=_figure(raw, "input_tokens"),
                cached_input_tokens=_figure(raw, "cached_input_tokens"),
                output_tokens=_figure(raw, "output_tokens"),
                cost_usd=None,
                episodes=1,
            )
            total = total.plus(turn)
    return total.labelled(SELF_REPORTED)


def mini_trajectory_usage(text: str) -> Usage:
    """mini-swe-agent's trajectory: each model message keeps the provider's response, usage included."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return Usage(cost_usd=None)
    total = Usage()  # no call, no cost; one unpriced call makes the sum unknown
    messages = data.get("messages") if isinstance(data, dict) else None
    for message in messages if isinstance(messages, list) else []:
        extra = _mapping(message.get("extra") if isinstance(message, dict) else None)
        raw = _mapping(extra.get("response")).get("usage")
        if not isinstance(raw, dict):
            continue
        cost = extra.get("cost")
        total = total.plus(
            Usage.reported(
                input_tokens=_figure(raw, "prompt_tokens"),
                cached_input_tokens=_figure(_mapping(raw.get("prompt_tokens_details")), "cached_tokens"),
                output_tokens=_figure(raw, "completion_tokens"),
                cost_usd=None if cost is None or cost == 0 else cost,  # 0: mini's "unpriced"; negative: refused
                episodes=1,
            )
        )
    return total.labelled(SELF_REPORTED)


def _openai_env(model: str | None, api_base: str | None) -> dict[str, str]:
    env = {"OPENAI_BASE_URL": api_base, "OPENAI_API_BASE": api_base} if api_base else {}
    if api_base:
        env.setdefault("OPENAI_API_KEY", "sk-local")
    return env


def _claude_env(model: str | None, api_base: str | None) -> dict[str, str]:
    env = {"ANTHROPIC_MODEL": model} if model else {}
    return env | ({"ANTHROPIC_BASE_URL": api_base} if api_base else {})


# Pinned npm releases (checked on this machine's registry mirror, 2026-12-04): the platform package's npm
# integrity and the native binary's sha256 are verified at install and at every use (npm.py).
CODEX_NPM = NpmAgent(
    name="codex",
    package="@openai/codex",
    version="0.171.0",
    platform_package="@openai/codex-linux-x64",
    integrity="sha512-l66NZkQgdk2C3pbcfULDz42yEUB581MVA6I+Y43Wp4OIqEy73HCdmZ0GTjeAHY2ycuH4N00d9VsLrwT1jxshTw==",
    binary="vendor/x86_64-unknown-linux-musl/bin/codex",
    sha256="b76a027d6b210f9a8da7aaf321dd235c700f0ef7a794d4a5314b9af6c134f0f0",
)
CLAUDE_CODE_NPM = NpmAgent(
    name="claude-code",
    package="@anthropic-ai/claude-code",
    version="2.1.332",
    platform_package="@anthropic-ai/claude-code-linux-x64",
    integrity="sha512-f4JWhzwYutJIHScC7/dYOPX6s28tt7ZADhsOi8zwOHq5fFPEuUeChh2NMfinSg0GrUckYxaeebC4h0DqiKzLcw==",
    binary="claude",
    sha256="a2df1f41bb00250992926420d0063f89b127cb81abdd284dbefb80c50ff1d026",
)


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
        install="",  # never run: installed on the host from npm and mounted (npm)
        run="{binary} --verbose --output-format stream-json --dangerously-skip-permissions -p {instruction}",
        npm=CLAUDE_CODE_NPM,
        model_env=_claude_env,
        passthrough_env=("ANTHROPIC_API_KEY",),
        parse_usage=claude_usage,
        extra_env={"IS_SANDBOX": "1", "DISABLE_AUTOUPDATER": "1"},
        notes="Anthropic API (or ANTHROPIC_BASE_URL); usage and cost from the stream-json result event.",
    ),
    "codex": Recipe(
        name="codex",
        binary="codex",
        install="",  # never run: installed on the host from npm and mounted (npm)
        run="{binary} exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "
        "--model {model} {instruction}",
        npm=CODEX_NPM,
        model_env=_openai_env,
        passthrough_env=("OPENAI_API_KEY",),
        parse_usage=codex_usage,
        notes="OpenAI API (or OPENAI_BASE_URL); usage from turn.completed events, cost unknown.",
    ),
}
