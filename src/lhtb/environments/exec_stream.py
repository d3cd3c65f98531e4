"""A command's output read frame by frame into bounded buffers: the cap holds while reading, not after.

Each stream keeps its first ``cap // 2`` bytes and its last ``cap - cap // 2`` bytes and counts every byte it
carried; the rest is drained and dropped as it arrives, so harness CPU and memory stay linear (memory bounded)
in the size of the output, however much a command prints.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


class BoundedBuffer:
    """The head and the tail of one output stream, and how many bytes the stream carried in all."""

    def __init__(self, cap: int) -> None:
        if cap < 2:
            raise ValueError(f"an output cap of {cap} bytes cannot hold a head and a tail")
        self.head_limit = cap // 2
        self.tail_limit = cap - self.head_limit
        self.total = 0
        self._head = bytearray()
        self._tail = bytearray()

    @property
    def held(self) -> int:
        """Bytes held right now: at most ``head_limit + 2 * tail_limit`` (the tail is compacted lazily)."""
        return len(self._head) + len(self._tail)

    @property
    def truncated(self) -> bool:
        return self.total > self.head_limit + self.tail_limit

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        view = memoryview(chunk)
        room = self.head_limit - len(self._head)
        if room > 0:
            self._head += view[:room]
            view = view[room:]
        if not view:
            return
        if len(view) >= self.tail_limit:
            self._tail[:] = view[len(view) - self.tail_limit :]
            return
        self._tail += view
        # Compact only once the tail doubled: each byte is moved at most once, so the cost stays linear.
        if len(self._tail) > 2 * self.tail_limit:
            del self._tail[: len(self._tail) - self.tail_limit]

    def data(self) -> bytes:
        """Head + tail, with a marker line between them saying how many bytes were dropped."""
        tail = self._tail[-self.tail_limit :] if self._tail else b""
        dropped = self.total - len(self._head) - len(tail)
        if dropped <= 0:
            return bytes(self._head + tail)
        marker = f"\n[... {dropped} of {self.total} bytes omitted by lhtb ...]\n".encode()
        return bytes(self._head + marker + tail)

    def text(self) -> str:
        return self.data().decode("utf-8", errors="replace")


@dataclass(frozen=True)
class CapturedOutput:
    """What :func:`capture_frames` kept of both streams (decoded) and how many bytes each carried."""

    stdout: str
    stderr: str
    stdout_bytes: int
    stderr_bytes: int
    truncated: bool


def capture_frames(frames: Iterable[tuple[bytes | None, bytes | None]], cap: int) -> CapturedOutput:
    """Drain demultiplexed ``(stdout, stderr)`` frames (docker-py ``stream=True, demux=True``), ``cap`` per stream."""
    stdout, stderr = BoundedBuffer(cap), BoundedBuffer(cap)
    for stdout_chunk, stderr_chunk in frames:
        if stdout_chunk:
            stdout.feed(stdout_chunk)
        if stderr_chunk:
            stderr.feed(stderr_chunk)
    return CapturedOutput(
        stdout=stdout.text(),
        stderr=stderr.text(),
        stdout_bytes=stdout.total,
        stderr_bytes=stderr.total,
        truncated=stdout.truncated or stderr.truncated,
    )


def close_stream(frames: Any) -> None:
    """Close docker-py's ``CancellableStream`` (stream mode leaves the HTTP response to the caller)."""
    with contextlib.suppress(OSError):  # the engine may have closed the connection at the end of the output
        frames.close()
