"""``live.json``: where a running trial stands, for the live viewer (``lhtb view --serve``).

Rewritten atomically at every phase change and every ``LIVE_EVERY_SEC`` while the trial runs: phase, agent
clock, when the agent was last seen working, tokens and episodes so far, each finished phase's interim reward
and the checkpoints taken. It is for people watching; nothing reads it back into a result, and a failure to
write it never disturbs the trial. On a Ray node it travels to the job directory with the trial's other files.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from lhtb.fs import write_model_atomic
from lhtb.results.models import LiveInterim, PhaseRecord, TrialLive, Usage
from lhtb.trial.activity import ActivityMonitor
from lhtb.trial.clock import AgentClock

LIVE_EVERY_SEC = 5.0
LIVE_FILE = "live.json"


class LoopView(Protocol):
    """What the writer reads of the agent loop (``lhtb.trial.agent_loop.AgentLoop``)."""

    phases: list[PhaseRecord]
    usage: Usage
    activity: ActivityMonitor | None

    def checkpoint_times(self) -> list[float]: ...


class LiveWriter:
    def __init__(self, trial_dir: Path, trial_name: str, timeout_sec: float, started_at: datetime) -> None:
        self.path = trial_dir / LIVE_FILE
        self.trial_name = trial_name
        self.timeout_sec = timeout_sec
        self.started_at = started_at
        self.phase = "queued"
        self.clock: AgentClock | None = None
        self.loop: LoopView | None = None
        self.agent: object | None = None  # its ``usage_so_far``, when it keeps one, counts for a running phase

    def snapshot(self) -> TrialLive:
        loop = self.loop
        usage = loop.usage if loop is not None else Usage()
        running = loop is not None and bool(loop.phases) and loop.phases[-1].finished_at is None
        so_far = getattr(self.agent, "usage_so_far", None)
        if running and isinstance(so_far, Usage):
            usage = usage.plus(so_far)
        interim, elapsed = [], 0.0
        for record in loop.phases if loop is not None else []:
            if record.finished_at is None:
                continue
            elapsed += record.agent_sec
            interim.append(LiveInterim(agent_sec=round(elapsed, 3), reward=record.reward, late=record.late))
        activity = loop.activity.record() if loop is not None and loop.activity is not None else None
        return TrialLive(
            trial_name=self.trial_name,
            phase=self.phase,
            started_at=self.started_at,
            updated_at=datetime.now(UTC),
            timeout_sec=self.timeout_sec,
            agent_sec=round(self.clock.used, 3) if self.clock is not None else 0.0,
            last_active_sec=activity.last_active_sec if activity is not None else None,
            episodes=usage.episodes,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            interim=interim,
            checkpoints=loop.checkpoint_times() if loop is not None else [],
        )

    def write(self, phase: str | None = None) -> None:
        if phase is not None:
            self.phase = phase
        with contextlib.suppress(OSError, ValueError):  # a full disk or a refused figure: the trial goes on
            write_model_atomic(self.path, self.snapshot())

    async def tick(self) -> None:
        """Until cancelled (the trial ended)."""
        while True:
            await asyncio.sleep(LIVE_EVERY_SEC)
            self.write()
