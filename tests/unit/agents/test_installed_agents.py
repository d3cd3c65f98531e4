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
from lhtb.agents.installed.sessions import claude_trajectory, codex_trajectory
from lhtb.agents.registry import create_agent
from lhtb.environments.base import ExecResult
from lhtb.errors import AgentSetupError
from lhtb.results.models import AgentSpec, Usage

RECORDED = Path(__file__).with_name("recorded")  # real output of Codex 0.171.0 and Claude Code 2.1.332 (below)


class FakeEnv:
    def __init__(self, exit_codes: list[int], stdout: str = "") -> None:
        self.exit_codes = exit_codes
        self.stdout = stdout
        self.commands: list[tuple[str, dict[str, str] | None]] = []
        self.uploads: list[str] = []
        self.spec = SimpleNamespace(name="fake")

    async def exec(self, command: str, *, env: dict[str, str] | None = None, **_: Any) -> ExecResult:
        self.commands.append((command, env))
        return ExecResult(self.exit_codes.pop(0), self.stdout, "err", False, 0.01)

    async def upload_tar(self, tar_bytes: bytes, dest: str) -> None:
        self.uploads.append(dest)

    async def download_sanitized(self, path: str, **_: Any) -> None:
        return None  # the CLI left no session log


def _context(env: FakeEnv, tmp_path: Path) -> AgentContext:
    return AgentContext(task=SimpleNamespace(), environment=env, logs_dir=tmp_path, timeout_sec=60)  # type: ignore[arg-type]


def test_every_recipe_is_registered() -> None:
    for name in RECIPES:
        assert isinstance(create_agent(AgentSpec(name=name, model="m")), InstalledAgent)


