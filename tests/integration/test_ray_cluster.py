"""Trials on a real Ray cluster: a head and two worker nodes on 127.0.0.1 sharing this machine's Docker engine.

The same results as a local run; a worker node's raylet killed mid-trial (the trial is retried elsewhere, once,
its containers removed); the submitting process killed (resume finishes the job on the cluster); model keys
reach the workers but no result file; `lhtb env gc --ray` on every node."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import containers_of, wait_for
from taskfactory import REPO, write_task

from lhtb.jobs.job_runner import new_job_config, run_job
from lhtb.results.models import AgentSpec, ExecutorConfig, TrialResult

LHTB = [sys.executable, "-m", "lhtb.cli"]
SAMPLES = ["sample-sales-report", "sample-fix-the-parser", "sample-maze-campaign"]
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}  # loopback only


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Head (no trial slot: it only coordinates) plus two nodes with one ``lhtb_docker`` slot each."""
    saved = {k: os.environ.get(k) for k in RAY_ENV}
    os.environ.update(RAY_ENV)  # before Ray is imported: it reads them then
    from ray.cluster_utils import Cluster

    head = {"num_cpus": 1, "include_dashboard": False, "node_ip_address": "127.0.0.1", "resources": {}}
    made = Cluster(initialize_head=True, head_node_args=head)
    for _ in range(2):
        made.add_node(num_cpus=2, resources={"lhtb_docker": 1}, node_ip_address="127.0.0.1")
    made.wait_for_nodes()
    yield made
    made.shutdown()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _strip(value: Any) -> Any:
    """A result without what differs between any two runs (times, durations, the job's name)."""
    volatile = {"started_at", "finished_at", "timings", "job_name", "activity", "at", "agent_sec", "duration_sec"}
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in volatile}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _results(job_dir: Path) -> dict[str, Any]:
    return {p.parent.name: _strip(json.loads(p.read_text())) for p in sorted(job_dir.glob("trials/*/result.json"))}


def _files(job_dir: Path) -> set[str]:
    return {p.relative_to(job_dir).as_posix() for p in (job_dir / "trials").rglob("*")}


def _leaderboard(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "leaderboard" in line)
    return lines[start + 1 :]


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LHTB, *args], capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


def test_the_sample_tasks_give_the_same_results_through_ray_as_locally(cluster: Any, tmp_path: Path) -> None:
    common = ["run", "-p", str(REPO / "tasks"), "-a", "oracle", "-a", "nop", "-n", "2", "--verify-seed", "7"]
    for name in SAMPLES:
        common += ["-t", name]
    local = _cli(*common, "-o", str(tmp_path / "local"), "--job-name", "same")
    ray = _cli(*common, "-o", str(tmp_path / "ray"), "--job-name", "same", "--ray", cluster.address)
    assert local.returncode == 0, local.stderr
    assert ray.returncode == 0, ray.stderr
    assert _leaderboard(ray.stdout) == _leaderboard(local.stdout)
    assert _results(tmp_path / "ray" / "same") == _results(tmp_path / "local" / "same")
    assert len(_results(tmp_path / "ray" / "same")) == 6
    assert _files(tmp_path / "ray" / "same") == _files(tmp_path / "local" / "same")
    config = json.loads((tmp_path / "ray" / "same" / "config.json").read_text())
    assert config["executor"] == {"kind": "ray", "address": cluster.address, "tasks": "ship"}
    # The same trial specs (each trial's config.json) as a local run: where a trial ran is not part of it.
    for spec in (tmp_path / "ray" / "same" / "trials").glob("*/config.json"):
        assert (
            spec.read_text() == (tmp_path / "local" / "same" / "trials" / spec.parent.name / "config.json").read_text()
        )


def test_shared_path_mode_reads_the_task_where_the_nodes_see_it(cluster: Any, tmp_path: Path) -> None:
    dataset = tmp_path / "tasks"
    write_task(dataset, "shared-demo")
    args = ["run", "-p", str(dataset), "-a", "oracle", "-a", "nop", "-n", "2", "-o", str(tmp_path / "jobs")]
    out = _cli(*args, "--job-name", "shared", "--ray", cluster.address, "--ray-tasks", "shared")
    assert out.returncode == 0, out.stderr
    rewards = {name: r["verifier"]["reward"] for name, r in _results(tmp_path / "jobs" / "shared").items()}
    assert rewards == {"shared-demo__oracle__1": 1.0, "shared-demo__nop__1": 0.0}
    assert json.loads((tmp_path / "jobs" / "shared" / "config.json").read_text())["executor"]["tasks"] == "shared"


