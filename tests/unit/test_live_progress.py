"""The console's progress line: finished trials, time so far and an ETA from the job's own pace."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from rich.console import Console

from lhtb.cli.live import PROGRESS_EVERY, LiveView, Progress, duration
from lhtb.results.models import AgentSpec, TrialResult


def test_eta_follows_the_pace_of_finished_trials() -> None:
    now = [100.0]
    progress = Progress(26, clock=lambda: now[0])
    assert progress.line() == "0/26 trials finished · 0s"  # no ETA before a trial has ended
    now[0] += 300.0
    progress.finished = 6  # 50 s a trial at this concurrency
    assert progress.line() == "6/26 trials finished · 5m00s · ETA 16m40s"
    progress.finished = 26
    assert progress.line() == "26/26 trials finished · 5m00s"


def test_durations_stay_short() -> None:
    assert [duration(s) for s in (0, 42.4, 65, 3599, 3600, 11_520)] == [
        "0s",
        "42s",
        "1m05s",
        "59m59s",
        "1h00m",
        "3h12m",
    ]


def test_a_log_gets_a_progress_line_now_and_then() -> None:
    """No live table when the output is not a terminal (CI, nohup): a progress line every few trials."""
    buffer = io.StringIO()
    total = PROGRESS_EVERY * 2 + 1
    view = LiveView(Console(file=buffer, width=80, force_terminal=False), total)
    now = datetime.now(UTC)
    with view:
        for n in range(1, total + 1):
            name = f"task__agent__{n}"
            result = TrialResult(
                trial_name=name, job_name="j", task_name="task", agent=AgentSpec(name="agent"), attempt=n,
                started_at=now, finished_at=now, reward=0.5,
            )  # fmt: skip
            view.event(name, "done", result)
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "[1/21] task__agent__1: reward 0.500"
    progress = [line for line in lines if "trials finished" in line]
    assert [line.split(" · ")[0] for line in progress] == ["10/21 trials finished", "20/21 trials finished"]
    assert all("ETA" in line for line in progress)
