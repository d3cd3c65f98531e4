"""Recipes for mini-swe-agent, claude-code and codex: install, run, model wiring and usage parsing."""

from __future__ import annotations

import json
import math
import os
import shlex
from collections.abc import Iterator
from typing import Any, Final

from lhtb.agents.installed.base import AGENT_DIR, ModelRoute, Recipe, SessionLog
from lhtb.agents.installed.npm import NpmAgent
from lhtb.agents.installed.runtime import launcher
from lhtb.agents.installed.sessions import claude_trajectory, codex_trajectory
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
def _since(total: Usage, before: Usage) -> Usage:
    """A conversation's usage after a run minus before it: the run's (the whole total when the CLI started a new
    conversation, i.e. some figure went down)."""
    counts = ("input_tokens", "cached_input_tokens", "output_tokens")
    if any(getattr(total, name) < getattr(before, name) for name in counts):
        return total
    cost = None if total.cost_usd is None or before.cost_usd is None else max(total.cost_usd - before.cost_usd, 0.0)
    return Usage(**{name: getattr(total, name) - getattr(before, name) for name in counts}, cost_usd=cost,
                 refused=total.refused)  # fmt: skip


def claude_usage(stdout: str, before: Usage) -> tuple[Usage, Usage]:
    """``--output-format stream-json``: the ``result`` event. Its ``usage`` and ``num_turns`` are the run's, its
    ``total_cost_usd`` the conversation's (a resumed session carries the cost on); a cost Claude Code priced
    without knowing the model (``costBasis`` "unknown" for every model) is no price at all."""
    run, total = Usage(cost_usd=None), before
    for event in _json_lines(stdout):
        if event.get("type") != "result":
            continue
        raw = _mapping(event.get("usage"))
        models = [_mapping(m) for m in _mapping(event.get("modelUsage")).values()]
        unpriced = bool(models) and all(m.get("costBasis") == "unknown" for m in models)
        checked = Usage.reported(cost_usd=event.get("total_cost_usd"))
        conversation_cost = None if unpriced else checked.cost_usd
        earlier = before.cost_usd
        cost = None if conversation_cost is None or earlier is None else max(conversation_cost - earlier, 0.0)
        run = Usage.reported(
            input_tokens=_figure(raw, "input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"),
            cached_input_tokens=_figure(raw, "cache_read_input_tokens"),
            output_tokens=_figure(raw, "output_tokens"),
            cost_usd=cost,
            episodes=_figure(event, "num_turns"),
        )
        run = run.model_copy(update={"refused": run.refused + checked.refused})
        total = before.plus(run).model_copy(update={"cost_usd": conversation_cost})
    return run.labelled(SELF_REPORTED), total


def codex_usage(stdout: str, before: Usage) -> tuple[Usage, Usage]:
    """``codex exec --json``: ``turn.completed`` events carry the thread's usage so far (a resumed thread's count
    goes on from the earlier runs'), one per turn; the run's is the last one minus the conversation's before."""
    total: Usage | None = None
    turns = 0
    for event in _json_lines(stdout):
        if event.get("type") == "turn.completed":
            raw = _mapping(event.get("usage"))
            total = Usage.reported(
                input_tokens=_figure(raw, "input_tokens"),
                cached_input_tokens=_figure(raw, "cached_input_tokens"),
                output_tokens=_figure(raw, "output_tokens"),
                cost_usd=None,
            )
            turns += 1
    if total is None:
        return Usage(cost_usd=None), before
    run = _since(total, before).model_copy(update={"episodes": turns, "cost_usd": None})
    return run.labelled(SELF_REPORTED), total.model_copy(update={"episodes": before.episodes + turns})


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


def _openai_env(route: ModelRoute) -> dict[str, str]:
    base = route.api_base
    return {"OPENAI_BASE_URL": base, "OPENAI_API_BASE": base, "OPENAI_API_KEY": "sk-local"} if base else {}


