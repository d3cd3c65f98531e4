"""Results both ways: lhtb jobs in Harbor's layout, Harbor jobs (a real one, tests/fixtures/harbor-job) in lhtb's
reports. Harbor's own models check the export where its venv exists (scripts/harbor-venv.sh)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from taskfactory import REPO

from lhtb.errors import ErrorClass
from lhtb.harbor import error_map
from lhtb.harbor.results_export import LHTB_RESULT, export_job
from lhtb.harbor.results_import import headline, is_harbor_job, load_harbor_job
from lhtb.report.loading import load_jobs

FIXTURES = REPO / "tests" / "fixtures"
HARBOR_PYTHON = REPO / "build" / "harbor-venv" / "bin" / "python"
_VALIDATE = """
import sys
from pathlib import Path
from harbor.models.job.config import JobConfig
from harbor.models.job.result import JobResult
from harbor.models.trial.config import TrialConfig
from harbor.models.trial.result import TrialResult
job = Path(sys.argv[1])
JobConfig.model_validate_json((job / "config.json").read_text())
JobResult.model_validate_json((job / "result.json").read_text())
for trial in sorted(p for p in job.iterdir() if p.is_dir()):
    result = TrialResult.model_validate_json((trial / "result.json").read_text())
    TrialConfig.model_validate_json((trial / "config.json").read_text())
    rewards = result.verifier_result.rewards if result.verifier_result else None
    kind = result.exception_info.exception_type if result.exception_info else None
    print(result.trial_name, rewards and rewards["reward"], result.reward_valid, kind)
