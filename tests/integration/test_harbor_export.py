"""lhtb's sample tasks exported with `lhtb tasks export --harbor` and run by stock Harbor 0.26 (scripts/harbor-venv.sh
installs it with Docker Compose): its own task model accepts them, the oracle scores 1.0 and nop 0.0."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from taskfactory import REPO

HARBOR_BIN = REPO / "build" / "harbor-venv" / "bin"
SAMPLES = ("sample-sales-report", "sample-fix-the-parser")
HARBOR_ENV = {
    "HARBOR_TELEMETRY": "0",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "PATH": f"{HARBOR_BIN}:/usr/local/bin:/usr/bin:/bin",
    "HOME": os.environ.get("HOME", "/root"),
}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (HARBOR_BIN / "harbor").exists(), reason="stock Harbor absent (scripts/harbor-venv.sh)"),
]

_VALIDATE = """
import sys
from pathlib import Path
from harbor.models.task.task import Task
for path in sys.argv[1:]:
    task = Task(Path(path))
    config = task.config
    print(config.task.name, config.verifier.environment_mode.value, config.environment.workdir, sep="|")
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("harbor-tasks")
    lhtb = shutil.which("lhtb", path=str(REPO / ".venv" / "bin"))
    assert lhtb is not None
    done = subprocess.run(
        [lhtb, "tasks", "export", *(str(REPO / "tasks" / name) for name in SAMPLES), "--harbor", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return out


def _harbor_run(tasks: Path, jobs: Path, agent: str) -> dict[str, dict]:
    flags = ["-p", str(tasks), "-a", agent, "-n", "2", "-o", str(jobs), "--job-name", agent, "-y", "-q"]
    done = subprocess.run(
        [str(HARBOR_BIN / "harbor"), "run", *flags],
        capture_output=True,
        text=True,
        env=HARBOR_ENV,
        cwd=jobs,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = {}
    for trial in sorted((jobs / agent).iterdir()):
        if (trial / "result.json").is_file() and trial.is_dir():
            result = json.loads((trial / "result.json").read_text())
            results[result["task_name"]] = result | {"dir": str(trial)}
    return results


def test_harbor_accepts_the_exported_tasks(exported: Path) -> None:
    done = subprocess.run(
        [str(HARBOR_BIN / "python"), "-c", _VALIDATE, *(str(exported / name) for name in SAMPLES)],
        capture_output=True,
        text=True,
        env=HARBOR_ENV,
        check=True,
    )
    assert done.stdout.split() == [f"lhtb/{name}|separate|/app" for name in SAMPLES]


def test_stock_harbor_scores_the_exported_samples_as_lhtb(exported: Path, tmp_path: Path) -> None:
    for agent, expected in (("oracle", 1.0), ("nop", 0.0)):
        results = _harbor_run(exported, tmp_path, agent)
        assert sorted(results) == [f"lhtb/{name}" for name in sorted(SAMPLES)]
        for name, result in results.items():
            assert result["exception_info"] is None, (name, result["exception_info"])
            assert result["verifier_result"]["rewards"] == {"reward": expected}, name
            scorecard = json.loads((Path(result["dir"]) / "verifier" / "lhtb" / "reward.json").read_text())
            assert scorecard["schema"] == "lhtb.reward/1" and len(scorecard["subtasks"]) > 1
            assert int((Path(result["dir"]) / "verifier" / "lhtb" / "verify-seed").read_text()) >= 0
    # The Harbor jobs themselves, read by lhtb's report loader: one leaderboard with lhtb's own runs.
    from lhtb.report.loading import load_jobs

    loaded = load_jobs([tmp_path / "oracle", tmp_path / "nop"])
    rewards = sorted((row.agent, row.task, row.reward) for row in loaded.rows)
    assert rewards == sorted(
        (f"harbor/{agent}", f"lhtb/{name}", reward)
        for agent, reward in (("oracle", 1.0), ("nop", 0.0))
        for name in SAMPLES
    )
    assert {row.category for row in loaded.rows} == {"software-engineering", "professional-workflows"}


def test_a_task_made_by_harbor_init_runs_in_lhtb(tmp_path: Path) -> None:
    """`harbor init` (separate verifier built from tests/Dockerfile, FROM ubuntu:24.04) plus the task's content;
    ubuntu is not on this machine, so the job substitutes lhtb's base image (recorded, flagged)."""
    import tomlkit
    from helpers import run

    from lhtb.environments.docker_client import get_client

    tasks = tmp_path / "tasks"
    subprocess.run(
        [str(HARBOR_BIN / "harbor"), "init", "acme/hello", "-t", "--no-pytest", "-o", str(tasks)],
        check=True,
        capture_output=True,
        env=HARBOR_ENV,
    )
    task = tasks / "hello"
    assert (task / "tests" / "Dockerfile").is_file()  # Harbor's bundled verifier image
    (task / "instruction.md").write_text("Write hello to /app/greeting.txt.\n")
    (task / "solution" / "solve.sh").write_text("#!/bin/bash\necho hello > /app/greeting.txt\n")
    verifier_dockerfile = task / "tests" / "Dockerfile"
    verifier_dockerfile.write_text(verifier_dockerfile.read_text() + "\nRUN echo bundled > /verifier-marker\n")
    check = '[ -e /verifier-marker ] && [ "$(cat /app/greeting.txt 2>/dev/null)" = hello ] && echo 1 > /logs/verifier/reward.txt'
    (task / "tests" / "test.sh").write_text(f"#!/bin/bash\n{check} || echo 0 > /logs/verifier/reward.txt\n")
    config = tomlkit.parse((task / "task.toml").read_text())
    config["artifacts"] = ["/app/greeting.txt"]  # what Harbor's separate verifier receives
    config["environment"]["network_mode"] = "no-network"  # the task needs none (Harbor init says public)
    (task / "task.toml").write_text(tomlkit.dumps(config))

    substitutes = {"ubuntu:24.04": "lhtb/base:bookworm"}
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), base_images=substitutes)
    by_agent = {t.agent.name: t for t in trials.values()}
    assert by_agent["oracle"].reward == 1.0, by_agent["oracle"].error
    assert by_agent["nop"].reward == 0.0, by_agent["nop"].error
    assert by_agent["oracle"].verifier_mode == "separate" and by_agent["oracle"].spec.base_images == substitutes
    built = {image.labels.get("lhtb.task") for image in get_client().images.list(filters={"label": "lhtb.task"})}
    assert "acme/hello (verifier)" in built  # and the verifier ran in it: test.sh required its marker


def test_harbor_view_serves_an_exported_lhtb_job(tmp_path: Path) -> None:
    """`harbor view` (loopback) lists an lhtb job exported with `lhtb export harbor`, with lhtb's counted rewards."""
    import socket
    import time
    import urllib.request

    from lhtb.harbor.results_export import export_job

    fixture = REPO / "tests" / "fixtures" / "v1-job"
    export_job(fixture, tmp_path / "jobs")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [str(HARBOR_BIN / "harbor"), "view", str(tmp_path / "jobs"), "--port", str(port), "--no-build", "--jobs"],
        env=HARBOR_ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        jobs = None
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/jobs", timeout=2) as answer:
                    jobs = json.loads(answer.read())
                break
            except OSError:
                time.sleep(0.25)
        assert jobs is not None, "harbor view did not answer"
        (job,) = jobs["items"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/jobs/{job['name']}/trials", timeout=5) as answer:
            trials = json.loads(answer.read())["items"]
    finally:
        server.terminate()
        server.wait(timeout=20)
    from lhtb.report.loading import load_jobs

    expected = {row.trial_name: row.reward for row in load_jobs([fixture]).rows}
    assert {trial["name"]: trial["reward"] for trial in trials} == expected
