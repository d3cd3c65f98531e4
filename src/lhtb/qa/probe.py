"""Run one reference agent (oracle, nop, baseline, a shortcut) on a task and grade its artifacts in rounds.

Built from the same parts as a trial (environments, agents, Grader) but keeps the artifact snapshot, so the
same artifacts can be graded again: twice on one seed in two fresh containers (determinism), on other seeds,
two at a time beside a CPU hog (load), and with the public inputs spoiled (inputs).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.agents.base import Agent, AgentContext
from lhtb.agents.registry import create_agent
from lhtb.environments.base import EnvironmentProvider
from lhtb.errors import LhtbError
from lhtb.qa.load import cpu_hog
from lhtb.qa.tamper import shipped_files, spoil_public_inputs
from lhtb.results.models import AgentSpec, VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.trial.clock import AgentClock
from lhtb.trial.grader import Grader
from lhtb.trial.runner import TrialPlan, agent_spec_for
from lhtb.verifier.runner import ArtifactSnapshot, snapshot_artifacts


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
    agent_sec: float = 0.0
    spoiled: list[str] = field(default_factory=list)  # the public inputs the spoiled grading replaced

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


async def probe(
    provider: EnvironmentProvider, task: Task, image: str, agent: str | Agent, work_dir: Path, plan: Sequence[Round]
) -> Probe:
    name = agent if isinstance(agent, str) else agent.name
    result = Probe(agent=name)
    trial = TrialPlan(
        job_name="qa",
        trial_name=f"qa-{task.name}-{name.replace(':', '-')}",
        task=task,
        agent_spec=AgentSpec(name=name if isinstance(agent, str) else "shortcut"),
        attempt=1,
        trial_dir=work_dir / name.replace(":", "-"),
        agent_timeout_sec=task.config.agent.timeout_sec,
    )
    agent_env = provider.create(agent_spec_for(task, image, trial))
    grader = Grader(provider, task, image, "qa", trial.trial_name, trial.trial_dir, AgentClock(trial.agent_timeout_sec))
    grader.keep_warm = sum(len(r.gradings) for r in plan) > 1
    try:
        grader.warm_up()
        await agent_env.start()
        shipped: dict[str, str] = {}
        if any(g.spoil_inputs for step in plan for g in step.gradings):  # the workdir as the image ships it
            clean = await snapshot_artifacts(agent_env, task)
            try:
                shipped = await asyncio.to_thread(shipped_files, clean)
            finally:
                clean.close()
        runner = create_agent(trial.agent_spec) if isinstance(agent, str) else agent
        (trial.trial_dir / "agent").mkdir(parents=True, exist_ok=True)
        context = AgentContext(task, agent_env, trial.trial_dir / "agent", trial.agent_timeout_sec)
        await runner.setup(context)
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(runner.run(context, task.instruction), trial.agent_timeout_sec)
        result.agent_sec = round(time.monotonic() - started, 3)
        snapshot = await grader.snapshot(agent_env, unpause=False)
        spoiled: ArtifactSnapshot | None = None
        try:
            for step in plan:
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
                        result.verdicts[grading.label] = outcome
        finally:
            snapshot.close()
            if spoiled is not None:
                spoiled.close()
    except LhtbError as exc:
        result.error = f"{exc.error_class.value}: {exc}"
    finally:
        await agent_env.stop()
        await grader.close()
    return result
