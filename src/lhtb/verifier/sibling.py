"""Shared mode for live services: grade from a sibling container that shares the agent's network namespace.

A shared-mode verifier that checks a service the agent started (``curl localhost:8080``) needs that service
running while it grades, and lhtb's in-container shared mode stops every agent process first (so no agent
process can read the tests or race the grader). Both hold here: when an agent process is listening on a TCP
port, the verifier runs in a **sibling**: a container made from a snapshot of the agent's file system
(``docker commit``, taken frozen), joined to the agent container's network namespace, so ``localhost`` and the
task's sidecars reach the agent's services; with its own mount and PID namespaces, so no agent process can see
the tests, the verifier's files or its processes. Only the listening processes (and their descendants: a
service's workers) keep running while it grades; every other agent process is stopped, as in-container, and
continued (or held for good after the final verification) by the caller.

What a sibling does not see: the agent's processes (``ps``, ``/proc``) and what lives outside the container's
file system layers (tmpfs contents such as ``/dev/shm``, unix sockets of running processes). A task that needs
those and no TCP service gets the in-container mode, chosen by the same rule (no listener, no sibling).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from lhtb.environments.base import Environment, EnvironmentProvider, ExecResult
from lhtb.errors import ArtifactsRefusedError
from lhtb.fs import write_text_atomic
from lhtb.llm.bridge import FORWARDER_NAME
from lhtb.results.models import ErrorInfo, VerifierOutcome
from lhtb.tasks.loader import Task
from lhtb.verifier.separate import (
    OUTPUT_DIR,
    TESTS_MOUNT,
    collect_output,
    grade_outcome,
    install_tests,
    seed_env,
    verifier_spec,
)
from lhtb.verifier.shared import continue_processes, stop_all_processes

# Lines "L pid cmdline" for every process holding a listening TCP socket (IPv4 or IPv6) and "P pid ppid" for
# every process. Socket inodes come from /proc/net/tcp{,6} (state 0A: LISTEN) of the container's own network
# namespace; the holders from one `ls -l` of every /proc/PID/fd (one child, not one per descriptor).
_LISTENERS = r"""
inodes=" "
for f in /proc/net/tcp /proc/net/tcp6; do
  [ -r "$f" ] || continue
  { read -r _; while read -r _ _ _ st _ _ _ _ _ inode _; do [ "$st" = 0A ] && inodes="$inodes$inode "; done; } < "$f"
done
for p in /proc/[0-9]*; do
  read -r line < "$p/stat" 2>/dev/null || continue
  rest=${line##*) }
  set -- $rest
  echo "P ${p#/proc/} $2"
done
[ "$inodes" = " " ] && exit 0
ls -l /proc/[0-9]*/fd 2>/dev/null | while read -r line; do
  case "$line" in
    /proc/*/fd:) pid=${line#/proc/}; pid=${pid%/fd:} ;;
    *"socket:["*) ino=${line##*socket:[}; ino=${ino%]}
      case "$inodes" in *" $ino "*) cmd=$(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null); echo "L $pid $cmd" ;; esac ;;
  esac
done
"""
LISTENERS_TIMEOUT_SEC = 60.0
LIVE_PIDS = "live-service-pids.txt"  # in the phase directory of a sibling-graded verification


async def live_service_pids(agent_env: Environment) -> list[str]:
    """The agent's processes serving TCP (and their descendants), sorted; [] when none listens.

    lhtb's own model forwarder (``lhtb.llm.bridge``) is not the agent's service and is left out."""
    result = await agent_env.exec(_LISTENERS, user="root", timeout_sec=LISTENERS_TIMEOUT_SEC)
    children: dict[str, list[str]] = {}
    listeners: set[str] = set()
    for line in result.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        pid, _, detail = rest.partition(" ")
        if not pid.isdigit():
            continue
        if kind == "P":
            children.setdefault(detail.strip(), []).append(pid)
        elif kind == "L" and pid != "1" and FORWARDER_NAME not in detail:
            listeners.add(pid)
    kept, pending = set(), list(listeners)
    while pending:
        pid = pending.pop()
        if pid not in kept:
            kept.add(pid)
            pending.extend(children.get(pid, []))
    return sorted(kept, key=int)


async def run_sibling_verifier(
    task: Task,
    agent_env: Environment,
    provider: EnvironmentProvider,
    phase_dir: Path,
    *,
    job: str,
    trial: str,
    live: list[str],
    phase: str,
    seed: int | None,
    freeze: Callable[[Environment], Awaitable[None]],
) -> tuple[VerifierOutcome, list[str]]:
    """Grade with the ``live`` PIDs serving and every other agent process stopped; returns the outcome and the
    PIDs stopped, which stay stopped until the caller continues them."""
    phase_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomic(phase_dir / LIVE_PIDS, " ".join(live) + "\n")  # what served, and so how it was graded
    stopped = [pid for pid in await stop_all_processes(agent_env) if pid not in live]
    write_text_atomic(phase_dir / "stopped-pids.txt", " ".join(stopped) + "\n")
    try:
        await continue_processes(agent_env, live)  # the services answer while graded
        await freeze(agent_env)  # a consistent file system, the services too
        try:
            image = await agent_env.commit()
        except ArtifactsRefusedError as exc:
            error = ErrorInfo(error_class=exc.error_class, message=f"artifacts refused, graded 0: {exc}")
            return VerifierOutcome(phase=phase, error=error), stopped
        finally:
            await agent_env.unpause()
        spec = replace(
            verifier_spec(task, image, job=job, trial=trial),
            network=agent_env.network_namespace,
            sidecars=None,  # the agent's own, reached through its network namespace
            owns_image=True,
        )
        sibling = provider.create(spec)
        try:
            await sibling.start()
            # The agent's file system may hold its own /tests or verifier output: grading sees only lhtb's.
            await sibling.exec(
                f"rm -rf {TESTS_MOUNT} {OUTPUT_DIR}; mkdir -p {OUTPUT_DIR}", user="root", timeout_sec=120
            )
            await install_tests(sibling, task)

            async def run_tests() -> ExecResult:
                result = await sibling.exec(
                    f"bash {TESTS_MOUNT}/test.sh",
                    user=task.config.verifier.user or "root",
                    env=seed_env(seed),
                    timeout_sec=task.config.verifier.timeout_sec,
                )
                await collect_output(sibling, OUTPUT_DIR, phase_dir)
                return result

            outcome = await grade_outcome(task, phase, phase_dir, run_tests)
        finally:
            await sibling.stop()
    except BaseException:
        await continue_processes(agent_env, stopped)
        raise
    return outcome, stopped