def test_auto_starts_a_private_loopback_cluster_when_none_runs_here(tmp_path: Path) -> None:
    # A TMPDIR of its own: the module's cluster recorded its address under /tmp/ray, which `auto` would join.
    short = tempfile.mkdtemp(prefix="lhtb-ray-", dir="/tmp")  # Ray's socket paths must stay under 108 bytes
    env = {"TMPDIR": short, "RAY_ADDRESS": ""}
    args = ["run", "-p", str(REPO / "tasks"), "-t", "sample-sales-report", "-a", "oracle", "-a", "nop", "-n", "2"]
    try:
        ray = _cli(*args, "-o", str(tmp_path / "jobs"), "--job-name", "auto", "--ray", "auto", env=env)
    finally:
        shutil.rmtree(short, ignore_errors=True)
    assert ray.returncode == 0, ray.stderr
    results = _results(tmp_path / "jobs" / "auto")
    assert {name: r["verifier"]["reward"] for name, r in results.items()} == {
        "sample-sales-report__oracle__1": 1.0,
        "sample-sales-report__nop__1": 0.0,
    }


def _slow_tasks(root: Path) -> Path:
    dataset = root / "tasks"
    write_task(dataset, "slow-a", solve="sleep 20; echo hello > /app/out.txt", agent_timeout=120)
    write_task(dataset, "slow-b", solve="sleep 20; echo hello > /app/out.txt", agent_timeout=120)
    return dataset


def _raylet_pids(cluster: Any) -> dict[int, Any]:
    from ray._private import ray_constants

    return {
        node.all_processes[ray_constants.PROCESS_TYPE_RAYLET][0].process.pid: node
        for node in cluster.worker_nodes
        if node.all_processes.get(ray_constants.PROCESS_TYPE_RAYLET)
    }


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _agent_owner_pids(job: str) -> list[int]:
    from lhtb.environments.docker_client import get_client

    found = get_client().api.containers(filters={"label": [f"lhtb.job={job}", "lhtb.role=agent"]})
    return [int(c["Labels"]["lhtb.owner-pid"]) for c in found]