def test_codex_run_wiring_and_usage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With its own provider (no --model-api-base): the pinned binary, the model, usage from turn.completed."""
    env = FakeEnv([0, 0], stdout=(RECORDED / "codex-run.jsonl").read_text())
    agent = create_agent(AgentSpec(name="codex", model="gpt-5"))
    monkeypatch.setattr("lhtb.agents.installed.base.ensure_npm_agent", lambda _npm: tmp_path / "npm-cache")

    async def go() -> Any:
        needs = await agent.prepare_host(None)  # type: ignore[attr-defined]
        assert needs.mounts == {str(tmp_path / "npm-cache"): ("/opt/lhtb-agent-npm/codex", "ro")}
        assert needs.model_api_base is None
        await agent.setup(_context(env, tmp_path))
        return await agent.run(_context(env, tmp_path), "do it")

    outcome = asyncio.run(go())
    setup, run = env.commands
    assert setup[0] == "mkdir -p /tmp/lhtb-agent /tmp/lhtb-agent/codex-home"  # nothing installed: the binary is mounted
    assert run[0].startswith("/opt/lhtb-agent-npm/codex/vendor/x86_64-unknown-linux-musl/bin/codex exec ")
    assert "--model gpt-5" in run[0] and '"$LHTB_INSTRUCTION"' in run[0] and run[1]["LHTB_INSTRUCTION"] == "do it"
    assert run[0].endswith("</dev/null")  # else it waits for more input on its stdin
    assert run[1] is not None and run[1]["CODEX_HOME"] == "/tmp/lhtb-agent/codex-home"
    assert outcome.stop_reason == "completed"
    assert (outcome.usage.input_tokens, outcome.usage.output_tokens, outcome.usage.episodes) == (200, 14, 1)
    assert outcome.usage.cost_usd is None and outcome.usage.source == "self-reported"
    assert agent.ledger.conversation == "01a24e35-3285-7f21-86d7-3f1ad5a267a4"  # type: ignore[attr-defined]
    assert (tmp_path / "stdout.txt").is_file()


def test_codex_behind_a_chat_completions_base_gets_a_provider_of_its_own() -> None:
    """Codex ignores OPENAI_BASE_URL: a base URL is a model provider on the command line, keyed by env."""
    agent = create_agent(
        AgentSpec(name="codex", model="q", kwargs={"api_base": "http://127.0.0.1:9/v1", "proxy": "off"})
    )
    command, env = agent.command(), agent.run_env()  # type: ignore[attr-defined]
    assert "-c model_provider=lhtb" in command and 'base_url="http://127.0.0.1:9/v1"' in command
    assert 'wire_api="responses"' in command and env["LHTB_MODEL_KEY"]


def test_resumed_runs_report_the_conversation_so_far_and_the_run_is_the_difference() -> None:
    """Recorded: a resumed Codex thread's turn.completed counts the whole thread (300/21 after 200/14), a
    resumed Claude Code session's total_cost_usd the whole session: each run's own figures are the difference."""
    run, total = codex_usage((RECORDED / "codex-run.jsonl").read_text(), Usage())
    again, total = codex_usage((RECORDED / "codex-resume.jsonl").read_text(), total)
    assert (run.input_tokens, run.output_tokens) == (200, 14)
    assert (again.input_tokens, again.output_tokens, again.episodes) == (100, 7, 1)
    assert (total.input_tokens, total.output_tokens) == (300, 21)

    run, total = claude_usage((RECORDED / "claude-run.jsonl").read_text(), Usage())
    again, total = claude_usage((RECORDED / "claude-resume.jsonl").read_text(), total)
    assert (run.input_tokens, run.output_tokens, run.episodes) == (200, 14, 2)
    assert (again.input_tokens, again.output_tokens, again.episodes) == (100, 7, 1)
    # Claude Code priced a model it does not know (costBasis "unknown"): no price, not its made-up one.
    assert run.cost_usd is None and again.cost_usd is None


def test_the_cli_session_logs_become_atif_trajectories() -> None:
    codex = codex_trajectory([(RECORDED / "codex-rollout.jsonl").read_text()], "q", "0.171.0")
    agent_steps = [s for s in codex.steps if s.source == "agent"]
    calls = [c for s in agent_steps for c in s.tool_calls or []]
    assert [c.function_name for c in calls] == ["exec_command"]
    assert calls[0].arguments == {"cmd": "echo hi > /tmp/stub-was-here"}
    answered = next(s for s in agent_steps if s.tool_calls)
    assert answered.observation is not None and "Process exited with code 0" in answered.observation.results[0].content
    assert [s.message for s in codex.steps if s.source == "user"] == ["create /tmp/x", "try again"]
    assert codex.final_metrics.total_prompt_tokens == 300  # one token_count per model call

    claude = claude_trajectory([(RECORDED / "claude-session.jsonl").read_text()], "q", "2.1.332")
    calls = [c for s in claude.steps for c in s.tool_calls or []]
    assert [(c.function_name, c.arguments["command"]) for c in calls] == [("Bash", "echo hi > /tmp/stub-was-here")]
    assert claude.session_id == "3f0c6f1e-8a7e-4c1e-9d2b-2f4e6a8b0c11"
    assert [s.message for s in claude.steps if s.source == "agent" and not s.tool_calls] == ["done", "done"]


@pytest.mark.parametrize("convert", [codex_trajectory, claude_trajectory])
def test_session_converters_take_any_text(convert: Any) -> None:
    """Session logs are written inside the agent's container: junk, wrong types and forged numbers never raise."""
    junk = [
        "not json\n[1,2]\n{}\n",
        json.dumps({"type": "response_item", "payload": {"type": "function_call", "arguments": "{bad"}}),
        json.dumps({"type": "assistant", "message": {"content": [{"type": "tool_use", "input": 5}], "usage": {"input_tokens": -3}}}),
        json.dumps({"type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": "NaN"}}}}),
    ]  # fmt: skip
    trajectory = convert(junk, None, "")
    assert trajectory.final_metrics.total_prompt_tokens >= 0


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
    usage, _total = claude_usage('{"type": "system"}\nnot json\n' + json.dumps(result), Usage())
    assert (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens) == (105, 90, 20)
    assert usage.cost_usd == 0.12 and usage.episodes == 3
    assert codex_usage("", Usage())[0].episodes == 0


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
