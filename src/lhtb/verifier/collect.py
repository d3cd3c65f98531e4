"""Harbor's collect hooks (``[[verifier.collect]]``): commands that snapshot a service's runtime state (a
database dump, in-memory counters) into files before the artifacts are copied, so a separate verifier can read
them as artifacts.

As Harbor orders them: hooks in ``main`` run while the agent's container still runs (before it is frozen for
the snapshot), hooks in a sidecar after. A hook that fails or times out is recorded, never an error: the files it
should have written are then missing, and the verifier grades what is there (the agent may have broken the
service it dumps).
"""

from __future__ import annotations

from pathlib import Path

from lhtb.environments.base import Environment
from lhtb.fs import write_text_atomic
from lhtb.tasks.loader import Task

HOOKS_LOG = "collect-hooks.txt"  # in the verification's phase directory


async def run_collect_hooks(agent_env: Environment, task: Task, phase_dir: Path, *, in_main: bool) -> None:
    """Run the task's hooks of ``main`` (``in_main``) or of its sidecars, in order; append what each did to the
    phase directory's log."""
    hooks = [(i, hook) for i, hook in enumerate(task.config.verifier.collect) if (hook.service == "main") == in_main]
    if not hooks:
        return
    log = phase_dir / HOOKS_LOG
    lines = log.read_text(encoding="utf-8").splitlines() if log.is_file() else []
    for index, hook in hooks:
        target = await agent_env.service(hook.service)
        if target is None:
            lines.append(f"collect[{index}] ({hook.service}): not run, the service is not running")
            continue
        result = await target.exec(hook.command, user=hook.user, timeout_sec=hook.timeout_sec)  # None: its own user
        outcome = f"timed out after {hook.timeout_sec:g} s" if result.timed_out else f"exit {result.exit_code}"
        lines.append(f"collect[{index}] ({hook.service}): {outcome}; stderr: {result.stderr.strip()[-300:]!r}")
    phase_dir.mkdir(parents=True, exist_ok=True)
    write_text_atomic(log, "\n".join(lines) + "\n")
