"""The reference agents: ``oracle`` runs the task's gold solution, ``nop`` does nothing."""

from __future__ import annotations

import asyncio

from lhtb.agents.base import AgentContext
from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import AgentSetupError
from lhtb.fs import write_text_atomic
from lhtb.results.models import AgentOutcome

SOLUTION_MOUNT = "/solution"


class OracleAgent:
    """Copies ``solution/`` into its own container only, then runs ``solve.sh`` in the workdir."""

    name = "oracle"

    async def setup(self, context: AgentContext) -> None:
        solution = context.task.solution_dir
        if not (solution / "solve.sh").is_file():
            raise AgentSetupError(f"{solution / 'solve.sh'}: the oracle needs a gold solution script")
        # One put_archive into "/" (the tar's top entry is "solution"): no mkdir exec needed.
        archive = await asyncio.to_thread(tar_directory, solution, SOLUTION_MOUNT.lstrip("/"))
        await context.environment.upload_tar(archive, "/", make_dest=False)

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        env = dict(context.task.config.solution.env)
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


class NopAgent:
    """Does nothing: the floor every task's reward must sit at (tasks check: nop <= 0.05)."""

    name = "nop"

    async def setup(self, context: AgentContext) -> None:
        return None

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        return AgentOutcome(stop_reason="completed", exit_code=0)
