"""Exit codes (docs/errors.md#exit-codes) and unreadable results, without Docker."""

from __future__ import annotations

import asyncio
import os
import signal
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lhtb.cli import commands
from lhtb.cli.app import app
from lhtb.environments.fake import FakeProvider
from lhtb.errors import ErrorClass
from lhtb.fs import write_model_atomic, write_text_atomic
from lhtb.jobs.job_runner import JobInterrupted, JobRunner, new_job_config, plan_trials, run_job
from lhtb.results.models import AgentSpec, ErrorInfo, JobConfig, TrialResult


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, "".join(result.output.split())  # rich wraps long paths: compare without whitespace


def _result(name: str, reward: float | None = 1.0, error: ErrorClass | None = None) -> TrialResult:
    now = datetime.now(UTC)
    task, agent, attempt = name.split("__")
    return TrialResult(
        trial_name=name,
        job_name="job",
        task_name=task,
        agent=AgentSpec(name=agent),
        attempt=int(attempt),
        started_at=now,
        finished_at=now,
        reward=reward,
        error=None if error is None else ErrorInfo(error_class=error, message="boom"),
    )


# --- usage and input errors: 2 ------------------------------------------------------------------------------


def test_empty_dataset_is_a_usage_error_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "empty" / "not-a-task").mkdir(parents=True)
    empty = str(tmp_path / "empty")
    for args in (
        ("run", "-p", empty, "-a", "oracle", "-o", str(tmp_path / "jobs")),
        ("tasks", "list", "-p", empty),
        ("tasks", "check", empty, "--report", str(tmp_path / "qa.json")),
        ("tasks", "audit", empty, "--report", str(tmp_path / "audit.json")),
    ):
        code, output = _invoke(*args)
        assert code == 2, args
        assert "notaskdirectoriesfound" in output, args
    assert not (tmp_path / "jobs").exists()
    assert not (tmp_path / "qa.json").exists()


@pytest.mark.parametrize(
    "flags",
    [
        ["-k", "0"],
        ["--no-such-flag"],
        ["--feedback", "chatty"],
        ["--ak", "novalue"],
        ["-t", "no-such-task"],
    ],
)
def test_bad_flags_are_usage_errors(make_task, tmp_path: Path, flags: list[str]) -> None:
    make_task("good")
    code, _output = _invoke("run", "-p", str(make_task.root), "-a", "oracle", "-o", str(tmp_path / "jobs"), *flags)
    assert code == 2
    assert not (tmp_path / "jobs").exists()


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("wizard", "unknownagent(s)wizard"),
        ("no_such_module_xyz:Agent", "cannotimportmodule'no_such_module_xyz'"),
        ("os:NoSuchAgent", "hasnoattribute'NoSuchAgent'"),
    ],
)
def test_unknown_agent_is_a_usage_error_before_anything_runs(
    make_task, tmp_path: Path, agent: str, message: str
) -> None:
    make_task("good")
    code, output = _invoke("run", "-p", str(make_task.root), "-a", agent, "-o", str(tmp_path / "jobs"))
    assert code == 2
    assert message in output
    assert not (tmp_path / "jobs").exists()


def test_resume_of_a_directory_that_is_not_a_job(tmp_path: Path) -> None:
    code, output = _invoke("jobs", "resume", str(tmp_path))
    assert code == 2 and "notajobdirectory" in output


# --- the code of a job that ran to its end -------------------------------------------------------------------


def test_job_exit_code_rules() -> None:
    graded = [
        _result("t__oracle__1", 1.0),
        _result("t__nop__1", 0.0),  # the agent failed: still graded
        _result("u__nop__1", None, ErrorClass.VERIFIER_ERROR),  # counts as 0: graded
        _result("v__nop__1", 0.0, ErrorClass.AGENT_ERROR),
    ]
    assert commands.job_exit_code(graded, 4) == (0, "")
    code, message = commands.job_exit_code([*graded, _result("w__nop__1", None, ErrorClass.AGENT_SETUP)], 5)
    assert code == 1 and "1 of 5" in message and "w__nop__1 (agent_setup)" in message
    code, message = commands.job_exit_code(graded, 6)  # trials without a result are not graded either
    assert code == 1 and "2 without a result" in message
    invalid = _result("x__nop__1", None, ErrorClass.TASK_INVALID)
    code, message = commands.job_exit_code([*graded, invalid, _result("w__nop__1", None, ErrorClass.AGENT_SETUP)], 6)
    assert code == 2 and "x__nop__1" in message


