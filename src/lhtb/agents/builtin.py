"""The reference agents: ``oracle`` runs the gold solution, ``baseline`` the weak baseline, ``nop`` nothing."""

from __future__ import annotations

import asyncio

from lhtb.agents.base import AgentContext
from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import AgentSetupError
from lhtb.fs import write_text_atomic
from lhtb.results.models import AgentOutcome

SOLUTION_MOUNT = "/solution"


class ScriptAgent:
    """Copies a task directory (``solution/`` or ``baseline/``) into its own container only, then runs its
    ``solve.sh`` in the workdir. No other agent's container ever receives these directories."""

    def __init__(self, name: str, directory: str) -> None:
        self.name = name
        self.directory = directory

    async def setup(self, context: AgentContext) -> None:
        solution = context.task.path / self.directory
        if not (solution / "solve.sh").is_file():
            raise AgentSetupError(f"{solution / 'solve.sh'}: the {self.name} agent needs this script")
        # One put_archive into "/" (the tar's top entry is "solution"): no mkdir exec needed.
        archive = await asyncio.to_thread(tar_directory, solution, SOLUTION_MOUNT.lstrip("/"))
        await context.environment.upload_tar(archive, "/", make_dest=False)

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        env = dict(context.task.config.solution.env)  # Harbor's [solution] env applies to both scripts
        result = await context.environment.exec(
            f"bash {SOLUTION_MOUNT}/solve.sh", env=env, timeout_sec=context.timeout_sec
        )
        write_text_atomic(context.logs_dir / "stdout.txt", result.stdout)
        write_text_atomic(context.logs_dir / "stderr.txt", result.stderr)
        if result.timed_out:
            return AgentOutcome(stop_reason="timeout", message="solve.sh did not finish before the agent timeout")
        if result.exit_code != 0:
            return AgentOutcome(
                stop_reason="error", exit_code=result.exit_code, message=f"solve.sh exited {result.exit_code}"
            )
        return AgentOutcome(stop_reason="completed", exit_code=0)


def OracleAgent() -> ScriptAgent:
    return ScriptAgent("oracle", "solution")


def BaselineAgent() -> ScriptAgent:
    return ScriptAgent("baseline", "baseline")


class NopAgent:
    """Does nothing: the floor every task's reward must sit at (tasks check: nop <= 0.05)."""

    name = "nop"

    async def setup(self, context: AgentContext) -> None:
        return None

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        return AgentOutcome(stop_reason="completed", exit_code=0)
