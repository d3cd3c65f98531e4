"""Long QA commands (`tasks check`, `tasks audit`) stopped by SIGTERM or Ctrl-C leave no container behind."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

_T = TypeVar("_T")
EXIT_SIGTERM = 143
EXIT_SIGINT = 130


class Interrupted(Exception):
    """The command was stopped; ``code`` is its exit status (128 + the signal's number)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"interrupted ({code})")
        self.code = code


async def _cancellable(coro: Coroutine[Any, Any, _T]) -> _T:
    """SIGTERM cancels the command like Ctrl-C, so its gradings remove their containers (their ``finally``)."""
    loop = asyncio.get_running_loop()
    current = asyncio.current_task()
    assert current is not None
    loop.add_signal_handler(signal.SIGTERM, current.cancel)
    try:
        return await coro
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def run_interruptible(coro: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coro)``; stopped by SIGTERM or Ctrl-C, it removes every container this process started (one
    whose start raced the signal too) and raises ``Interrupted`` with the exit status to return."""
    try:
        return asyncio.run(_cancellable(coro))
    except (asyncio.CancelledError, KeyboardInterrupt) as exc:
        from lhtb.environments.gc import remove_containers

        with contextlib.suppress(Exception):  # an engine gone too leaves them to `lhtb env gc`
            remove_containers(owner_pid=os.getpid())
        raise Interrupted(EXIT_SIGTERM if isinstance(exc, asyncio.CancelledError) else EXIT_SIGINT) from None
