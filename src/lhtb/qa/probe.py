"""Run one reference agent (oracle, nop, baseline) on a task and grade its artifacts one or more times.

Built from the same parts as a trial (environments, agents, Grader) but keeps the artifact snapshot, so the
same artifacts can be graded twice in two fresh containers (the determinism gate).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.agents.base import AgentContext
from lhtb.agents.registry import create_agent
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.errors import LhtbError
from lhtb.results.models import AgentSpec, VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.trial.clock import AgentClock
from lhtb.trial.grader import Grader
from lhtb.trial.runner import TrialPlan, agent_spec_for


@dataclass
class Probe:
    agent: str
    verdicts: list[VerifierOutcome] = field(default_factory=list)
    error: str | None = None
    agent_sec: float = 0.0

    @property
    def reward(self) -> float | None:
        return self.verdicts[0].reward if self.verdicts else None


async def probe(task: Task, image: str, agent_name: str, work_dir: Path, *, gradings: int = 1) -> Probe:
    result = Probe(agent=agent_name)
    plan = TrialPlan(
        job_name="qa",
        trial_name=f"qa-{task.name}-{agent_name}",
        task=task,
        agent_spec=AgentSpec(name=agent_name),
        attempt=1,
        trial_dir=work_dir / agent_name,
        agent_timeout_sec=task.config.agent.timeout_sec,
    )
    agent_env = DockerEnvironment(agent_spec_for(task, image, plan))
    grader = Grader(task, image, "qa", plan.trial_name, plan.trial_dir, AgentClock(plan.agent_timeout_sec))
    grader.keep_warm = gradings > 1
    try:
        grader.warm_up()
        await agent_env.start()
        agent = create_agent(plan.agent_spec)
        (plan.trial_dir / "agent").mkdir(parents=True, exist_ok=True)
        context = AgentContext(task, agent_env, plan.trial_dir / "agent", plan.agent_timeout_sec)
        await agent.setup(context)
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(agent.run(context, task.instruction), plan.agent_timeout_sec)
        result.agent_sec = round(time.monotonic() - started, 3)
        snapshot = await grader.snapshot(agent_env, unpause=False)
        try:
            for index in range(gradings):
                result.verdicts.append(await grader.grade(snapshot, f"grading-{index + 1}"))
        finally:
            snapshot.close()
    except LhtbError as exc:
        result.error = f"{exc.error_class.value}: {exc}"
    finally:
        await agent_env.stop()
        await grader.close()
    return result
