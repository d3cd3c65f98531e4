"""Run one reference agent (oracle, nop, baseline, a shortcut) on a task and grade its artifacts in rounds.

The agent runs as a real trial (``run_trial``); after its final verification the held artifacts are graded
again: twice on one seed in two fresh containers (determinism), on other seeds, two at a time beside a CPU hog
(load), and with the public inputs spoiled (inputs). A probe that an infrastructure failure ended (a retried
class: the engine not answering, a container that did not start) is run again, as a job retries such a trial:
QA measures the task, and a slow machine must not decide a gate.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.environments.base import EnvironmentProvider
from lhtb.errors import ERROR_POLICY, ErrorClass
from lhtb.qa.load import cpu_hog
from lhtb.qa.spoil import shipped_files, spoil_public_inputs
from lhtb.results.models import AgentSpec, VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.trial.background import Background
from lhtb.trial.lifecycle import TrialPlan, run_trial
from lhtb.verifier.grader import Grader
from lhtb.verifier.separate import ArtifactSnapshot


@dataclass(frozen=True)
class Grading:
    label: str
    seed: int
    spoil_inputs: bool = False  # public input files the agent left unchanged are replaced by junk first


@dataclass(frozen=True)
class Round:
    """Gradings run at the same time; ``under_load``: beside a busy process on every core."""

    gradings: tuple[Grading, ...]
    under_load: bool = False


@dataclass
class Probe:
    agent: str
    verdicts: dict[str, VerifierOutcome] = field(default_factory=dict)  # grading label -> outcome
    error: str | None = None
    error_class: ErrorClass | None = None
    agent_sec: float = 0.0
    spoiled: list[str] = field(default_factory=list)  # the public inputs the spoiled grading replaced
    retried: list[str] = field(default_factory=list)  # the infrastructure failures that ended earlier attempts
    # gradings an earlier attempt completed whose score the final attempt did not repeat (a retry must not hide
    # a task that grades the same artifacts differently): label -> the two rewards
    unrepeated: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)

    @property
    def first(self) -> VerifierOutcome | None:
        return next(iter(self.verdicts.values()), None)

    @property
    def reward(self) -> float | None:
        return self.first.reward if self.first else None


def rounds(*seeds: int, repeat_first: bool = False) -> list[Round]:
    """One grading per seed, in turn (the first twice when ``repeat_first``)."""
    labels = [(f"seed-{i}", s) for i, s in enumerate(seeds)]
    if repeat_first and labels:
        labels.insert(1, ("seed-0-again", seeds[0]))
    return [Round((Grading(label, seed),)) for label, seed in labels]


QA_ATTEMPTS = 3  # a probe ended by an infrastructure failure runs again, at most this many times in all


async def probe(
    provider: EnvironmentProvider, task: Task, agent: AgentSpec, label: str, work_dir: Path, plan: Sequence[Round]
) -> Probe:
    """Run ``agent`` as a real trial (the job's lifecycle: agent clock, error policy, the task's verifier mode);
    its final verification is the plan's first grading, and the held artifacts are graded again for the rest.
    An attempt that an infrastructure failure ended, or whose gradings one spoiled, is run again from the start."""
    retried: list[str] = []
    earlier: list[Probe] = []
    for attempt in range(1, QA_ATTEMPTS + 1):
        result = await _probe_once(provider, task, agent, label, work_dir / f"attempt-{attempt}", plan)
        failure = _infrastructure_failure(result)
        if failure is None or attempt == QA_ATTEMPTS:
            result.retried = retried
            result.unrepeated = _unrepeated(earlier, result)
            return result
        retried.append(failure)
        earlier.append(result)
    raise AssertionError("unreachable")


def _unrepeated(earlier: list[Probe], final: Probe) -> dict[str, tuple[float | None, float | None]]:
    """The gradings earlier attempts completed (no error) whose reward or subtask scores the final one differs on."""
    found = {}
    for attempt in earlier:
        for label, before in attempt.verdicts.items():
            after = final.verdicts.get(label)
            if before.error is not None or after is None or after.error is not None:
                continue
            if before.reward != after.reward or _scores(before) != _scores(after):
                found[label] = (before.reward, after.reward)
    return found


def _scores(outcome: VerifierOutcome) -> list[tuple[str, float, float]]:
    return [(s.name, s.score, s.weight) for s in outcome.subtasks]


def _infrastructure_failure(result: Probe) -> str | None:
    """What ended the attempt, when it is a class a job would retry (docs/errors.md), else None."""
    if result.error_class is not None and ERROR_POLICY[result.error_class].retry:
        return result.error
    for outcome in result.verdicts.values():
        if outcome.error is not None and ERROR_POLICY[outcome.error.error_class].retry:
            return f"{outcome.error.error_class.value}: {outcome.error.message}"
    return None


async def _probe_once(
    provider: EnvironmentProvider, task: Task, agent: AgentSpec, label: str, work_dir: Path, plan: Sequence[Round]
) -> Probe:
    first, later = _first_grading(plan)
    result = Probe(agent=label)
    regraded: dict[str, VerifierOutcome] = {}

    async def regrade(grader: Grader, snapshot: ArtifactSnapshot) -> None:
        shipped: dict[str, str] = {}
        if any(g.spoil_inputs for step in later for g in step.gradings):  # the workdir as the image ships it
            clean = await grader.clean_snapshot()
            try:
                shipped = await asyncio.to_thread(shipped_files, clean)
            finally:
                clean.close()
        spoiled: ArtifactSnapshot | None = None
        try:
            for step in later:
                async with cpu_hog() if step.under_load else contextlib.nullcontext():
                    jobs = []
                    for grading in step.gradings:
                        if grading.spoil_inputs and spoiled is None:
                            spoiled, result.spoiled = await asyncio.to_thread(
                                spoil_public_inputs, snapshot, shipped, task
                            )
                        source = spoiled if grading.spoil_inputs and spoiled is not None else snapshot
                        jobs.append(grader.grade(source, grading.label, seed=grading.seed))
                    for grading, outcome in zip(step.gradings, await asyncio.gather(*jobs), strict=True):
                        regraded[grading.label] = outcome
        finally:
            if spoiled is not None:
                spoiled.close()

    slug = label.replace(":", "-")
    trial = TrialPlan.new(
        task,
        work_dir / slug,
        job_name="qa",
        trial_name=f"qa-{task.name}-{slug}",
        agent=agent,
        attempt=1,
        agent_timeout_sec=task.config.agent.timeout_sec,
        verify_seed=first.seed,
        regrade=regrade if later else None,
    )
    background = Background()
    try:
        outcome = await run_trial(trial, background, lambda _name, _phase: None, provider)
    finally:
        await background.drain()
    result.agent_sec = outcome.timings.agent or 0.0
    if outcome.verifier is None:
        error = outcome.error
        result.error = "not graded" if error is None else f"{error.error_class.value}: {error.message}"
        result.error_class = None if error is None else error.error_class
    else:
        result.verdicts = {first.label: outcome.verifier, **regraded}
    return result


def _first_grading(plan: Sequence[Round]) -> tuple[Grading, list[Round]]:
    """The plan's opening grading, which the trial's own final verification performs, and the rounds after it."""
    if not plan or len(plan[0].gradings) != 1 or plan[0].under_load or plan[0].gradings[0].spoil_inputs:
        raise ValueError("a probe's plan opens with one plain grading (the trial's final verification)")
    return plan[0].gradings[0], list(plan[1:])
