"""The agent's clock: runs only while the agent may act, stopped while it is frozen for grading."""

from __future__ import annotations

import time


class AgentClock:
    def __init__(self, budget_sec: float) -> None:
        self.budget_sec = budget_sec
        self._used = 0.0
        self._running_since: float | None = None

    def start(self) -> None:
        if self._running_since is None:
            self._running_since = time.monotonic()

    def stop(self) -> None:
        if self._running_since is not None:
            self._used += time.monotonic() - self._running_since
            self._running_since = None

    @property
    def used(self) -> float:
        running = 0.0 if self._running_since is None else time.monotonic() - self._running_since
        return self._used + running

    @property
    def remaining(self) -> float:
        return max(0.0, self.budget_sec - self.used)
