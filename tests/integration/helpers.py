"""Running jobs from integration tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lhtb.jobs.job_runner import new_job_config, run_job
from lhtb.results.models import AgentSpec, JobResult, TrialResult


def run(
    dataset: Path, jobs: Path, agents: tuple[str, ...] = ("oracle",), *, name: str = "job", **kwargs: object
) -> tuple[JobResult, dict[str, TrialResult]]:
    config = new_job_config(
        dataset,
        kwargs.pop("tasks", None),  # type: ignore[arg-type]
        [AgentSpec(name=a) for a in agents],
        job_name=name,
        attempts=int(kwargs.pop("attempts", 1)),  # type: ignore[call-overload]
        concurrency=int(kwargs.pop("concurrency", 2)),  # type: ignore[call-overload]
        max_retries=int(kwargs.pop("max_retries", 0)),  # type: ignore[call-overload]
        **kwargs,
    )
    job_result = run_job(config, jobs)
    trials = {}
    for path in sorted((jobs / name / "trials").glob("*/result.json")):
        result = TrialResult.model_validate_json(path.read_text())
        trials[result.trial_name] = result
    return job_result, trials


def containers_of(job: str) -> list[str]:
    from lhtb.environments.docker_client import get_client

    return [c["Id"] for c in get_client().api.containers(all=True, filters={"label": f"lhtb.job={job}"})]


def wait_for(predicate: Callable[[], bool], timeout: float = 90, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _as_in_a_terminal() -> None:
    """The server's SIGINT as a terminal gives it: a test run started in the background (``cmd &`` without job
    control) ignores SIGINT, every child inherits that, and Ctrl-C would then never reach the server."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass
class ServedView:
    url: str  # http://127.0.0.1:PORT/
    process: subprocess.Popen[str]
    exit_code: int | None = None  # after the context: how the server ended on Ctrl-C


@contextmanager
def served_view(job_dir: Path) -> Iterator[ServedView]:
    """``lhtb view JOB --serve --port 0`` in a subprocess, stopped with Ctrl-C (SIGINT) when the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "lhtb.cli", "view", str(job_dir), "--serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=_as_in_a_terminal,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, line + (proc.stderr.read() if proc.stderr else "")
        served = ServedView(match.group(0), proc)
        yield served
        proc.send_signal(signal.SIGINT)
        served.exit_code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
