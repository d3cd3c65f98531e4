# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Run the agent's program safely: sanitised environment, a time limit, bounded output, never an exception.

A crash or a timeout is a failed case, not a verifier error. After ``max_timeouts`` timeouts the remaining
runs are failed without starting, so a program that hangs cannot push the verifier past its own timeout.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from dataclasses import dataclass

# Nothing from the caller's environment (PYTHONPATH, PYTHONSTARTUP, LD_PRELOAD...) reaches the agent's code.
CLEAN_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
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


class AgentRunner:
    def __init__(self, cwd: str, *, timeout_sec: float = 5.0, max_timeouts: int = 3) -> None:
        self.cwd = cwd
        self.timeout_sec = timeout_sec
        self.max_timeouts = max_timeouts
        self.timeouts = 0

    def run(self, argv: list[str]) -> Run:
        if self.timeouts >= self.max_timeouts:
            return Run(False, "", "not run: the program timed out too often")
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
                )
            except OSError as exc:
                return Run(False, "", f"could not start: {exc}")
            try:
                status = process.wait(timeout=self.timeout_sec)
            except subprocess.TimeoutExpired:
                self.timeouts += 1
                status = None
            finally:
                _kill_group(process.pid)
                process.wait()
            if status is None:
                return Run(False, "", f"timed out after {self.timeout_sec:g} s")
            stdout_file.seek(0)
            stdout = stdout_file.read(MAX_OUTPUT_BYTES).decode("utf-8", errors="replace")
        return Run(status == 0, stdout, f"exit status {status}")


def _kill_group(pgid: int) -> None:
    """Kill the program and anything it left running in the background."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