# --- signals: 130 / 143, handlers restored, cleanup not cut short --------------------------------------------


def _config(make_task) -> JobConfig:
    make_task("t")
    return new_job_config(
        make_task.root, None, [AgentSpec(name="oracle")], job_name="j", attempts=4, concurrency=1, max_retries=0
    )


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_stops_run_job_cleanly(
    make_task, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sig: signal.Signals, code: int
) -> None:
    cleaned: list[str] = []

    async def hangs(self: JobRunner) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, os.kill, os.getpid(), sig)
        await asyncio.sleep(30)

    class Provider(FakeProvider):
        def remove_owned(self, *, job: str | None = None, owner_pid: int | None = None) -> int:
            os.kill(os.getpid(), sig)  # a second signal during cleanup must not cut it short
            import time

            time.sleep(0.2)
            cleaned.append(job)
            return 0

    monkeypatch.setattr(JobRunner, "run", hangs)
    before = signal.getsignal(sig)
    with pytest.raises(JobInterrupted) as caught:
        run_job(_config(make_task), tmp_path / "jobs", provider=Provider(tmp_path / "sandboxes"))
    assert caught.value.exit_code == code
    assert cleaned == ["j"]
    assert signal.getsignal(sig) is before


# --- unreadable results: jobs show warns, resume sets them aside ---------------------------------------------


def _job_with_results(make_task, tmp_path: Path) -> tuple[JobConfig, Path]:
    config = _config(make_task)
    job_dir = tmp_path / "jobs" / "j"
    write_model_atomic(job_dir / "config.json", config)
    for attempt in range(1, 5):
        name = f"t__oracle__{attempt}"
        write_model_atomic(job_dir / "trials" / name / "result.json", _result(name, 1.0))
        write_text_atomic(job_dir / "trials" / name / "agent" / "stdout.txt", f"log of {name}\n")
    write_text_atomic(job_dir / "trials" / "t__oracle__2" / "result.json", '{"schema": "lhtb.trial/1", "trial')
    write_text_atomic(job_dir / "trials" / "t__oracle__4" / "result.json", '{"schema": "lhtb.trial/1"}')
    return config, job_dir


def test_jobs_show_names_and_counts_unreadable_results(make_task, tmp_path: Path) -> None:
    _, job_dir = _job_with_results(make_task, tmp_path)
    result = CliRunner().invoke(app, ["jobs", "show", str(job_dir)])
    flat = "".join(result.output.split())
    assert result.exit_code == 1
    assert "2trialresultfile(s)cannotbereadandarenotcounted" in flat
    for attempt in (2, 4):
        assert str(job_dir / "trials" / f"t__oracle__{attempt}" / "result.json") in flat
    assert "jobsresume" in flat
    assert "│1│oracle│2│2│0│1.000" in flat  # the two readable trials only


def test_resume_sets_unreadable_trials_aside_and_clears_partial_ones(make_task, tmp_path: Path) -> None:
    config, job_dir = _job_with_results(make_task, tmp_path)
    (job_dir / "trials" / "t__oracle__3" / "result.json").unlink()  # interrupted: no result, no agent logs kept
    notices: list[str] = []
    todo, done = JobRunner(config, tmp_path / "jobs", on_notice=notices.append).pending(plan_trials(config))
    assert [t.name for t in todo] == ["t__oracle__2", "t__oracle__3", "t__oracle__4"]
    assert [r.trial_name for r in done] == ["t__oracle__1"]
    kept = sorted((job_dir / "set-aside").iterdir())
    assert [p.name.split(".unreadable-")[0] for p in kept] == ["t__oracle__2", "t__oracle__4"]
    for path in kept:
        assert (path / "agent" / "stdout.txt").read_text().startswith("log of t__oracle__")
        assert any(str(path) in notice for notice in notices)
    assert len(notices) == 2
    assert sorted(p.name for p in (job_dir / "trials").iterdir()) == ["t__oracle__1"]
    # a report of the job never counts the set-aside copies as trials
    show = CliRunner().invoke(app, ["jobs", "show", str(job_dir)])
    assert show.exit_code == 0
    assert "│1│oracle│1│1│0│1.000" in "".join(show.output.split())