def test_a_node_lost_mid_trial_is_retried_elsewhere_once_and_leaves_no_container(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = _slow_tasks(tmp_path)
    # Set after the nodes started: only the job's runtime environment can bring it to their workers.
    monkeypatch.setenv("ZZ_PROVIDER_API_KEY", "sekrit-7f3a")
    monkeypatch.setenv("LHTB_RAY_SYNC_SEC", "1")
    config = new_job_config(
        dataset, None, [AgentSpec(name="oracle")], job_name="lost", attempts=1, concurrency=2, max_retries=2,
        verify_seed=3, executor=ExecutorConfig(address=cluster.address),
    )  # fmt: skip
    killed: list[int] = []
    seen_files: list[str] = []

    def kill_a_raylet() -> None:
        deadline = time.monotonic() + 120
        raylets = _raylet_pids(cluster)
        while time.monotonic() < deadline and not killed:
            for owner in _agent_owner_pids("lost"):
                raylet = _parent(owner)
                if raylet in raylets:
                    time.sleep(2)  # mid-trial: the agent is sleeping in its container
                    seen_files.extend(p.name for p in (tmp_path / "jobs" / "lost" / "trials").rglob("*"))
                    os.kill(raylet, signal.SIGKILL)
                    killed.append(raylet)
                    return
            time.sleep(0.3)

    from lhtb.jobs.job_runner import make_executor

    killer = threading.Thread(target=kill_a_raylet, daemon=True)
    killer.start()
    events: list[tuple[str, str]] = []
    job = run_job(config, tmp_path / "jobs", lambda n, p, _r: events.append((n, p)), executor=make_executor(config))
    killer.join(timeout=5)
    assert killed, "no trial ran on a worker node"
    trials = tmp_path / "jobs" / "lost" / "trials"
    results = {p.parent.name: TrialResult.model_validate_json(p.read_text()) for p in trials.glob("*/result.json")}
    assert sorted(results) == ["slow-a__oracle__1", "slow-b__oracle__1"]  # every trial exactly once
    assert all(r.reward == 1.0 and r.error is None for r in results.values())
    assert sorted(r.retries for r in results.values()) == [0, 1]  # the lost one ran again, once
    [lost] = list((tmp_path / "jobs" / "lost" / "retries").iterdir())
    lost_result = TrialResult.model_validate_json((lost / "result.json").read_text())
    assert lost_result.error is not None and lost_result.error.error_class == "harness_error"
    assert "node" in lost_result.error.message and lost_result.reward is None
    assert job.n_finished == 2 and job.agents[0].n_scored == 2 and job.agents[0].mean_reward == 1.0
    assert any(p.startswith("agent") for _n, p in events)  # phases arrived while the trials ran
    assert "config.json" in seen_files and len(seen_files) > 1  # files shipped before the trial ended
    assert "live.json" in seen_files  # the live view reads running Ray trials on the head too
    assert containers_of("lost") == []
    # The key reached no result file (it reached the workers: the next test)
    for path in (tmp_path / "jobs").rglob("*"):
        if path.is_file():
            assert b"sekrit-7f3a" not in path.read_bytes(), path
    # The lost node comes back for the other tests
    dead = _raylet_pids(cluster)[killed[0]]
    cluster.remove_node(dead, allow_graceful=False)
    cluster.add_node(num_cpus=2, resources={"lhtb_docker": 1}, node_ip_address="127.0.0.1")
    cluster.wait_for_nodes()


def test_model_keys_reach_the_workers_through_the_jobs_runtime_environment(
    cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    import ray

    from lhtb.jobs.ray_executor import RayExecutor

    monkeypatch.setenv("ZZ_PROVIDER_API_KEY", "sekrit-7f3a")
    executor = RayExecutor(cluster.address)
    asyncio.run(executor.start())
    try:

        @ray.remote(resources={"lhtb_docker": 1})
        def seen() -> str | None:
            return os.environ.get("ZZ_PROVIDER_API_KEY")

        assert ray.get(seen.remote(), timeout=60) == "sekrit-7f3a"
    finally:
        asyncio.run(executor.close())


def test_the_submitter_killed_mid_job_is_resumed_on_the_cluster(cluster: Any, tmp_path: Path) -> None:
    dataset = _slow_tasks(tmp_path)
    args = ["run", "-p", str(dataset), "-a", "oracle", "-n", "2", "-o", str(tmp_path / "jobs"), "--job-name", "head"]
    proc = subprocess.Popen([*LHTB, *args, "--ray", cluster.address], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: len(_agent_owner_pids("head")) == 2, timeout=120, what="both trials running")
    proc.kill()  # the submitting machine's process dies: no cleanup of its own
    proc.communicate(timeout=30)
    job_dir = tmp_path / "jobs" / "head"
    assert not list(job_dir.glob("trials/*/result.json"))
    resumed = _cli("jobs", "resume", str(job_dir))
    assert resumed.returncode == 0, resumed.stderr
    results = _results(job_dir)
    assert sorted(results) == ["slow-a__oracle__1", "slow-b__oracle__1"]
    assert all(r["verifier"]["reward"] == 1.0 and r["spec"]["retries"] == 0 for r in results.values())
    assert not (job_dir / "retries").exists()
    assert containers_of("head") == []


def test_env_gc_runs_on_every_node_of_the_cluster(cluster: Any) -> None:
    from lhtb.environments.docker_client import get_client

    labels = {"lhtb.managed": "1", "lhtb.job": "gc-ray", "lhtb.trial": "t", "lhtb.role": "agent"}
    owner = {"lhtb.owner-pid": str(2**22 + 7), "lhtb.owner-host": socket.gethostname()}  # above pid_max: gone
    leftover = get_client().containers.create("lhtb/base:bookworm", ["sleep", "60"], labels={**labels, **owner})
    try:
        out = _cli("env", "gc", "--ray", cluster.address)
        assert out.returncode == 0, out.stderr
        assert out.stdout.count("node ") == 2, out.stdout  # both worker nodes reported
        assert containers_of("gc-ray") == []
    finally:
        if containers_of("gc-ray"):
            leftover.remove(force=True)
