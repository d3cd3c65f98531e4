"""JobRunner on the fake environment: retries by error class, exclusion, resume of exactly the unfinished trials."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from taskfactory import write_task

from lhtb.agents.base import AgentContext
from lhtb.environments.fake import FakeProvider
from lhtb.errors import AgentError, EnvironmentStartError, ErrorClass
from lhtb.jobs.job_runner import JobRunner, PlannedTrial, load_job_config, new_job_config, plan_trials
from lhtb.results.models import AgentOutcome, AgentSpec, JobResult
from lhtb.tasks.loader import Task
from lhtb.trial import lifecycle as trial_runner


class FlakyProvider(FakeProvider):
    """Fails to start a task's sandboxes the first ``failures`` times (an infrastructure error)."""

    def __init__(self, root: Path, failures: int) -> None:
        super().__init__(root)
        self.failures = failures

    async def prepare_image(self, task: Task) -> tuple[str, bool]:
        image = await super().prepare_image(task)
        if len(self.images) <= self.failures:
            raise EnvironmentStartError("the engine went away")
        return image


def _job(tasks: Path, jobs: Path, provider: FakeProvider, *agents: str, max_retries: int = 2) -> JobRunner:
    config = new_job_config(
        tasks, None, [AgentSpec(name=a) for a in agents], job_name="j", attempts=1, concurrency=2,
        max_retries=max_retries, verify_seed=11,
    )  # fmt: skip
    return JobRunner(config, jobs, provider=provider)


def _run(runner: JobRunner) -> JobResult:
    return asyncio.run(runner.run())


def test_an_infrastructure_error_is_retried_and_the_failed_attempt_kept(tmp_path: Path) -> None:
    write_task(tmp_path / "tasks", "demo")
    provider = FlakyProvider(tmp_path / "sandboxes", failures=1)
    runner = _job(tmp_path / "tasks", tmp_path / "jobs", provider, "oracle")
    job = _run(runner)
    [trial] = runner.pending(runner_plan(runner))[1]
    assert trial.reward == 1.0 and trial.retries == 1 and trial.error is None
    archived = list(runner.layout.retries.iterdir())
    assert [p.name for p in archived] == [f"{trial.trial_name}.1"]
    assert (archived[0] / "result.json").read_text().count("environment_start") >= 1
    assert job.agents[0].n_scored == 1 and provider.alive() == []


def test_retries_run_out_and_the_trial_is_excluded_not_scored(tmp_path: Path) -> None:
    write_task(tmp_path / "tasks", "demo")
    provider = FlakyProvider(tmp_path / "sandboxes", failures=10)
    job = _run(_job(tmp_path / "tasks", tmp_path / "jobs", provider, "oracle", max_retries=2))
    assert len(provider.images) == 3  # the first try and two retries
    [summary] = job.agents
    assert summary.n_trials == 1 and summary.n_scored == 0 and summary.n_excluded == 1
    assert job.errors_by_class == {"environment_start": 1}


def test_an_agent_error_is_never_retried_and_counts_as_graded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Failing:
        name = "failing"

        async def setup(self, context: AgentContext) -> None:
            return None

        async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
            await context.environment.exec("echo hello > /app/out.txt")
            raise AgentError("the agent crashed after doing the work")

    monkeypatch.setattr(trial_runner, "create_agent", lambda _spec: Failing())
    write_task(tmp_path / "tasks", "demo")
    provider = FakeProvider(tmp_path / "sandboxes")
    runner = _job(tmp_path / "tasks", tmp_path / "jobs", provider, "oracle")
    job = _run(runner)
    [trial] = runner.pending(runner_plan(runner))[1]
    assert trial.error is not None and trial.error.error_class == ErrorClass.AGENT_ERROR
    assert trial.retries == 0 and len(provider.images) == 1
    assert trial.reward == 1.0  # an agent error is graded on what the agent left
    assert job.agents[0].n_scored == 1


def test_resume_reruns_exactly_the_trials_without_a_result(tmp_path: Path) -> None:
    write_task(tmp_path / "tasks", "demo")
    write_task(tmp_path / "tasks", "other")
    first = _job(tmp_path / "tasks", tmp_path / "jobs", FakeProvider(tmp_path / "s1"), "oracle", "nop")
    _run(first)
    before = {r.trial_name: r.reward for r in first.pending(runner_plan(first))[1]}
    assert sorted(before.values()) == [0.0, 0.0, 1.0, 1.0]
    lost = sorted(before)[0]
    (first.layout.trial_dir(lost) / "result.json").unlink()  # killed mid-trial: the directory has no result

    provider = FakeProvider(tmp_path / "s2")
    config = load_job_config(first.layout.root)
    again = JobRunner(config, tmp_path / "jobs", provider=provider)
    job = _run(again)
    assert len(provider.images) == 1  # only the lost trial ran again
    after = {r.trial_name: r.reward for r in again.pending(runner_plan(again))[1]}
    assert after == before and job.n_trials == 4


def runner_plan(runner: JobRunner) -> list[PlannedTrial]:
    return plan_trials(runner.config)
