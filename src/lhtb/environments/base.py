"""The seam between the trial runner and a sandbox. Docker is the one implementation today."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class ExecResult:
    exit_code: int | None  # None when the command was killed by our timeout
    stdout: str
    stderr: str
    timed_out: bool  # the harness's own clock saw the deadline pass; never inferred from an exit code
    duration_sec: float
    stdout_bytes: int = 0  # bytes the command wrote, kept or not (``stdout`` holds a head and a tail of them)
    stderr_bytes: int = 0
    output_truncated: bool = False  # a stream outgrew the capture cap; a marker line says how much was dropped


class Environment(Protocol):
    """A running sandbox built from a task image."""

    async def start(self) -> None: ...

    async def exec(
        self,
        command: str,
        *,
        user: str | None = None,
        env: dict[str, str] | None = None,
        workdir: str | None = None,
        timeout_sec: float | None = None,
    ) -> ExecResult: ...

    async def upload_dir(self, source: Path, dest: str) -> None: ...

    async def download_tar(self, path: str) -> bytes: ...

    async def upload_tar(self, tar_bytes: bytes, dest: str, *, make_dest: bool = True) -> None: ...

    async def pause(self) -> None: ...

    async def unpause(self) -> None: ...

    async def stop(self) -> None: ...
