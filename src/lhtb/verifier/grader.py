"""Verdicts for a trial: interim, checkpoint and final verifications, each in its own fresh sandbox.

The trial asks for a verdict (``verify``) and lets the agent run again (``release``) or never again (``hold``);
how the agent is stopped, its artifacts copied and graded, and which sandboxes exist is this module's business.
A clean verifier sandbox is kept warm (started ahead of time) so a verification never waits for a start.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from lhtb.environments.base import Environment, EnvironmentProvider, FreezeError
from lhtb.results.models import ErrorInfo, VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.verifier.collect import run_collect_hooks
from lhtb.verifier.separate import ArtifactSnapshot, install_tests, run_verifier, snapshot_artifacts, verifier_spec
from lhtb.verifier.shared import AgentProcessesUnstoppable, continue_processes, run_shared_verifier
from lhtb.verifier.sibling import live_service_pids, run_sibling_verifier


class AgentTime(Protocol):
    """The agent's clock, as grading sees it: stopped the moment the agent is frozen for a verification."""

    def stop(self) -> None: ...


@dataclass
class Grader:
    provider: EnvironmentProvider
    task: Task
    image: str  # the task's: what a clean snapshot reads
    verifier_image: str  # where verifications run: the task's, or a bundled verifier's (tests/Dockerfile)
    job: str
    trial: str
    trial_dir: Path
    clock: AgentTime
    keep_warm: bool = False  # more than one verification is likely (continue-until-timeout, checkpoints)
    # LHTB_VERIFY_SEED of every verification of the trial (interim, checkpoints, final): its hidden cases.
    verify_seed: int | None = None
    last: bool = True  # its final verification is the trial's last (False: an earlier step of a multi-step task)
    _warm: asyncio.Future[Environment] | None = None
    _removals: list[asyncio.Future[None]] = field(default_factory=list)
    _stopped: list[str] = field(default_factory=list)  # shared mode: PIDs stopped by the last verification
    _frozen: bool = False  # the agent container is paused (by a snapshot, or held after the final verification)

    @property
    def shared(self) -> bool:
        return self.task.config.verifier.mode == "shared"

    async def _start_one(self) -> Environment:
        env = self.provider.create(verifier_spec(self.task, self.verifier_image, job=self.job, trial=self.trial))
        try:
            await env.start()
            await install_tests(env, self.task)  # done while warming up: off the critical path
        except BaseException:
            await env.stop()
            raise
        return env

    def warm_up(self) -> None:
        if self._warm is None and not self.shared:
            self._warm = asyncio.ensure_future(self._start_one())

    async def _take(self) -> Environment:
        warm, self._warm = self._warm, None
        env = await warm if warm is not None else await self._start_one()
        if self.keep_warm:
            self.warm_up()
        return env

    async def snapshot(self, agent_env: Environment, *, unpause: bool, phase: str = "final") -> ArtifactSnapshot:
        """Freeze the agent (its clock stops), copy the artifacts out, and unpause only after the copy. The
        task's collect hooks run first: main's before the freeze, the sidecars' after (lhtb.verifier.collect)."""
        phase_dir = self.trial_dir / "verifier" / phase
        await run_collect_hooks(agent_env, self.task, phase_dir, in_main=True)  # the agent still runs: its time
        self.clock.stop()
        await _freeze(agent_env)
        self._frozen = True
        try:
            await run_collect_hooks(agent_env, self.task, phase_dir, in_main=False)
            return await snapshot_artifacts(agent_env, self.task)
        finally:
            if unpause:
                await self._unfreeze(agent_env)

    async def grade(self, snapshot: ArtifactSnapshot, phase: str, *, seed: int | None = None) -> VerifierOutcome:
        """Grade ``snapshot`` in a fresh container; ``seed`` overrides the trial's verify seed (QA's seeds gate)."""
        env = await self._take()
        seed = self.verify_seed if seed is None else seed
        try:
            return await run_verifier(
                self.task, env, snapshot, self.trial_dir / "verifier" / phase, phase=phase, seed=seed
            )
        finally:
            self._removals.append(asyncio.ensure_future(env.stop()))

    async def grade_live(self, agent_env: Environment, phase: str) -> VerifierOutcome:
        """Shared mode: grade the agent's live state with every agent process stopped until :meth:`release`
        (in its container), or, when the agent serves on a TCP port, with only its services running and the
        verifier in a sibling container sharing their network (lhtb.verifier.sibling).

        The agent's processes see what grading sends them (its programs run in its container, its services
        answer the verifier), so only the final verification, after which the agent never runs again, uses the
        trial's verify seed; an interim or checkpoint one uses a seed of its own (:func:`live_seed`)."""
        self.clock.stop()
        phase_dir = self.trial_dir / "verifier" / phase
        # A multi-step task's earlier steps are followed by more agent work: only its last step's final is final.
        seed = live_seed(self.verify_seed, phase if self.last else f"{self.task.step}:{phase}")
        try:
            live = await live_service_pids(agent_env)
        except AgentProcessesUnstoppable as exc:
            self._stopped = []
            return VerifierOutcome(phase=phase, error=ErrorInfo(error_class=exc.error_class, message=str(exc)))
        if live:
            outcome, self._stopped = await run_sibling_verifier(
                self.task,
                agent_env,
                self.provider,
                phase_dir,
                job=self.job,
                trial=self.trial,
                live=live,
                phase=phase,
                seed=seed,
                freeze=_freeze,
            )
        else:
            outcome, self._stopped = await run_shared_verifier(self.task, agent_env, phase_dir, phase=phase, seed=seed)
        return outcome

    async def verify(self, agent_env: Environment, phase: str) -> VerifierOutcome:
        """Grade the agent's work; the agent stays stopped (frozen, or its processes SIGSTOPped in shared mode)
        until :meth:`release`, so nothing of it runs while hidden cases are graded."""
        if self.shared:
            return await self.grade_live(agent_env, phase)
        snapshot = await self.snapshot(agent_env, unpause=False, phase=phase)
        try:
            return await self.grade(snapshot, phase)
        finally:
            snapshot.close()

    async def release(self, agent_env: Environment) -> None:
        """Let the agent run again after :meth:`verify`."""
        if self.shared:
            stopped, self._stopped = self._stopped, []
            await continue_processes(agent_env, stopped)
        else:
            await self._unfreeze(agent_env)

    async def _unfreeze(self, agent_env: Environment) -> None:
        if self._frozen:
            self._frozen = False
            await agent_env.unpause()

    async def hold(self, agent_env: Environment) -> None:
        """After the final verification: the agent never runs again (shared mode: freeze its container too)."""
        if self.shared:
            await _freeze(agent_env)
            self._frozen = True

    async def clean_snapshot(self) -> ArtifactSnapshot:
        """The artifact paths as the clean image ships them, from a fresh sandbox no agent has touched."""
        env = self.provider.create(verifier_spec(self.task, self.image, job=self.job, trial=self.trial))
        try:
            await env.start()
            return await snapshot_artifacts(env, self.task)
        finally:
            await env.stop()

    async def held_snapshot(self, agent_env: Environment) -> ArtifactSnapshot:
        """The artifacts of an agent held for good (after :meth:`hold`): what the final verification graded,
        to grade again (QA's seeds, load and inputs gates)."""
        if not self._frozen:
            raise RuntimeError("held_snapshot needs an agent held after its final verification")
        return await snapshot_artifacts(agent_env, self.task)

    async def close(self) -> None:
        """Remove the warm container (if unused) and wait for every removal."""
        if self._warm is not None:
            warm, self._warm = self._warm, None
            self._removals.append(asyncio.ensure_future(_stop_when_started(warm)))
        await asyncio.gather(*self._removals, return_exceptions=True)


def live_seed(seed: int | None, phase: str) -> int | None:
    """The verify seed of a live (shared-mode) verification: the trial's for the final one; for any other, one
    derived from it and the phase, so what the agent's processes saw of those cases says nothing of the final's."""
    if seed is None or phase == "final":
        return seed
    digest = hashlib.sha256(f"lhtb-live-seed\0{seed}\0{phase}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits, as lhtb draws verify seeds


FREEZE_ATTEMPTS = 4
FREEZE_BACKOFF_SEC = 0.5  # the n-th retry waits n times this: churning processes usually settle within a second


async def _freeze(agent_env: Environment, attempts: int = FREEZE_ATTEMPTS) -> None:
    """Freeze, retried: the cgroup freezer gives up ("unable to freeze") while the agent's processes churn (fork
    loops, busy pollers); that must not turn into a harness error, which would exclude the trial."""
    for attempt in range(1, attempts + 1):
        try:
            await agent_env.pause()
            return
        except FreezeError:
            if attempt == attempts:
                raise
            await asyncio.sleep(FREEZE_BACKOFF_SEC * attempt)


async def _stop_when_started(starting: asyncio.Future[Environment]) -> None:
    env = await starting  # a failed start removed its own container already
    await env.stop()