"""


def _rows(job: Path) -> list[tuple[object, ...]]:
    return sorted(tuple(row) for row in load_jobs([job]).rows)


def test_an_lhtb_job_exported_to_harbor_reads_back_the_same(tmp_path: Path) -> None:
    job = FIXTURES / "v1-job"
    dest = export_job(job, tmp_path)
    assert is_harbor_job(dest)
    assert _rows(dest) == _rows(job)
    trial = next(p for p in dest.iterdir() if p.is_dir())
    assert (trial / LHTB_RESULT).is_file()
    again = export_job(job, tmp_path)  # replaced whole, same ids
    assert again == dest and not list(tmp_path.glob(".*.export"))


def test_harbor_reads_the_counted_reward_and_lhtbs_policy(tmp_path: Path) -> None:
    dest = export_job(FIXTURES / "v1-job", tmp_path)
    originals = {r.trial_name: r for r in load_jobs([FIXTURES / "v1-job"]).rows}
    for trial in (p for p in dest.iterdir() if p.is_dir()):
        harbor = json.loads((trial / "result.json").read_text())
        row = originals[harbor["trial_name"]]
        rewards = harbor["verifier_result"] and harbor["verifier_result"]["rewards"]
        assert (rewards or {}).get("reward") == row.reward  # None: excluded in both
        if row.error_class is not None:
            info = harbor["exception_info"]
            assert info["exception_type"] == error_map.exception_type(ErrorClass(row.error_class))
            assert info["policy_override"]["has_valid_reward"] == (row.reward is not None)


@pytest.mark.skipif(not HARBOR_PYTHON.exists(), reason="stock Harbor absent (scripts/harbor-venv.sh)")
def test_harbor_models_validate_the_export(tmp_path: Path) -> None:
    dest = export_job(FIXTURES / "v1-job", tmp_path)
    done = subprocess.run(
        [str(HARBOR_PYTHON), "-c", _VALIDATE, str(dest)],
        capture_output=True,
        text=True,
        env={"HARBOR_TELEMETRY": "0", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()}
    rows = {r.trial_name: r for r in load_jobs([FIXTURES / "v1-job"]).rows}
    assert set(seen) == set(rows)
    for name, (reward, valid, _kind) in seen.items():
        assert (None if reward == "None" else float(reward)) == rows[name].reward
        assert valid == str(rows[name].reward is not None)


def test_a_real_harbor_job_joins_the_leaderboard() -> None:
    job = FIXTURES / "harbor-job"
    config, results, problems, unfinished = load_harbor_job(job)
    assert config.job_name == "oracle1" and problems == [] and unfinished == 0
    assert sorted(r.task_name for r in results) == ["lhtb/sample-fix-the-parser", "lhtb/sample-sales-report"]
    for result in results:
        assert result.agent.label == "harbor/oracle" and result.attempt == 1
        assert result.reward == 1.0 and result.error is None
        assert len(result.subtasks) > 5 and result.subtasks[0].name == "reward"  # every key kept
    loaded = load_jobs([job, FIXTURES / "v1-job"])
    assert {row.agent for row in loaded.rows} >= {"harbor/oracle"}
    assert "harbor" in loaded.jobs[0].flags


def test_a_broken_harbor_trial_is_named_not_dropped(tmp_path: Path) -> None:
    job = tmp_path / "job"
    shutil.copytree(FIXTURES / "harbor-job", job)
    broken = next(p for p in job.iterdir() if p.is_dir())
    data = json.loads((broken / "result.json").read_text())
    data["verifier_result"]["rewards"] = {"reward": 7.5}
    (broken / "result.json").write_text(json.dumps(data))
    _config, results, problems, _ = load_harbor_job(job)
    assert len(results) == 1 and len(problems) == 1
    assert str(broken / "result.json") in problems[0] and "outside [0, 1]" in problems[0]


def test_headline_reward_of_harbor_rewards() -> None:
    assert headline({"reward": 0.25, "a": 1.0})[0] == 0.25
    assert headline({"accuracy": 0.5})[0] == 0.5
    reward, subtasks = headline({"a": 1.0, "b": 0.0})
    assert reward == 0.5 and [s.name for s in subtasks] == ["a", "b"]
    with pytest.raises(ValueError, match="outside"):
        headline({"reward": -1})


@pytest.mark.parametrize(
    ("harbor_type", "has_reward", "expected"),
    [
        ("AgentTimeoutError", True, None),
        ("NonZeroAgentExitCodeError", True, ErrorClass.AGENT_ERROR),
        ("VerifierTimeoutError", False, ErrorClass.VERIFIER_TIMEOUT),
        ("RewardFileNotFoundError", False, ErrorClass.VERIFIER_ERROR),
        ("SandboxBuildFailedError", False, ErrorClass.ENVIRONMENT_BUILD),
        ("RateLimitError", False, ErrorClass.LLM_TRANSIENT),
        ("CancelledError", False, ErrorClass.CANCELLED),
        ("BaseImageMissingError", False, ErrorClass.BASE_IMAGE_MISSING),  # one lhtb exported
        ("SomethingNewError", True, ErrorClass.AGENT_ERROR),  # Harbor: an unknown type's reward is valid
        ("SomethingNewError", False, ErrorClass.HARNESS_ERROR),
    ],
)
def test_harbor_exception_types_map_to_lhtb_classes(
    harbor_type: str, has_reward: bool, expected: ErrorClass | None
) -> None:
    assert error_map.error_class_of(harbor_type, has_reward=has_reward) == expected


def test_every_lhtb_class_round_trips_through_harbor_names() -> None:
    for error_class in ErrorClass:
        assert error_map.error_class_of(error_map.exception_type(error_class), has_reward=False) == error_class


def test_the_viewer_shows_a_harbor_job(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lhtb.cli.app import app

    result = CliRunner().invoke(app, ["view", str(FIXTURES / "harbor-job"), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    index = (tmp_path / "index.html").read_text()
    assert "harbor/oracle" in index
    pages = sorted((tmp_path / "jobs" / "oracle1" / "trials").glob("*.html"))
    assert [p.stem for p in pages] == ["sample-fix-the-parser__5nkH6ba", "sample-sales-report__Wd2TBop"]
    assert "hidden_by_month" in pages[1].read_text()  # a Harbor reward key, shown as a subtask
