"""Installed CLI agents: install skipped when present, run command and env wiring, usage parsed from logs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lhtb.agents.base import AgentContext
from lhtb.agents.installed import RECIPES, InstalledAgent
from lhtb.agents.installed.adapters import claude_usage, codex_usage
from lhtb.agents.registry import create_agent
from lhtb.environments.base import ExecResult
from lhtb.errors import AgentSetupError
from lhtb.results.models import AgentSpec


class FakeEnv:
    def __init__(self, exit_codes: list[int], stdout: str = "") -> None:
        self.exit_codes = exit_codes
        self.stdout = stdout
        self.commands: list[tuple[str, dict[str, str] | None]] = []
        self.uploads: list[str] = []

    async def exec(self, command: str, *, env: dict[str, str] | None = None, **_: Any) -> ExecResult:
        self.commands.append((command, env))
        return ExecResult(self.exit_codes.pop(0), self.stdout, "err", False, 0.01)

    async def upload_tar(self, tar_bytes: bytes, dest: str) -> None:
        self.uploads.append(dest)


def _context(env: FakeEnv, tmp_path: Path) -> AgentContext:
    return AgentContext(task=SimpleNamespace(), environment=env, logs_dir=tmp_path, timeout_sec=60)  # type: ignore[arg-type]


def test_every_recipe_is_registered() -> None:
    for name in RECIPES:
        assert isinstance(create_agent(AgentSpec(name=name, model="m")), InstalledAgent)


def test_codex_run_wiring_and_usage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = [{"type": "turn.completed", "usage": {"input_tokens": 100, "cached_input_tokens": 40, "output_tokens": 7}}]
    env = FakeEnv([0, 0], stdout="\n".join(json.dumps(e) for e in events * 2))
    spec = AgentSpec(name="codex", model="gpt-5", kwargs={"api_base": "http://127.0.0.1:8089/v1"})
    agent = create_agent(spec)
    monkeypatch.setattr("lhtb.agents.installed.base.ensure_npm_agent", lambda _npm: tmp_path / "npm-cache")

    async def go() -> Any:
        needs = await agent.prepare_host(None)  # type: ignore[attr-defined]
        assert needs.mounts == {str(tmp_path / "npm-cache"): ("/opt/lhtb-agent-npm/codex", "ro")}
        await agent.setup(_context(env, tmp_path))
        return await agent.run(_context(env, tmp_path), "do it")

    outcome = asyncio.run(go())
    setup, run = env.commands
    assert setup[0] == "mkdir -p /tmp/lhtb-agent"  # nothing installed in the container: the binary is mounted
    assert run[0].startswith("/opt/lhtb-agent-npm/codex/vendor/x86_64-unknown-linux-musl/bin/codex exec ")
    assert "--model gpt-5" in run[0] and '"$(cat /tmp/lhtb-agent/instruction.md)"' in run[0]
    assert run[1] is not None and run[1]["OPENAI_BASE_URL"] == "http://127.0.0.1:8089/v1"
    assert outcome.stop_reason == "completed"
    assert (outcome.usage.input_tokens, outcome.usage.cached_input_tokens, outcome.usage.episodes) == (200, 80, 2)
    assert outcome.usage.cost_usd is None
    assert (tmp_path / "stdout.txt").is_file()


def test_install_failure_is_an_agent_setup_error(tmp_path: Path) -> None:
    agent = create_agent(AgentSpec(name="claude-code", model="m"))
    with pytest.raises(AgentSetupError, match="pinned binary was not prepared"):
        asyncio.run(agent.setup(_context(FakeEnv([1]), tmp_path)))


def test_claude_usage_from_stream_json() -> None:
    result = {
        "type": "result",
        "num_turns": 3,
        "total_cost_usd": 0.12,
        "usage": {
            "input_tokens": 10,
            "cache_read_input_tokens": 90,
            "cache_creation_input_tokens": 5,
            "output_tokens": 20,
        },
    }
    usage = claude_usage('{"type": "system"}\nnot json\n' + json.dumps(result))
    assert (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens) == (105, 90, 20)
    assert usage.cost_usd == 0.12 and usage.episodes == 3
    assert codex_usage("").episodes == 0


def test_mini_usage_from_its_trajectory() -> None:
    from lhtb.agents.installed.adapters import mini_trajectory_usage

    def reply(prompt: int, completion: int, cached: int | None, cost: float) -> dict[str, Any]:
        details = {"cached_tokens": cached} if cached is not None else None
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "prompt_tokens_details": details}
        return {"role": "assistant", "content": "x", "extra": {"response": {"usage": usage}, "cost": cost}}

    trajectory = {
        "info": {"model_stats": {"api_calls": 2}},
        "messages": [
            {"role": "system", "content": "s"},
            reply(100, 10, 30, 0.0),
            {"role": "user"},
            reply(150, 5, None, 0.0),
        ],
    }
    usage = mini_trajectory_usage(json.dumps(trajectory))
    assert (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens, usage.episodes) == (250, 30, 15, 2)
    assert usage.cost_usd is None  # mini records 0.0 for unpriced models: unknown, not free
    priced = mini_trajectory_usage(json.dumps({"messages": [reply(1, 1, 0, 0.25), reply(1, 1, 0, 0.5)]}))
    assert priced.cost_usd == pytest.approx(0.75)
    assert mini_trajectory_usage("not json").episodes == 0


def test_mini_runs_from_the_host_runtime_with_extra_args() -> None:
    agent = create_agent(
        AgentSpec(name="mini-swe-agent", model="openai/q", kwargs={"extra_args": "-c mini_textbased.yaml"})
    )
    command = agent.command()  # type: ignore[attr-defined]
    assert command.startswith("python3 -s -c ") and "sys.path.insert(0, '/opt/lhtb-agent-runtime')" in command
    assert "--model openai/q" in command and command.endswith("-c mini_textbased.yaml")
