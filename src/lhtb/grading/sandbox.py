"""Run the agent's programs from a verifier safely: unprivileged, clean environment, time limit, bounded output.

A crash or a timeout is a failed case, never an exception. When the verifier runs as root the program runs as
``nobody``, so it cannot write the verifier's output directory; after every run all of that user's processes
are killed, including daemons that escaped the process group (in the verifier's own container; on a host, only
the program's session). After ``max_timeouts`` timeouts the remaining
runs fail without starting, so a program that hangs cannot push the verifier past its own timeout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SANDBOX_UID = SANDBOX_GID = 65534  # nobody / nogroup
# Nothing from the verifier's environment (PYTHONPATH, PYTHONSTARTUP, LD_PRELOAD...) reaches the agent's code.
CLEAN_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
}
MAX_OUTPUT_BYTES = 1 << 20


@dataclass(frozen=True)
class Run:
    ok: bool  # exited with status 0 within the time limit
    stdout: str
    note: str


def sandboxed() -> bool:
    return os.geteuid() == 0


def work_dir(prefix: str) -> Path:
    """A fresh directory the sandboxed program can read (its inputs go here)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path


def writable_dir(path: Path) -> Path:
    """Create ``path`` as a directory the sandboxed program may write into."""
    path.mkdir(parents=True, exist_ok=True)
    if sandboxed():
        os.chown(path, SANDBOX_UID, SANDBOX_GID)
    return path


def read_regular_bytes(path: Path | str, limit: int = -1) -> bytes | None:
    """The bytes (at most ``limit``; -1: all) of a regular file written by the program, or None for anything
    else: a symlink, FIFO or device is never followed or opened for reading."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read(limit)


def read_regular_file(path: Path, limit: int = MAX_OUTPUT_BYTES) -> str | None:
    """The text of a regular file written by the program (no symlinks, FIFOs or devices), or None."""
    data = read_regular_bytes(path, limit)
    return None if data is None else data.decode("utf-8", errors="replace")


class AgentRunner:
    def __init__(self, cwd: str, *, timeout_sec: float = 5.0, max_timeouts: int = 3) -> None:
        self.cwd = cwd
        self.timeout_sec = timeout_sec
        self.max_timeouts = max_timeouts
        self.timeouts = 0

    def run(self, argv: list[str]) -> Run:
        if self.timeouts >= self.max_timeouts:
            return Run(False, "", "not run: the program timed out too often")
        drop: dict[str, Any] = {"user": SANDBOX_UID, "group": SANDBOX_GID, "extra_groups": []} if sandboxed() else {}
        with tempfile.TemporaryFile() as stdout_file:
            try:
                process = subprocess.Popen(
                    argv,
                    cwd=self.cwd,
                    env=CLEAN_ENV,
                    stdin=subprocess.DEVNULL,
                    stdout=stdout_file,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    **drop,
                )
            except OSError as exc:
                return Run(False, "", f"could not start: {exc.strerror or exc}")
            try:
                status: int | None = process.wait(timeout=self.timeout_sec)
            except subprocess.TimeoutExpired:
                self.timeouts += 1
                status = None
            finally:
                _kill_leftovers(process.pid)
                process.wait()
            if status is None:
                return Run(False, "", f"timed out after {self.timeout_sec:g} s")
            stdout_file.seek(0)
            stdout = stdout_file.read(MAX_OUTPUT_BYTES).decode("utf-8", errors="replace")
        return Run(status == 0, stdout, f"exit status {status}")


# The inode of the machine's initial PID namespace (the kernel's PROC_PID_INIT_INO): a verifier that sees it
# runs on a host, not in its own container.
HOST_PID_NAMESPACE = 0xEFFFFFFC


def own_pid_namespace() -> bool:
    """True in a container's PID namespace, where the sandbox user's processes are this verifier's alone."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino != HOST_PID_NAMESPACE
    except OSError:
        return False


def _kill_leftovers(pgid: int) -> None:
    """Kill the program's process group and, when sandboxed in its own container, every process of the sandbox
    user. On a host (a verifier run by hand as root) only the program's own session is swept: ``kill(-1)`` as
    ``nobody`` there would reach every container's sandboxed programs and the machine's own daemons."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    if not sandboxed():
        return
    if not own_pid_namespace():
        _kill_session(pgid)
        return
    for _ in range(2):  # a second sweep catches a child forked while the first was under way
        child = os.fork()
        if child == 0:  # kill(-1) as the sandbox user reaches exactly that user's processes, not this one
            try:
                os.setgroups([])
                os.setgid(SANDBOX_GID)
                os.setuid(SANDBOX_UID)
                os.kill(-1, signal.SIGKILL)
            finally:
                os._exit(0)
        os.waitpid(child, 0)


def _kill_session(sid: int) -> None:
    """SIGKILL every process of session ``sid`` (the program started one; processes that left it are not found)."""
    for _ in range(2):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b") ", 1)[-1].split()
                if int(fields[3]) == sid:  # state ppid pgrp session ...
                    os.kill(int(entry.name), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                continue
