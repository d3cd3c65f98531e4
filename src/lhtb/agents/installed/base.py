"""Installed agents: a CLI agent installed into the task container at setup and run with the instruction.

A recipe says how to install (skipped when the CLI is already in the image), how to run with the
instruction, which environment it needs (keys, model, base URL) and how to read its token usage from output.
"""

from __future__ import annotations

import asyncio
import io
import os
import shlex
import tarfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.agents.base import AgentContext, ContainerNeeds
from lhtb.agents.installed.npm import NpmAgent, ensure_npm_agent
from lhtb.agents.installed.runtime import CONTAINER_RUNTIME_DIR, ensure_runtime
from lhtb.environments.base import download_small_tar
from lhtb.errors import AgentSetupError, LhtbError
from lhtb.fs import write_text_atomic
from lhtb.results.models import AgentOutcome, AgentSpec, Usage

AGENT_DIR = "/tmp/lhtb-agent"  # instruction file and the CLI's own logs, inside the container
INSTRUCTION_FILE = f"{AGENT_DIR}/instruction.md"
INSTALL_TIMEOUT_SEC = 900.0


@dataclass(frozen=True)
class Recipe:
    name: str
    binary: str  # install is skipped when this command already exists in the image
    install: str  # bash, run as the container's default user (root in our images)
    # bash template: {binary}, {instruction} (a shell-quoted $(cat FILE)), {model} (shell-quoted), {agent_dir}
    run: str
    model_env: Callable[[str | None, str | None], dict[str, str]]  # (model, api_base) -> env for the CLI
    passthrough_env: tuple[str, ...] = ()  # host variables copied into the run (API keys)
    parse_usage: Callable[[str], Usage] = lambda _stdout: Usage()
    notes: str = ""
    default_model: str | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    # Python agents: wheels installed on the host and mounted read-only (runtime.py); install is then skipped.
    python_packages: tuple[str, ...] = ()
    # npm CLIs: installed on the host into a pinned, checked cache and mounted read-only (npm.py).
    npm: NpmAgent | None = None
    trajectory: str | None = None  # a file the CLI writes under {agent_dir}: copied to the trial's agent/ logs
    parse_trajectory: Callable[[str], Usage] | None = None  # usage from that file, when stdout has none


def reported_usage(recipe: Recipe, stdout: str, trajectory: str | None) -> Usage:
    """The usage a CLI reported (its trajectory file wins over stdout), validated and labelled self-reported.

    Never raises: forged figures are refused by :class:`Usage` with a note (see docs/integrity.md).
    """
    usage = recipe.parse_usage(stdout)
    if trajectory is not None and recipe.parse_trajectory is not None:
        usage = recipe.parse_trajectory(trajectory)
    return usage.labelled("self-reported")


def _single_file_tar(name: str, text: str) -> bytes:
    data = text.encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo(name)
        info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class InstalledAgent:
    """Runs one recipe. Not resumable: continue-until-timeout restarts it with the instruction + message."""

    def __init__(self, recipe: Recipe, spec: AgentSpec) -> None:
        self.recipe = recipe
        self.name = recipe.name
        self.model = spec.model or recipe.default_model
        self.api_base = spec.kwargs.get("api_base")
        self.extra_args = spec.kwargs.get("extra_args", "")  # appended to the CLI's command line as given
        self.usage_so_far = Usage()
        self._runtime: Path | None = None

    async def prepare_host(self, task: object) -> ContainerNeeds:
        """Before the container starts: the host-installed runtime to mount, and the model to route to."""
        mounts: dict[str, tuple[str, str]] = {}
        if self.recipe.python_packages:
            self._runtime = await asyncio.to_thread(ensure_runtime, self.name, self.recipe.python_packages)
            mounts[str(self._runtime)] = (CONTAINER_RUNTIME_DIR, "ro")
        elif self.recipe.npm is not None:
            self._runtime = await asyncio.to_thread(ensure_npm_agent, self.recipe.npm)
            mounts[str(self._runtime)] = (self.recipe.npm.container_dir, "ro")
        return ContainerNeeds(mounts=mounts, model_api_base=self.api_base)

    async def setup(self, context: AgentContext) -> None:
        if self._runtime is not None:  # mounted read-only by the harness: nothing to install
            await context.environment.exec(f"mkdir -p {AGENT_DIR}", timeout_sec=30)
            return
        if self.recipe.npm is not None:
            raise AgentSetupError(f"{self.name}: its pinned binary was not prepared on the host (prepare_host)")
        binary = shlex.quote(self.recipe.binary)
        script = f"mkdir -p {AGENT_DIR}\ncommand -v {binary} >/dev/null 2>&1 && exit 0\n{self.recipe.install}"
        result = await context.environment.exec(script, timeout_sec=INSTALL_TIMEOUT_SEC)
        write_text_atomic(context.logs_dir / "install.log", result.stdout + result.stderr)
        if result.exit_code != 0:
            raise AgentSetupError(
                f"{self.name}: install failed (exit {result.exit_code}); the container may have no network "
                f"(task network_mode/allow_internet) - preinstall {self.recipe.binary} in the image. "
                f"Last output: {(result.stdout + result.stderr).strip()[-400:]}"
            )

    def run_env(self) -> dict[str, str]:
        env = dict(self.recipe.extra_env)
        env |= {key: os.environ[key] for key in self.recipe.passthrough_env if key in os.environ}
        env |= self.recipe.model_env(self.model, self.api_base)
        return env

    def command(self) -> str:
        npm = self.recipe.npm
        command = self.recipe.run.format(
            binary=shlex.quote(npm.container_binary if npm is not None else self.recipe.binary),
            instruction=f'"$(cat {INSTRUCTION_FILE})"',
            model=shlex.quote(self.model or ""),
            agent_dir=AGENT_DIR,
        )
        return f"{command} {self.extra_args}".strip()

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        await context.environment.upload_tar(_single_file_tar("instruction.md", instruction), AGENT_DIR)
        result = await context.environment.exec(self.command(), env=self.run_env(), timeout_sec=context.timeout_sec)
        write_text_atomic(context.logs_dir / "stdout.txt", result.stdout)
        write_text_atomic(context.logs_dir / "stderr.txt", result.stderr)
        self.usage_so_far = self.recipe.parse_usage(result.stdout).labelled("self-reported")
        trajectory = await self._fetch_trajectory(context)
        self.usage_so_far = reported_usage(self.recipe, result.stdout, trajectory)
        usage = self.usage_so_far
        if result.timed_out:
            return AgentOutcome(stop_reason="timeout", usage=usage, message=f"{self.name} hit the agent timeout")
        if result.exit_code != 0:
            message = f"{self.name} exited {result.exit_code}: {result.stderr.strip()[-300:]}"
            return AgentOutcome(stop_reason="error", exit_code=result.exit_code, usage=usage, message=message)
        return AgentOutcome(stop_reason="completed", exit_code=0, usage=usage)

    async def _fetch_trajectory(self, context: AgentContext) -> str | None:
        """The CLI's own trajectory file, copied to the trial's logs (read as text, never extracted)."""
        if self.recipe.trajectory is None:
            return None
        path = f"{AGENT_DIR}/{self.recipe.trajectory}"
        try:
            data = await download_small_tar(context.environment, path)
        except LhtbError:  # the CLI may have died before writing it
            return None
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            member = next((m for m in archive.getmembers() if m.isfile()), None)
            handle = archive.extractfile(member) if member is not None else None
            text = handle.read().decode("utf-8", errors="replace") if handle is not None else None
        if text is not None:
            write_text_atomic(context.logs_dir / self.recipe.trajectory, text)
        return text
