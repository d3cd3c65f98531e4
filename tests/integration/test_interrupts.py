"""Ctrl-C / SIGTERM leave no container behind; resume after kill -9 loses and duplicates nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import containers_of, wait_for

from lhtb.results.models import TrialResult

LHTB = [sys.executable, "-m", "lhtb.cli"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_during_job_leaves_no_container(make_task, tmp_path: Path, sig: signal.Signals) -> None:
    make_task("sleepy", solve="sleep 600", agent_timeout=900)
    job = f"sig-{sig.name.lower()}"
    proc = subprocess.Popen(
        [
            *LHTB,
            "run",
            "-p",
            str(make_task.root),
            "-a",
            "oracle",
            "-k",
            "2",
            "-n",
            "2",
            "-o",
            str(tmp_path),
            "--job-name",
            job,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(lambda: len(containers_of(job)) >= 4, what="the trial containers")
        # Wait until the agent phase runs (the oracle's solve.sh is executing) before interrupting.
        time.sleep(1.5)
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0
    assert containers_of(job) == []


def test_sigterm_during_tasks_check_leaves_no_container(make_task, tmp_path: Path) -> None:
    """The check's gradings remove their containers when it is terminated, and it writes no lock or report."""
    from lhtb.environments.docker_client import get_client

    task = make_task("check-sigterm", solve="sleep 600", agent_timeout=900)
    lock, report = tmp_path / "qa-lock.json", tmp_path / "qa.json"
    command = [*LHTB, "tasks", "check", str(task), "--no-audit", "--basic", "--lock", str(lock), "--update-lock"]
    proc = subprocess.Popen([*command, "--report", str(report)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def ours() -> list[str]:
        found = get_client().api.containers(all=True, filters={"label": "lhtb.job=qa", "name": "qa-check-sigterm-"})
        return [c["Id"] for c in found]

    try:
        wait_for(lambda: len(ours()) >= 1, timeout=240, what="the check's containers")
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143
    wait_for(lambda: ours() == [], timeout=30, what="the containers to go")
    assert not lock.exists() and not report.exists()


def test_resume_after_kill_9(make_task, tmp_path: Path) -> None:
    make_task("steady", solve="sleep 1; echo hello > /app/out.txt")
    job = "killed"
    proc = subprocess.Popen(
        [
            *LHTB,
            "run",
            "-p",
            str(make_task.root),
            "-a",
            "oracle",
            "-k",
            "4",
            "-n",
            "1",
            "-o",
            str(tmp_path),
            "--job-name",
            job,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    trials = tmp_path / job / "trials"
    try:
        wait_for(lambda: len(list(trials.glob("*/result.json"))) >= 1, what="the first result")
        wait_for(lambda: len(containers_of(job)) >= 2, what="the second trial's containers")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    finished_before = {p.parent.name: p.read_bytes() for p in trials.glob("*/result.json")}
    assert 1 <= len(finished_before) < 4
    assert containers_of(job), "kill -9 should have left the running trial's containers behind"

    resumed = subprocess.run(
        [*LHTB, "jobs", "resume", str(tmp_path / job)], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr

    results = {p.parent.name: p for p in trials.glob("*/result.json")}
    assert sorted(results) == [f"steady__oracle__{i}" for i in range(1, 5)]
    for name, content in finished_before.items():
        assert results[name].read_bytes() == content, f"{name} was re-run"
    for path in results.values():
        assert TrialResult.model_validate_json(path.read_text()).reward == 1.0
    assert containers_of(job) == []


def test_env_gc_removes_only_containers_of_dead_owners() -> None:
    import socket

    from typer.testing import CliRunner

    from lhtb.cli.app import app
    from lhtb.environments.docker_client import get_client

    client = get_client()
    dead_pid = subprocess.Popen(["true"])
    dead_pid.wait()
    labels = {"lhtb.managed": "1", "lhtb.job": "gc-test", "lhtb.owner-host": socket.gethostname()}
    orphan = client.containers.run(
        "lhtb/base:bookworm",
        ["sleep", "infinity"],
        detach=True,
        init=True,
        network_mode="none",
        labels={**labels, "lhtb.owner-pid": str(dead_pid.pid)},
    )
    alive = client.containers.run(
        "lhtb/base:bookworm",
        ["sleep", "infinity"],
        detach=True,
        init=True,
        network_mode="none",
        labels={**labels, "lhtb.owner-pid": str(os.getpid())},
    )
    try:
        result = CliRunner().invoke(app, ["env", "gc"])
        assert result.exit_code == 0, result.output
        remaining = containers_of("gc-test")
        assert orphan.id not in remaining
        assert alive.id in remaining
    finally:
        for container in (orphan, alive):
            subprocess.run(["docker", "rm", "-f", container.id], capture_output=True)
