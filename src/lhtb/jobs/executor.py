"""Where a job's trials run: the seam between the job runner (what to run, retries, resume, the job directory)
and the place a trial executes (this machine's Docker engine, or a node of a Ray cluster).

The runner never knows which: it hands an executor a :class:`TrialPlan` whose ``trial_dir`` is in the job
directory and gets the :class:`TrialResult` back, with ``result.json`` already written there."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Protocol

from lhtb.trial.background import Background
from lhtb.trial.lifecycle import PhaseCallback, TrialPlan, run_trial

if TYPE_CHECKING:
    from lhtb.environments.base import EnvironmentProvider
    from lhtb.results.models import TrialResult


class TrialExecutor(Protocol):
    async def start(self) -> None:
        """Connect to where trials run (a cluster); raise ConfigError when it cannot take any trial."""
        ...

    async def run(self, plan: TrialPlan, on_phase: PhaseCallback) -> TrialResult:
        """Run one trial; ``result.json`` is in ``plan.trial_dir`` on return. Never raises but on cancellation:
        a trial lost to the infrastructure is a result with a retryable infrastructure error."""
        ...

    async def settle(self) -> None:
        """Wait for work that outlives a trial's result (container removal, the teardown time rewritten)."""
        ...

    async def collect_garbage(self, job: str) -> None:
        """Remove the job's containers whose owner process died (a killed job, a lost node), wherever they run."""
        ...

    async def remove_leftovers(self, job: str) -> None:
        """After the job (or its interruption): remove every container this job's trials still have."""
        ...

    async def close(self) -> None: ...


class LocalExecutor:
    """Trials in this process, on this machine's Docker engine (the default)."""

    def __init__(self, provider: EnvironmentProvider | None = None) -> None:
        from lhtb.environments import default_provider

        self.provider = provider or default_provider()
        self.background = Background()

    async def start(self) -> None:
        return None

    async def run(self, plan: TrialPlan, on_phase: PhaseCallback) -> TrialResult:
        return await run_trial(plan, self.background, on_phase, self.provider)

    async def settle(self) -> None:
        await self.background.drain()

    async def collect_garbage(self, job: str) -> None:
        await asyncio.to_thread(self.provider.collect_garbage, job=job)

    async def remove_leftovers(self, job: str) -> None:
        await asyncio.to_thread(self.provider.remove_owned, job=job, owner_pid=os.getpid())

    async def close(self) -> None:
        return None
