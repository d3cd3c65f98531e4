"""The activity monitor's arithmetic on a scripted CPU counter and a hand-driven agent clock.

A real container's CPU counter is exercised by tests/integration/test_long_horizon.py.
"""

from __future__ import annotations

import asyncio

import pytest

from lhtb.trial.activity import ActivityMonitor, poll_interval_sec


class Clock:
    """Stands in for AgentClock: only ``used`` is read."""

    used = 0.0


class Counter:
    def __init__(self, readings: list[int | None]) -> None:
        self.readings = readings

    async def cpu_usage_ns(self) -> int | None:
        return self.readings.pop(0)


def poll_at(monitor: ActivityMonitor, clock: Clock, times: list[float]) -> None:
    for t in times:
        clock.used = t
        asyncio.run(monitor.poll())


def test_cpu_above_the_floor_marks_the_agent_active() -> None:
    clock = Clock()
    # 0 s: first reading; 10 s: +1 s CPU (10 % of a core); 20 s: +0.1 s (1 %, below the 2 % floor); 30 s: none
    monitor = ActivityMonitor(Counter([0, 10**9, 11 * 10**8, None]), clock, interval_sec=10.0)  # type: ignore[arg-type]
    poll_at(monitor, clock, [0.0, 10.0, 20.0, 30.0])
    record = monitor.record()
    assert record.last_active_sec == 10.0
    assert record.samples == 3 and record.agent_steps == 0


def test_agent_steps_count_as_activity_and_never_move_backwards() -> None:
    clock = Clock()
    monitor = ActivityMonitor(Counter([0, 5 * 10**9]), clock, interval_sec=10.0)  # type: ignore[arg-type]
    clock.used = 42.0
    monitor.report()
    poll_at(monitor, clock, [0.0, 10.0])  # CPU work seen at 10 s, after a step reported at 42 s
    record = monitor.record()
    assert record.last_active_sec == 42.0 and record.agent_steps == 1


def test_never_active_is_none() -> None:
    clock = Clock()
    monitor = ActivityMonitor(Counter([7, 7, 7]), clock, interval_sec=1.0)  # type: ignore[arg-type]
    poll_at(monitor, clock, [0.0, 1.0, 2.0])
    assert monitor.record().last_active_sec is None and monitor.record().samples == 3


@pytest.mark.parametrize(
    ("timeout", "interval"), [(7200.0, 30.0), (1800.0, 30.0), (600.0, 12.0), (60.0, 1.2), (5.0, 0.5), (None, 30.0)]
)
def test_polls_resolve_the_stall_window(timeout: float | None, interval: float) -> None:
    assert poll_interval_sec(timeout) == pytest.approx(interval)


def test_a_model_call_in_flight_is_work_until_it_ends() -> None:
    clock = Clock()
    monitor = ActivityMonitor(Counter([0, 0, 0, 0]), clock, interval_sec=10.0)  # type: ignore[arg-type]
    clock.used = 5.0
    with monitor.waiting():
        poll_at(monitor, clock, [100.0, 400.0])  # no CPU at all: the agent waits on its model
        assert monitor.record().last_active_sec == 400.0
        clock.used = 650.0
        assert monitor.record().last_active_sec == 650.0  # taken mid-call (the deadline came): up to now
        clock.used = 700.0
    poll_at(monitor, clock, [900.0, 1000.0])  # the call returned at 700 s; idle since
    record = monitor.record()
    assert record.last_active_sec == 700.0 and record.agent_steps == 0


def test_a_failed_or_cancelled_call_ends_its_wait() -> None:
    clock = Clock()
    monitor = ActivityMonitor(Counter([0, 0]), clock, interval_sec=10.0)  # type: ignore[arg-type]

    async def call() -> None:
        with monitor.waiting():
            clock.used = 30.0
            await asyncio.sleep(3600)

    async def go() -> None:
        task = asyncio.create_task(call())
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    poll_at(monitor, clock, [100.0, 200.0])
    assert monitor.record().last_active_sec == 30.0  # the wait ended with the cancellation, not later
