"""Codex and Claude Code, the real pinned binaries, in a ``--network none`` task container: through the model
bridge to the translating proxy (litellm's, on the host's loopback) and on to a scripted chat-completions model.

A scripted model makes every count exact: the first turn's command writes the wrong answer, the rejection is
sent as the next turn of the same conversation, the second command writes the right one. The local-LLM run of
both CLIs is in test_local_model_e2e.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import containers_of
from scripted_chat import USAGE, scripted_chat_server

from lhtb.jobs.job_runner import new_job_config, run_job
from lhtb.results.models import AgentSpec, TrialResult, UsageCheck
from lhtb.results.trajectory import Trajectory

pytestmark = pytest.mark.slow

WRONG, RIGHT = "echo hi > /app/out.txt", "echo hello > /app/out.txt"


@pytest.mark.parametrize("cli", ["codex", "claude-code"])
def test_a_cli_resumes_its_conversation_behind_the_proxy(cli: str, make_task: Any, tmp_path: Path) -> None:
    task = make_task("hello-cli", agent_timeout=300)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]\n", "[agent]\ncontinue_until_timeout = true\n", 1))
    with scripted_chat_server([WRONG, RIGHT]) as (api_base, script):
        spec = AgentSpec(name=cli, model="openai/scripted", kwargs={"api_base": api_base})
        config = new_job_config(make_task.root, None, [spec], job_name=cli, attempts=1, concurrency=1, max_retries=0)
        run_job(config, tmp_path / "jobs")
    trial_dir = next((tmp_path / "jobs" / cli / "trials").iterdir())
    agent_dir = trial_dir / "agent"
    result = TrialResult.model_validate_json((trial_dir / "result.json").read_text())
    stdout = (agent_dir / "stdout.txt").read_text()

    assert result.error is None, (result.error, stdout[-2000:], (agent_dir / "proxy.log").read_text()[-2000:])
    assert result.reward == 1.0, stdout[-2000:]
    assert [p.reward for p in result.phases] == [0.0, 1.0]
    assert [p.mode for p in result.phases] == ["initial", "same-conversation"]  # codex exec resume, claude --resume
    assert script.commands == []  # both commands were asked for and run in the container

    # Every call went through the proxy, which measured it; the CLI's own figures agree, run by run.
    calls = (agent_dir / "proxy-usage.jsonl").read_text().splitlines()
    assert len(calls) == len(script.requests) == 4
    check = UsageCheck.model_validate_json((agent_dir / "usage-check.json").read_text())
    assert [run.kind for run in check.runs] == ["run", "resume"]
    assert check.agree, check
    usage = result.usage
    assert usage.source == "measured" and usage.episodes == 4  # model calls, as the proxy saw them
    assert (usage.input_tokens, usage.output_tokens) == (4 * USAGE["prompt_tokens"], 4 * USAGE["completion_tokens"])
    assert usage.cost_usd is None  # a model with no price: unknown, not the CLI's own guess

    # The CLI's session log, copied out and converted: both commands, each with its output.
    trajectory = Trajectory.model_validate_json((agent_dir / "trajectory.json").read_text())
    commands = [json.dumps(c.arguments) for s in trajectory.steps for c in s.tool_calls or []]
    assert len(commands) == 2 and "echo hi" in commands[0] and "echo hello" in commands[1]
    assert any((agent_dir / "sessions").iterdir())
    assert containers_of(cli) == []
