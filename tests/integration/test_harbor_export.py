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
