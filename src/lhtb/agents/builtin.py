"""The reference agents: ``oracle`` runs the gold solution, ``baseline`` the weak baseline, ``shortcut`` one of
the task's scripted shortcuts (``tests/shortcuts/NAME.sh``, the QA shortcut gate), ``nop`` nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lhtb.agents.base import AgentContext
from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import AgentSetupError
from lhtb.fs import write_text_atomic
from lhtb.results.models import AgentOutcome

SOLUTION_MOUNT = "/solution"


class ScriptAgent:
    """Copies a task directory (``solution/`` or ``baseline/``) into its own container only, then runs its
    ``solve.sh`` in the workdir. No other agent's container ever receives these directories."""

    def __init__(self, name: str, directory: str, script: str = "solve.sh", *, with_gold: bool = False) -> None:
        self.name = name
        self.directory = directory
        self.script = script
        self.with_gold = with_gold  # also the gold solution, at /solution/gold (a shortcut may break it)
        self._uploaded: Path | None = None

    def _source(self, context: AgentContext) -> Path:
        """The directory to copy: a multi-step task's step has its own ``solution/`` (else the task's)."""
        task = context.task
        return task.solution_dir if self.directory == "solution" else task.path / self.directory

    async def setup(self, context: AgentContext) -> None:
        await self._upload(context)

    async def _upload(self, context: AgentContext) -> None:
        solution = self._source(context)
        if not (solution / self.script).is_file():
            raise AgentSetupError(f"{solution / self.script}: the {self.name} agent needs this script")
        if self._uploaded is not None:  # the next step's solution replaces the last one's
            await context.environment.exec(f"rm -rf {SOLUTION_MOUNT}", user="root", timeout_sec=60)
        # One put_archive into "/" (the tar's top entry is "solution"): no mkdir exec needed.
        archive = await asyncio.to_thread(tar_directory, solution, SOLUTION_MOUNT.lstrip("/"))
        await context.environment.upload_tar(archive, "/", make_dest=False)
        gold = context.task.solution_dir
        if self.with_gold and gold.is_dir():
            archive = await asyncio.to_thread(tar_directory, gold, "gold")
            await context.environment.upload_tar(archive, SOLUTION_MOUNT, make_dest=False)
        self._uploaded = solution

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        if self._source(context) != self._uploaded:
            await self._upload(context)
        env = dict(context.task.config.solution.env)  # Harbor's [solution] env applies to both scripts
        result = await context.environment.exec(
            f"bash {SOLUTION_MOUNT}/{self.script}", env=env, timeout_sec=context.timeout_sec
        )
        write_text_atomic(context.logs_dir / "stdout.txt", result.stdout)
        write_text_atomic(context.logs_dir / "stderr.txt", result.stderr)
        if result.timed_out:
            return AgentOutcome(stop_reason="timeout", message=f"{self.script} did not finish before the agent timeout")
        if result.exit_code != 0:
            return AgentOutcome(
                stop_reason="error", exit_code=result.exit_code, message=f"{self.script} exited {result.exit_code}"
            )
        return AgentOutcome(stop_reason="completed", exit_code=0)


def OracleAgent() -> ScriptAgent:
    return ScriptAgent("oracle", "solution")


def BaselineAgent() -> ScriptAgent:
    return ScriptAgent("baseline", "baseline")


SHORTCUTS_DIR = "tests/shortcuts"


def ShortcutAgent(script: str) -> ScriptAgent:
    """A scripted shortcut: ``tests/shortcuts/`` (hidden from every other agent) is its solution directory, and
    the gold solution is at ``/solution/gold``, so "the gold solution minus one thing" is a few lines."""
    if not script or "/" in script or script.startswith("."):
        raise AgentSetupError(f"shortcut script {script!r}: give a file name under {SHORTCUTS_DIR}/, e.g. name.sh")
    name = script if script.endswith(".sh") else script + ".sh"
    return ScriptAgent(f"shortcut:{name.removesuffix('.sh')}", SHORTCUTS_DIR, name, with_gold=True)


class NopAgent:
    """Does nothing: the floor every task's reward must sit at (tasks check: nop <= 0.05)."""

    name = "nop"

    async def setup(self, context: AgentContext) -> None:
        return None

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        return AgentOutcome(stop_reason="completed", exit_code=0)