def _codex_args(route: ModelRoute) -> str:
    """``--model``, and a base URL as a model provider of its own: Codex ignores OPENAI_BASE_URL."""
    args = f"--model {shlex.quote(route.model)}" if route.model else ""
    if route.api_base:
        provider = f'{{name="lhtb",base_url="{route.api_base}",env_key="LHTB_MODEL_KEY",wire_api="responses"}}'
        args += f" -c model_provider=lhtb -c {shlex.quote('model_providers.lhtb=' + provider)}"
    return args.strip()


def _codex_env(route: ModelRoute) -> dict[str, str]:
    env = {"CODEX_HOME": f"{AGENT_DIR}/codex-home"}  # its config, auth and sessions: one place lhtb copies out
    if route.api_base:
        env["LHTB_MODEL_KEY"] = route.api_key or os.environ.get("OPENAI_API_KEY", "sk-local")
    return env


def _claude_env(route: ModelRoute) -> dict[str, str]:
    env = {"CLAUDE_CONFIG_DIR": f"{AGENT_DIR}/claude-home"}  # settings and session logs
    if route.max_output_tokens:  # Claude Code sends its own max_tokens: the proxy's default would not apply
        env["CLAUDE_CODE_MAX_OUTPUT_TOKENS"] = str(route.max_output_tokens)
    if route.model:
        env["ANTHROPIC_MODEL"] = route.model
    if route.api_base:
        env["ANTHROPIC_BASE_URL"] = route.api_base
    if route.api_key:
        env["ANTHROPIC_AUTH_TOKEN"] = route.api_key
    return env


def _model_arg(route: ModelRoute) -> str:
    return f"--model {shlex.quote(route.model)}" if route.model else ""


def _first(stdout: str, event_type: str, key: str) -> str | None:
    """``key`` of the first ``event_type`` event the CLI printed (its conversation's id, for resume)."""
    found = (e.get(key) for e in _json_lines(stdout) if e.get("type") == event_type)
    return next((str(value)[:200] for value in found if isinstance(value, str) and value), None)


def _codex_thread(stdout: str) -> str | None:
    return _first(stdout, "thread.started", "thread_id")


def _claude_session(stdout: str) -> str | None:
    return _first(stdout, "system", "session_id")


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


_CODEX_FLAGS = "--json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox {model_args}"
_CLAUDE_FLAGS = "-p --verbose --output-format stream-json --dangerously-skip-permissions {model_args}"

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
        run="{binary} " + _CLAUDE_FLAGS + " --session-id {session} {instruction} </dev/null",
        resume="{binary} " + _CLAUDE_FLAGS + " --resume {session} {message} </dev/null",
        wire_api="messages",
        npm=CLAUDE_CODE_NPM,
        model_env=_claude_env,
        model_args=_model_arg,
        passthrough_env=("ANTHROPIC_API_KEY",),
        parse_usage=claude_usage,
        extra_env={"IS_SANDBOX": "1", "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"},
        session_log=SessionLog("claude-home/projects", claude_trajectory),
        conversation_id=_claude_session,
        notes="Anthropic Messages API: a provider key, or a chat-completions --model-api-base behind the proxy.",
    ),
    "codex": Recipe(
        name="codex",
        binary="codex",
        install="",  # never run: installed on the host from npm and mounted (npm)
        run="{binary} exec " + _CODEX_FLAGS + " {instruction} </dev/null",
        resume="{binary} exec resume {session} " + _CODEX_FLAGS + " {message} </dev/null",
        wire_api="responses",
        proxy_path="/v1",
        npm=CODEX_NPM,
        model_env=_codex_env,
        model_args=_codex_args,
        passthrough_env=("OPENAI_API_KEY",),
        parse_usage=codex_usage,
        session_log=SessionLog("codex-home/sessions", codex_trajectory),
        conversation_id=_codex_thread,
        notes="OpenAI Responses API: a provider key, or a chat-completions --model-api-base behind the proxy.",
    ),
}
