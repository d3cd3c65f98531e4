"""Work taken off a trial's critical path (container removal) that must still finish before the job exits."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.errors: list[BaseException] = []

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.errors.append(task.exception())  # type: ignore[arg-type]

    async def drain(self) -> None:
        """Wait for everything spawned so far, even while the caller is being cancelled."""
        while self._tasks:
            await asyncio.shield(asyncio.gather(*list(self._tasks), return_exceptions=True))
