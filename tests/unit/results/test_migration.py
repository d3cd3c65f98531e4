"""Result files written before ``lhtb.trial/2`` (the flat ``lhtb.trial/1`` layout of tests/fixtures/v1-job, made
by a real job on the fake environment) still load, report the same numbers, and resume."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

from taskfactory import REPO, write_task

from lhtb.environments.fake import FakeProvider
from lhtb.jobs.job_runner import JobRunner, load_job_config, plan_trials
from lhtb.metrics.rows import to_row
from lhtb.report.loading import load_jobs
from lhtb.report.rows_fast import row_from_json
from lhtb.results.models import TrialResult, migrate_trial_v1

V1_JOB = REPO / "tests" / "fixtures" / "v1-job"


def _v1_files() -> list[Path]:
    return sorted((V1_JOB / "trials").glob("*/result.json"))


def test_every_v1_result_loads_with_what_counted_in_v1() -> None:
    assert len(_v1_files()) == 4
    for path in _v1_files():
        raw = json.loads(path.read_text())
        assert raw["schema"] == "lhtb.trial/1"
        result = TrialResult.model_validate_json(path.read_bytes())
        assert result.reward == raw["reward"] and result.trial_name == raw["trial_name"]
        assert [s.name for s in result.subtasks] == [s["name"] for s in raw["subtasks"]]
        assert result.usage.model_dump() == raw["usage"]
        assert result.agent.model_dump() == raw["agent"] and result.attempt == raw["attempt"]
        assert result.error == (None if raw["error"] is None else result.error)
        assert result.spec.verify_seed == raw["verify_seed"] and result.verifier_mode == raw["verifier_mode"]
        assert result.continue_until_timeout == raw["continue_until_timeout"]


def test_a_migrated_result_writes_as_v2_and_reads_back_equal() -> None:
    path = V1_JOB / "trials" / "demo__oracle__1" / "result.json"
    result = TrialResult.model_validate_json(path.read_bytes())
    again = TrialResult.model_validate_json(result.model_dump_json(by_alias=True))
    assert again == result
    dumped = json.loads(result.model_dump_json(by_alias=True))
    assert dumped["schema"] == "lhtb.trial/2" and "reward" not in dumped and dumped["verifier"]["reward"] == 1.0


def test_the_fast_row_loader_reads_v1_files_like_the_model() -> None:
    for path in _v1_files():
        assert row_from_json(path.read_bytes()) == to_row(TrialResult.model_validate_json(path.read_bytes()))


def test_a_v1_job_reports_its_rewards() -> None:
    rows = {row.trial_name: row.reward for row in load_jobs([V1_JOB]).rows}
    assert rows == {
        "demo__nop__1": 0.0,
        "demo__oracle__1": 1.0,
        "flaky__nop__1": 0.0,
        "flaky__oracle__1": 0.0,
    }  # fmt: skip  (flaky: a verifier error, counted as 0)


def test_a_v1_job_resumes_running_only_the_lost_trial(tmp_path: Path) -> None:
    job = tmp_path / "jobs" / "v1-job"
    shutil.copytree(V1_JOB, job)
    tasks = tmp_path / "tasks"
    write_task(tasks, "demo")
    write_task(tasks, "flaky", test_sh="exit 3\n")
    config = json.loads((job / "config.json").read_text())
    (job / "config.json").write_text(json.dumps({**config, "dataset_path": str(tasks)}))
    (job / "trials" / "demo__oracle__1" / "result.json").unlink()

    provider = FakeProvider(tmp_path / "sandboxes")
    runner = JobRunner(load_job_config(job), tmp_path / "jobs", provider=provider)
    asyncio.run(runner.run())
    assert provider.images == ["demo"]  # only the lost trial ran again
    _todo, done = runner.pending(plan_trials(runner.config))
    assert sorted((r.trial_name, r.reward) for r in done) == [
        ("demo__nop__1", 0.0), ("demo__oracle__1", 1.0), ("flaky__nop__1", None), ("flaky__oracle__1", None),
    ]  # fmt: skip
    schemas = {json.loads(p.read_text())["schema"] for p in (job / "trials").glob("*/result.json")}
    assert schemas == {"lhtb.trial/1", "lhtb.trial/2"}  # old files are read, never rewritten
    spec = json.loads((job / "trials" / "demo__oracle__1" / "config.json").read_text())
    assert spec["schema"] == "lhtb.trial-config/2" and spec["task_path"] == str(tasks / "demo")


def test_migration_keeps_unknown_keys_so_the_model_names_them() -> None:
    migrated = migrate_trial_v1({"trial_name": "t", "job_name": "j", "task_name": "x", "agent": {"name": "a"},
                                 "attempt": 1, "started_at": "2026-01-01T00:00:00Z",
                                 "finished_at": "2026-01-01T00:00:00Z", "bogus": 1})  # fmt: skip
    assert migrated["bogus"] == 1 and migrated["spec"] == {
        "trial_name": "t", "job_name": "j", "task_name": "x", "agent": {"name": "a"}, "attempt": 1, "settings": {},
    }  # fmt: skip
