# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""AgentRunner's cleanup reaches the program's own processes and nothing else when a verifier runs on a host."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from lhtb.grading.sandbox import (
    SANDBOX_GID,
    SANDBOX_UID,
    AgentRunner,
    own_pid_namespace,
    sandboxed,
    work_dir,
    writable_dir,
)

pytestmark = pytest.mark.skipif(not sandboxed() or own_pid_namespace(), reason="needs root on a host")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b") ", 1)[-1][:1] != b"Z"
    except FileNotFoundError:
        return False


def test_host_cleanup_spares_other_sandbox_user_processes() -> None:
    """A nobody process outside the program's session (another container's program, a daemon) survives."""
    bystander = subprocess.Popen(
        ["sleep", "60"], user=SANDBOX_UID, group=SANDBOX_GID, extra_groups=[], start_new_session=True
    )
    folder = writable_dir(work_dir("lhtb-test-cleanup-") / "out")
    pid_file = folder / "child.pid"
    try:
        # The program leaves a background child in its session and exits at once.
        script = f"sleep 60 & echo $! > {pid_file}"
        result = AgentRunner(str(folder), timeout_sec=10).run(["bash", "-c", script])
        assert result.ok
        child = int(pid_file.read_text())
        deadline = time.monotonic() + 5
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the program's own leftover child must be killed"
        assert _alive(bystander.pid), "a process outside the program's session must survive"
    finally:
        bystander.kill()
        bystander.wait()
        shutil.rmtree(folder.parent, ignore_errors=True)


def test_host_pid_namespace_is_detected() -> None:
    assert own_pid_namespace() is (os.stat("/proc/self/ns/pid").st_ino != 0xEFFFFFFC)
