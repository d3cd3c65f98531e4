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
those and no TCP service gets the in-container mode, chosen by the same rule (no listener, no sibling). What it
shares: the network namespace (its own loopback listeners are the agent's to reach) and, as in-container, the
agent's toolchain (every binary of the snapshot): docs/long-horizon.md says what that leaves open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from lhtb.environments.base import Environment, EnvironmentProvider, ExecResult
from lhtb.errors import ArtifactsRefusedError, LhtbError, VerifierError
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
from lhtb.verifier.shared import AgentProcessesUnstoppable, continue_processes, stop_all_processes

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
    if result.timed_out:  # what runs in the agent's container is the agent's: graded as not passed
        raise AgentProcessesUnstoppable(
            f"shared mode: the agent's processes could not be listed within {LISTENERS_TIMEOUT_SEC:.0f} s"
        )
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
    PIDs stopped, which stay stopped until the caller continues them.

    Everything after the snapshot runs on what the agent wrote, so whatever fails there (its image cannot start,
    a user it removed, a tool it broke) is the agent's: a verifier error, graded, never an excluded trial. A
    stopped process found running after grading was resumed by the agent's own (its service may signal it): the
    verification then counts as not passed, since that process had the grading time for free."""
    phase_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomic(phase_dir / LIVE_PIDS, " ".join(live) + "\n")  # what served, and so how it was graded
    try:
        stopped = [pid for pid in await stop_all_processes(agent_env) if pid not in live]
    except AgentProcessesUnstoppable as exc:
        return VerifierOutcome(phase=phase, error=ErrorInfo(error_class=exc.error_class, message=str(exc))), []
    write_text_atomic(phase_dir / "stopped-pids.txt", " ".join(stopped) + "\n")
    try:
        await continue_processes(agent_env, live)  # the services answer while graded
        try:
            image = await _snapshot(agent_env, freeze)
        except ArtifactsRefusedError as exc:
            error = ErrorInfo(error_class=exc.error_class, message=f"artifacts refused, graded 0: {exc}")
            return VerifierOutcome(phase=phase, error=error), stopped
        spec = replace(
            verifier_spec(task, image, job=job, trial=trial),
            network=agent_env.network_namespace,
            sidecars=None,  # the agent's own, reached through its network namespace
            owns_image=True,
        )
        sibling = provider.create(spec)
        try:

            async def run_tests() -> ExecResult:
                try:
                    await sibling.start()
                    # The agent's file system may hold its own /tests or verifier output: grading sees only lhtb's.
                    fresh = f"rm -rf {TESTS_MOUNT} {OUTPUT_DIR}; mkdir -p {OUTPUT_DIR}"
                    await sibling.exec(fresh, user="root", timeout_sec=120)
                    await install_tests(sibling, task)
                    result = await sibling.exec(
                        f"bash {TESTS_MOUNT}/test.sh",
                        user=task.config.verifier.user or "root",
                        env=seed_env(seed),
                        timeout_sec=task.config.verifier.timeout_sec,
                    )
                    await collect_output(sibling, OUTPUT_DIR, phase_dir)
                except VerifierError:
                    raise
                except (LhtbError, OSError) as exc:  # the engine's API errors are OSErrors
                    raise VerifierError(f"the snapshot of the agent's container could not be graded: {exc}") from exc
                resumed = await _resumed(agent_env, stopped)
                if resumed:
                    raise VerifierError(
                        f"agent processes stopped for grading ran during it (resumed by the agent: {' '.join(resumed)})"
                    )
                return result

            outcome = await grade_outcome(task, phase, phase_dir, run_tests)
        finally:
            await sibling.stop()
    except BaseException:
        await continue_processes(agent_env, stopped)
        raise
    return outcome, stopped


async def _snapshot(agent_env: Environment, freeze: Callable[[Environment], Awaitable[None]]) -> str:
    """Freeze, commit, thaw; the container is thawed even when cancelled midway (the environment's commit
    removes an image it finishes after a cancellation)."""
    await freeze(agent_env)  # a consistent file system, the services too
    try:
        return await agent_env.commit()
    finally:
        await asyncio.shield(agent_env.unpause())


async def _resumed(agent_env: Environment, stopped: list[str]) -> list[str]:
    """Which of ``stopped`` are running now (state not T, t, Z or X); builtins only."""
    if not stopped:
        return []
    script = (
        f"for pid in {' '.join(stopped)}; do read -r line < /proc/$pid/stat 2>/dev/null || continue; "
        "rest=${line##*) }; case ${rest%% *} in T|t|Z|X) ;; *) echo $pid ;; esac; done"
    )
    result = await agent_env.exec(script, user="root", timeout_sec=60)
    return result.stdout.split()
