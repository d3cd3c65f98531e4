# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Emulated durable storage. ALL file I/O of the store goes through this module.

Data written through a handle is buffered in memory and reaches the file only on ``fsync``, which writes it
and calls ``os.fsync``; a file created with ``create`` exists (empty) at once, its content only after
``fsync``. ``rename`` and ``unlink`` are immediate and durable. A simulated crash (``os._exit``) therefore
loses everything that was not fsynced, which makes the ordering of writes, fsyncs and renames observable when
you test locally with ``--crash-after`` / ``--crash-in``.

Counters (printed by the ``stats`` command): bytes made durable, fsync calls, and metadata operations.
Crash injection: ``arm(phase, n)`` makes the n-th mutating call (write, fsync, rename, unlink, create) made
while ``phase`` is active (``"flush"`` or ``"compact"``, see ``phase()``) crash the process before it runs.
"""

from __future__ import annotations

import contextlib
import os
import sys

CRASH_STATUS = 77
STATS = {"bytes_written": 0, "fsyncs": 0, "meta_ops": 0}
_PLAN = {"phase": None, "n": 0, "seen": 0}
_ACTIVE: list = []


def crash() -> None:
    """Die at once, like a power cut: pending (unsynced) data is lost. Output already printed is kept."""
    sys.stdout.flush()
    os._exit(CRASH_STATUS)


def arm(phase: str, n: int) -> None:
    _PLAN.update(phase=phase, n=n, seen=0)


@contextlib.contextmanager
def phase(name: str):
    _ACTIVE.append(name)
    try:
        yield
    finally:
        _ACTIVE.pop()


def _step() -> None:
    if _PLAN["phase"] is not None and _PLAN["phase"] in _ACTIVE:
        _PLAN["seen"] += 1
        if _PLAN["seen"] >= _PLAN["n"]:
            crash()


class Handle:
    def __init__(self, path: str) -> None:
        self.path = path
        self.pending = bytearray()

    def write(self, data: bytes) -> None:
        _step()
        self.pending += data

    def fsync(self) -> None:
        _step()
        with open(self.path, "ab") as handle:
            handle.write(self.pending)
            handle.flush()
            os.fsync(handle.fileno())
        STATS["bytes_written"] += len(self.pending)
        self.pending.clear()
        STATS["fsyncs"] += 1

    def close(self) -> None:
        """Closing does NOT make pending data durable (like a page cache that is never flushed)."""
        self.pending.clear()


def create(path: str) -> Handle:
    """Create (or empty) ``path`` and return a handle appending to it."""
    _step()
    STATS["meta_ops"] += 1
    with open(path, "wb"):
        pass
    return Handle(path)


def open_append(path: str) -> Handle:
    if not os.path.exists(path):
        return create(path)
    return Handle(path)


def read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def exists(path: str) -> bool:
    return os.path.exists(path)


def listdir(path: str) -> list:
    return sorted(os.listdir(path))


def rename(src: str, dst: str) -> None:
    _step()
    STATS["meta_ops"] += 1
    os.replace(src, dst)


def unlink(path: str) -> None:
    _step()
    STATS["meta_ops"] += 1
    os.unlink(path)


def truncate(path: str) -> None:
    """Empty ``path`` (durable at once)."""
    _step()
    STATS["meta_ops"] += 1
    with open(path, "wb"):
        pass
