"""Watch whether the agent is still working, so reports can tell "out of time while working" from a stall.

Two signals, both on the agent clock: steps the agent reports (``AgentContext.report_activity``: a model
reply, keystrokes sent) and the container's CPU time (``Environment.cpu_usage_ns``: for Docker the cgroup file,
or the Engine API). An agent waiting on its model is working for as long as the call is in flight (``waiting``:
the harness's own agents wrap each call, the model bridge marks a request it relays until its answer starts);
a build or test run counts through its CPU use; an agent blocked on a hung command shows neither. A slow model
that takes longer than the stall window to answer is therefore never read as a stall.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Protocol

from lhtb.results.models import ActivityRecord
from lhtb.trial.clock import AgentClock

CPU_FLOOR = 0.02  # share of one core between two polls that counts as work (an idle shell uses far less)
MAX_POLL_SEC = 30.0
MIN_POLL_SEC = 0.5
POLLS_PER_WINDOW = 5  # polls within the stall window, so a stall is seen at a fifth of its resolution


class CpuSource(Protocol):
    async def cpu_usage_ns(self) -> int | None: ...


# What "stalled" means, here because the monitor's polling must resolve it; the failure modes apply it.
STALL_WINDOW_SEC = 300.0  # idle for the last 5 minutes of its time (a tenth of a short timeout): stalled
STALL_WINDOW_FRACTION = 0.1


def stall_window_sec(timeout_sec: float | None) -> float:
    """How long an agent must have been idle at the end of its time to count as stalled."""
    if not timeout_sec or timeout_sec <= 0:
        return STALL_WINDOW_SEC
    return min(STALL_WINDOW_SEC, STALL_WINDOW_FRACTION * timeout_sec)


def poll_interval_sec(timeout_sec: float | None) -> float:
    """Often enough to resolve the stall window (:func:`stall_window_sec`)."""
    return max(MIN_POLL_SEC, min(MAX_POLL_SEC, stall_window_sec(timeout_sec) / POLLS_PER_WINDOW))


class ActivityMonitor:
    """Polls CPU while a phase runs (``watch``); ``record`` says when the agent was last seen active."""

    def __init__(self, source: CpuSource, clock: AgentClock, *, interval_sec: float, cpu_floor: float = CPU_FLOOR):
        self._source = source
        self._clock = clock
        self._interval = interval_sec
        self._cpu_floor = cpu_floor
        self._last_cpu: tuple[float, int] | None = None  # (agent clock, CPU ns) of the previous reading
        self._last_active: float | None = None
        self._samples = 0
        self._steps = 0
        self._waits = 0  # model calls in flight

    def report(self) -> None:
        """An agent step: the agent is active now."""
        self._steps += 1
        self._active_at(self._clock.used)

    def touch(self) -> None:
        """Work seen that is not a step of the agent's own (bytes of a streamed model answer)."""
        self._active_at(self._clock.used)

    def begin_wait(self) -> None:
        """A model call started: the agent counts as active until :meth:`end_wait`."""
        self._waits += 1
        self._active_at(self._clock.used)

    def end_wait(self) -> None:
        """The call returned, failed or was cancelled: active until now, then the other signals decide."""
        self._waits = max(0, self._waits - 1)
        self._active_at(self._clock.used)

    @contextlib.contextmanager
    def waiting(self) -> Iterator[None]:
        """Around one model call (also when it raises or its task is cancelled at the agent's deadline)."""
        self.begin_wait()
        try:
            yield
        finally:
            self.end_wait()

    def _active_at(self, agent_sec: float) -> None:
        if self._last_active is None or agent_sec > self._last_active:
            self._last_active = agent_sec

    async def poll(self) -> None:
        """One CPU reading; work since the previous one marks the agent active now."""
        usage = await self._source.cpu_usage_ns()
        now = self._clock.used
        if self._waits:
            self._active_at(now)
        if usage is None:
            return
        self._samples += 1
        previous, self._last_cpu = self._last_cpu, (now, usage)
        if previous is None:
            return
        elapsed = now - previous[0]
        if elapsed > 0 and (usage - previous[1]) / 1e9 >= self._cpu_floor * elapsed:
            self._active_at(now)

    async def watch(self) -> None:
        """Poll until cancelled (the phase ended); a failed poll never disturbs the agent.

        CPU used between phases (the agent container runs on while it is graded) is not the agent's work on
        the agent clock, so each phase starts from a fresh reading.
        """
        self.rebase()
        while True:
            with contextlib.suppress(Exception):
                await self.poll()
            await asyncio.sleep(self._interval)

    def rebase(self) -> None:
        """Forget the previous CPU reading: CPU used since (the harness's own work) is not the agent's."""
        self._last_cpu = None

    def record(self) -> ActivityRecord:
        if self._waits:  # a call still in flight when the record is taken: working up to now
            self._active_at(self._clock.used)
        return ActivityRecord(
            last_active_sec=None if self._last_active is None else round(self._last_active, 3),
            poll_interval_sec=self._interval,
            cpu_floor=self._cpu_floor,
            samples=self._samples,
            agent_steps=self._steps,
        )
