"""Shared-mode verification (Harbor compatibility): grade live state inside the agent's own container.

Every process of the agent container is stopped (``kill -STOP -1`` until a full pass finds none running), the tests
are copied in under a fresh random path (``/tests`` is a symlink to it only while grading), the verifier runs,
its output is downloaded, everything copied in is deleted, and the caller continues the agent's processes. The
verifier's toolchain is the agent container's own: shared mode cannot defend against trojaned interpreters and
is for Harbor tasks that must grade live state; lhtb's own tasks use separate mode.
"""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path

from lhtb.environments.base import Environment, ExecResult
from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import LhtbError, VerifierError
from lhtb.fs import write_text_atomic
from lhtb.results.models import VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.verifier.separate import (
    OUTPUT_DIR,
    TRUSTED_PYTHON_ENV,
    collect_output,
    grade_outcome,
    sdk_host_dir,
    seed_env,
)

# Stops every process of the container but PID 1 (docker-init) and this exec (this shell and its parent, the
# exec's `timeout`). `kill -STOP -1` signals every other process in one kernel pass that fork cannot race (a
# fork with a signal pending fails and is retried after the stop), so a fork loop or a PID-cycling poller cannot
# slip through; the `timeout` parent is continued at once. The pass repeats until a full walk of /proc finds no
# process that is still running: no fixed round limit, only the exec's own timeout. Only builtins run in the
# loop, so it never starts a child of its own. The state is read after the last ") " of /proc/PID/stat, so a
# process name holding ") T (" cannot pass for a stopped one. Processes the agent had stopped itself stay so.
_STOP_ALL = r"""
before=""
for p in /proc/[0-9]*; do
  read -r line < "$p/stat" 2>/dev/null || continue
  rest=${line##*) }
  case ${rest%% *} in T|t) before="$before ${p#/proc/} " ;; esac
done
passes=0
while :; do
  passes=$((passes + 1))
  kill -STOP -1 2>/dev/null
  kill -CONT $PPID 2>/dev/null
  running=""
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    if [ "$pid" = 1 ] || [ "$pid" = $$ ] || [ "$pid" = $PPID ]; then continue; fi
    read -r line < "$p/stat" 2>/dev/null || continue
    rest=${line##*) }
    case ${rest%% *} in T|t|Z|X) ;; *) running="$running $pid" ;; esac
  done
  [ -z "$running" ] && break
done
stopped=""
for p in /proc/[0-9]*; do
  pid=${p#/proc/}
  if [ "$pid" = 1 ] || [ "$pid" = $$ ] || [ "$pid" = $PPID ]; then continue; fi
  case "$before" in *" $pid "*) continue ;; esac
  stopped="$stopped $pid"
done
echo "passes=$passes"
echo $stopped
"""
STOP_TIMEOUT_SEC = 60.0


class AgentProcessesUnstoppable(VerifierError):
    """The agent's processes could not all be stopped within the stop timeout: graded as not passed (what runs
    in the agent's container is the agent's), never an infrastructure error."""


async def stop_all_processes(env: Environment) -> list[str]:
    """Stop every agent process; returns their PIDs (the first line of the script's output is the pass count)."""
    result = await env.exec(_STOP_ALL, user="root", timeout_sec=STOP_TIMEOUT_SEC)
    if result.timed_out or result.exit_code != 0:
        raise AgentProcessesUnstoppable(
            f"shared mode: the agent's processes could not all be stopped within {STOP_TIMEOUT_SEC:.0f} s"
        )
    lines = result.stdout.splitlines()
    return lines[1].split() if len(lines) > 1 else []


async def continue_processes(env: Environment, pids: list[str]) -> None:
    if pids:
        await env.exec(f"kill -CONT {' '.join(pids)} 2>/dev/null; true", user="root", timeout_sec=60)


async def run_shared_verifier(
    task: Task, agent_env: Environment, phase_dir: Path, *, phase: str, seed: int | None = None
) -> tuple[VerifierOutcome, list[str]]:
    """Grade live state; returns the outcome and the PIDs it stopped, which stay stopped until the caller
    continues them (after the fixed feedback pause: the agent must not see how long grading took)."""
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
        await agent_env.upload_tar(tar_directory(task.tests_dirs, "tests"), root, make_dest=False)
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
        env.update(seed_env(seed))
        result = await agent_env.exec(
            f"bash {shlex.quote(root)}/tests/test.sh",
            user=task.config.verifier.user or "root",
            env=env,
            timeout_sec=task.config.verifier.timeout_sec,
        )
        await collect_output(agent_env, OUTPUT_DIR, phase_dir)
        return result

    try:
        outcome = await grade_outcome(task, phase, phase_dir, run_tests)
    except BaseException:
        await _clean_up(agent_env, root)
        await continue_processes(agent_env, stopped)
        raise
    await _clean_up(agent_env, root)
    return outcome, stopped


async def _clean_up(agent_env: Environment, root: str) -> None:
    """Delete everything grading copied in and restore the agent's own /tests."""
    aside = f"{root}/agent-tests"
    restore = f"{{ [ -e {aside} ] || [ -L {aside} ]; }} && mv {aside} /tests"
    cleanup = f'[ "$(readlink /tests)" = {root}/tests ] && rm -f /tests; {restore}; '
    cleanup += f"rm -rf {OUTPUT_DIR} {root}-tmp; [ -e {root}/made-logs ] && rm -rf /logs; rm -rf {root}; true"
    await agent_env.exec(cleanup, user="root", timeout_sec=60)
