"""continue-until-timeout: run the agent, verify when it stops, resume it with a fixed rejection until it passes
or its time is up; take reward checkpoints on the agent's clock meanwhile (docs/long-horizon.md)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import traceback
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, cast

from lhtb.agents.base import Agent, AgentContext, ResumableAgent
from lhtb.environments.base import Environment
from lhtb.errors import AgentError, ErrorClass, LhtbError
from lhtb.fs import write_text_atomic
from lhtb.results.models import (
    AgentOutcome,
    CheckpointRecord,
    ErrorInfo,
    LoopSettings,
    PhaseRecord,
    Usage,
    VerifierOutcome,
)
from lhtb.trial.activity import ActivityMonitor
from lhtb.trial.clock import AgentClock
from lhtb.trial.feedback import diagnostic, rejection
from lhtb.verifier.grader import Grader
from lhtb.verifier.separate import ArtifactSnapshot

DEFAULT_CHECKPOINT_INTERVAL_SEC = 1800.0
MIN_RESUME_SEC = 1.0  # not worth resuming an agent with less agent time left than this
# Added to the verifier timeout for the default feedback pause: snapshot, upload and reward parsing.
FEEDBACK_ALLOWANCE_SEC = 15.0


def default_feedback_pause(verifier_timeout_sec: float) -> float:
    """``LHTB_FEEDBACK_PAUSE_SEC`` when set (tests), else the verifier timeout plus the allowance: grading cannot
    take longer, so the default never cuts an interim verification short."""
    override = os.environ.get("LHTB_FEEDBACK_PAUSE_SEC")
    return float(override) if override else verifier_timeout_sec + FEEDBACK_ALLOWANCE_SEC


def supports_resume(agent: Agent) -> bool:
    return callable(getattr(agent, "resume", None))


def checkpoint_interval_from_env() -> float:
    return float(os.environ.get("LHTB_CHECKPOINT_INTERVAL_SEC", DEFAULT_CHECKPOINT_INTERVAL_SEC))


@dataclass
class AgentLoop:
    agent: Agent
    context: AgentContext
    agent_env: Environment
    grader: Grader
    clock: AgentClock
    settings: LoopSettings
    activity: ActivityMonitor | None = None
    phases: list[PhaseRecord] = field(default_factory=list)
    reward_curve: list[CheckpointRecord] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    # (agent time, index, snapshot, the grader of the step it was taken in): graded after the end
    _checkpoints: list[tuple[float, int, ArtifactSnapshot, Grader]] = field(default_factory=list)
    _next_checkpoint_at: float = 0.0

    def __post_init__(self) -> None:
        self._next_checkpoint_at = self.settings.checkpoint_interval_sec or float("inf")

    def checkpoint_times(self) -> list[float]:
        """Agent seconds of every checkpoint taken so far, graded or still waiting for the end."""
        return sorted([point.agent_sec for point in self.reward_curve] + [c[0] for c in self._checkpoints])

    async def run(self, instruction: str) -> AgentOutcome:
        """All agent phases; returns the last phase's outcome. Interim verdicts are recorded on the phases."""
        message: str | None = None
        while True:
            record = PhaseRecord(index=len(self.phases), started_at=datetime.now(UTC), resumed_with=message)
            record.mode = "initial" if message is None else self._resume_mode()
            self.phases.append(record)
            used_before = self.clock.used
            outcome = await self._phase(self._phase_coro(instruction, message))
            record.finished_at = datetime.now(UTC)
            record.stop_reason = outcome.stop_reason
            record.agent_sec = round(self.clock.used - used_before, 3)
            record.usage = outcome.usage
            self.usage = self.usage.plus(outcome.usage)
            if not self._should_verify(outcome):
                return outcome
            started = time.monotonic()
            verdict = await self._interim(record, f"interim-{len(self.phases)}")
            record.verification_sec = round(time.monotonic() - started, 3)
            if verdict.reward is not None and verdict.reward >= self.settings.pass_threshold:
                await self.grader.release(self.agent_env)
                return outcome
            message = self._feedback(verdict)
            await self._resume_after(started)

    async def _interim(self, record: PhaseRecord, phase: str) -> VerifierOutcome:
        """An interim verification cut off at the feedback pause: one that has not finished by then is not
        passed (and the agent is still resumed on time, so its run time cannot show through)."""
        pause = record.feedback_pause_sec = self.settings.feedback_pause_sec
        if not self.settings.cut_late_verifications:
            started = time.monotonic()
            verdict = await self.grader.verify(self.agent_env, phase)
            record.late = time.monotonic() - started > pause
            record.reward = verdict.reward
            return verdict
        try:
            verdict = await asyncio.wait_for(self.grader.verify(self.agent_env, phase), pause)
        except TimeoutError:
            record.late = True
            message = f"interim verification did not finish within the feedback pause of {pause:g} s"
            error = ErrorInfo(error_class=ErrorClass.VERIFIER_TIMEOUT, message=message)
            verdict = VerifierOutcome(phase=phase, reward=None, error=error)
        record.reward = verdict.reward
        return verdict

    async def _resume_after(self, started: float) -> None:
        """Resume the agent exactly ``feedback_pause_sec`` after ``started``: when it wakes up must not tell it
        how long grading its work on hidden cases took (a timing side channel, docs/integrity.md)."""
        await asyncio.sleep(max(0.0, started + self.settings.feedback_pause_sec - time.monotonic()))
        await self.grader.release(self.agent_env)

    def _should_verify(self, outcome: AgentOutcome) -> bool:
        return (
            self.settings.continue_until_timeout
            and outcome.stop_reason == "completed"
            and self.clock.remaining >= MIN_RESUME_SEC
        )

    def _resume_mode(self) -> Literal["same-conversation", "restart"]:
        return "same-conversation" if supports_resume(self.agent) else "restart"

    def _phase_coro(self, instruction: str, message: str | None) -> Coroutine[Any, Any, AgentOutcome]:
        if message is None:
            return self.agent.run(self.context, instruction)
        if supports_resume(self.agent):
            return cast(ResumableAgent, self.agent).resume(self.context, message)
        return self.agent.run(self.context, f"{instruction}\n\n{message}")

    def _feedback(self, verdict: VerifierOutcome) -> str:
        if self.settings.feedback_mode == "diagnostic":
            return diagnostic(self.clock.remaining, verdict.reward, verdict.subtasks)
        return rejection(self.clock.remaining)

    async def _phase(self, coro: Coroutine[Any, Any, AgentOutcome]) -> AgentOutcome:
        """One phase under the agent clock, with checkpoints; a phase cut off by the deadline keeps its usage."""
        task = asyncio.ensure_future(coro)
        self.clock.start()
        watcher = None if self.activity is None else asyncio.ensure_future(self.activity.watch())
        try:
            while True:
                wait = min(self.clock.remaining, self._next_checkpoint_at - self.clock.used)
                await asyncio.wait({task}, timeout=max(wait, 0.0))
                if task.done():
                    return self._outcome_of(task)
                if self.clock.remaining <= 0:
                    return await self._cut_off(task)
                if self.clock.used >= self._next_checkpoint_at:
                    await self._checkpoint()
        except BaseException:
            task.cancel()
            raise
        finally:
            self.clock.stop()
            if watcher is not None:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher

    def _outcome_of(self, task: asyncio.Future[AgentOutcome]) -> AgentOutcome:
        """The phase's outcome; a crash inside the agent's own code is the agent's error (graded), not ours."""
        exc = task.exception()
        if exc is None:
            return task.result()
        if isinstance(exc, LhtbError):
            raise exc
        trace = "".join(traceback.format_exception(exc))
        write_text_atomic(self.context.logs_dir / "agent-exception.txt", trace)
        raise AgentError(f"the agent raised {type(exc).__name__}: {exc}") from exc

    async def _cut_off(self, task: asyncio.Future[AgentOutcome]) -> AgentOutcome:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        usage = getattr(self.agent, "usage_so_far", None)
        return AgentOutcome(
            stop_reason="timeout",
            usage=usage if isinstance(usage, Usage) else Usage(),
            message=f"agent timeout of {self.clock.budget_sec:.0f} s (agent time)",
        )

    async def _checkpoint(self) -> None:
        """Brief freeze to snapshot the artifacts, graded only once the agent has stopped for good: grading
        alongside a running agent would let it read hidden cases through CPU contention."""
        agent_sec = round(self.clock.used, 3)
        index = len(self.reward_curve) + len(self._checkpoints) + 1
        interval = self.settings.checkpoint_interval_sec or float("inf")
        self._next_checkpoint_at += interval
        if self.grader.shared:  # live state: graded with the agent stopped, resumed after the fixed pause
            started = time.monotonic()
            self._record_checkpoint(agent_sec, await self.grader.grade_live(self.agent_env, f"checkpoint-{index}"))
            await self._resume_after(started)
            if self.activity is not None:  # the verifier ran in the agent's container: its CPU is not the agent's
                self.activity.rebase()
            self.clock.start()
            return
        snapshot = await self.grader.snapshot(self.agent_env, unpause=True, phase=f"checkpoint-{index}")
        self.clock.start()
        self._checkpoints.append((agent_sec, index, snapshot, self.grader))

    def _record_checkpoint(self, agent_sec: float, verdict: VerifierOutcome) -> None:
        self.reward_curve.append(
            CheckpointRecord(
                agent_sec=agent_sec,
                reward=verdict.reward,
                subtask_scores={s.name: s.score for s in verdict.subtasks},
                error=verdict.error.message if verdict.error else None,
            )
        )

    async def grade_checkpoints(self) -> None:
        """Grade the checkpoint snapshots; call it only when the agent can no longer run (after the final
        verification froze it)."""
        pending, self._checkpoints = self._checkpoints, []
        for agent_sec, index, snapshot, grader in pending:
            try:
                self._record_checkpoint(agent_sec, await grader.grade(snapshot, f"checkpoint-{index}"))
            finally:
                snapshot.close()
        self.reward_curve.sort(key=lambda point: point.agent_sec)
