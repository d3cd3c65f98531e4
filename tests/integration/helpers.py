"""Running jobs from integration tests."""

from __future__ import annotations

import time
from collections.abc import Callable
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
