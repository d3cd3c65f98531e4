"""Shared-mode verification (Harbor compatibility): grade live state inside the agent's own container.

Every process of the agent container is stopped (SIGSTOP, repeated until no new process appears), the tests
are copied in under a fresh random path (``/tests`` is a symlink to it only while grading), the verifier runs,
its output is downloaded, everything copied in is deleted, and the agent's processes are continued. The
verifier's toolchain is the agent container's own: shared mode cannot defend against trojaned interpreters and
is for Harbor tasks that must grade live state; lhtb's own tasks use separate mode.
"""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path

from lhtb.environments.base import ExecResult
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import LhtbError
from lhtb.fs import write_text_atomic
from lhtb.results.models import VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.verifier.runner import OUTPUT_DIR, TRUSTED_PYTHON_ENV, collect_output, grade_outcome, sdk_host_dir

# Stops every process but PID 1 (docker-init), this shell and its parent (the exec's `timeout`); repeats until a
# pass stops nothing new. Only shell builtins run inside the loop, so it never stops a child of its own.
_STOP_ALL = r"""
stopped=""
for round in 1 2 3 4 5 6 7 8; do
  new=0
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    if [ "$pid" = 1 ] || [ "$pid" = $$ ] || [ "$pid" = $PPID ]; then continue; fi
    read -r _ _ state _ < "$p/stat" 2>/dev/null || continue
    [ "$state" = T ] && continue
    kill -STOP "$pid" 2>/dev/null && { stopped="$stopped $pid"; new=1; }
  done
  [ "$new" = 0 ] && break
done
echo $stopped
"""


async def stop_all_processes(env: DockerEnvironment) -> list[str]:
    result = await env.exec(_STOP_ALL, user="root", timeout_sec=60)
    return result.stdout.split()


async def continue_processes(env: DockerEnvironment, pids: list[str]) -> None:
    if pids:
        await env.exec(f"kill -CONT {' '.join(pids)} 2>/dev/null; true", user="root", timeout_sec=60)


async def run_shared_verifier(
    task: Task, agent_env: DockerEnvironment, phase_dir: Path, *, phase: str
) -> VerifierOutcome:
    phase_dir.mkdir(parents=True, exist_ok=True)
    root = f"/tmp/.lhtb-{secrets.token_hex(12)}"
    stopped: list[str] = []

    async def run_tests() -> ExecResult:
        nonlocal stopped
        stopped = await stop_all_processes(agent_env)
        write_text_atomic(phase_dir / "stopped-pids.txt", " ".join(stopped) + "\n")
        # The verifier's temp files (the SDK's hidden cases) go to {root}-tmp, deleted with the rest; /logs is
        # removed afterwards if grading created it.
        await agent_env.exec(
            f"mkdir -m 700 -p {root}/sdk && mkdir -m 1777 {root}-tmp && {{ [ -e /logs ] || touch {root}/made-logs; }}"
            f" && rm -rf {OUTPUT_DIR} && mkdir -p {OUTPUT_DIR}",
            user="root",
        )
        await agent_env.upload_tar(tar_directory(task.tests_dir, "tests"), root, make_dest=False)
        await agent_env.upload_tar(tar_directory(sdk_host_dir(), "lhtb"), f"{root}/sdk", make_dest=False)
        # A /tests the agent made (e.g. a fake grade.py that test.sh would run) is moved aside while grading.
        moved = await agent_env.exec(
            f"{{ [ -e /tests ] || [ -L /tests ]; }} && mv /tests {root}/agent-tests; ln -s {root}/tests /tests && "
            f'[ "$(readlink /tests)" = {root}/tests ]',
            user="root",
            timeout_sec=60,
        )
        if moved.exit_code != 0:
            raise LhtbError(f"shared mode: could not link /tests to the copied tests: {moved.stderr.strip()[:300]}")
        env = {**task.config.verifier.env, **TRUSTED_PYTHON_ENV, "PYTHONPATH": f"{root}/sdk"}
        env["LHTB_VERIFIER_OUTPUT_DIR"] = OUTPUT_DIR
        env["TMPDIR"] = f"{root}-tmp"
        result = await agent_env.exec(
            f"bash {shlex.quote(root)}/tests/test.sh",
            user=task.config.verifier.user or "root",
            env=env,
            timeout_sec=task.config.verifier.timeout_sec,
        )
        await collect_output(agent_env, OUTPUT_DIR, phase_dir)
        return result

    try:
        return await grade_outcome(task, phase, phase_dir, run_tests)
    finally:
        aside = f"{root}/agent-tests"
        restore = f"{{ [ -e {aside} ] || [ -L {aside} ]; }} && mv {aside} /tests"
        cleanup = f'[ "$(readlink /tests)" = {root}/tests ] && rm -f /tests; {restore}; '
        cleanup += f"rm -rf {OUTPUT_DIR} {root}-tmp; [ -e {root}/made-logs ] && rm -rf /logs; rm -rf {root}; true"
        await agent_env.exec(cleanup, user="root", timeout_sec=60)
        await continue_processes(agent_env, stopped)
