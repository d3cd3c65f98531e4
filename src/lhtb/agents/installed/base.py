"""Installed agents: a CLI agent run inside the task container with the instruction.

A recipe says how the CLI gets into the container (mounted from the host, or installed when absent), how to run
it (and to resume its conversation, where it can), how it reaches its model, where it keeps its session log and
how to read the usage it reports. A CLI that does not speak OpenAI chat completions (Codex, Claude Code) reaches a
chat-completions ``--model-api-base`` through the translating proxy (``lhtb.llm.proxy``), which also measures
every call: the figures a trial keeps are then the proxy's, the CLI's own are kept beside them as a cross-check.
"""

from __future__ import annotations

import asyncio
import functools
import io
import os
import shlex
import tarfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from lhtb.agents.base import AgentContext, ContainerNeeds
from lhtb.agents.installed.npm import NpmAgent, ensure_npm_agent
from lhtb.agents.installed.runtime import CONTAINER_RUNTIME_DIR, ensure_runtime
from lhtb.agents.installed.usage_check import UsageLedger
from lhtb.environments.base import download_small_tar
from lhtb.errors import AgentSetupError, ConfigError, LhtbError
from lhtb.fs import write_text_atomic
from lhtb.llm.bridge import loopback_port
from lhtb.llm.proxy import ModelProxy
from lhtb.results.models import AgentOutcome, AgentSpec, Usage
from lhtb.results.trajectory import Trajectory

AGENT_DIR = "/tmp/lhtb-agent"  # instruction file and the CLI's own logs, inside the container
# The instruction and the rejection reach the CLI's command line through the exec's environment, never through a
# file: the agent's directory is the agent's, and a file the harness had to write there (on a resume or restart,
# after the agent ran) would hand the agent a way to make the harness fail instead of being graded.
INSTRUCTION_ENV = "LHTB_INSTRUCTION"
MESSAGE_ENV = "LHTB_MESSAGE"
INSTALL_TIMEOUT_SEC = 900.0
SESSION_LOGS_DIR = "sessions"  # under the trial's agent/: the CLI's session logs as it wrote them


@dataclass(frozen=True)
class ModelRoute:
    """How the CLI reaches its model, as the CLI sees it from inside the container."""

    model: str | None  # the name the CLI asks for
    api_base: str | None  # None: the CLI's own provider (keys from the host, network needed)
    api_key: str | None = None  # for ``api_base`` (the proxy's key); None: the CLI's own from the host
    max_output_tokens: int | None = None  # a cap on each reply (--ak max_output_tokens): small local models ramble


@dataclass(frozen=True)
class SessionLog:
    """Where the CLI keeps its conversation (a directory under {agent_dir}) and how to read it as ATIF."""

    directory: str
    convert: Callable[[list[str], str | None, str], Trajectory]  # (logs in order, model, CLI version)


# (stdout of one run, the conversation's total as the CLI reported it before the run)
#   -> (this run's usage, the conversation's total after it): CLIs report some figures for the whole conversation.
UsageParser = Callable[[str, Usage], tuple[Usage, Usage]]


def _no_usage(_stdout: str, before: Usage) -> tuple[Usage, Usage]:
    return Usage(), before


@dataclass(frozen=True)
class Recipe:
    name: str
    binary: str  # install is skipped when this command already exists in the image
    install: str  # bash, run as the container's default user (root in our images)
    # bash templates: {binary}, {instruction} ("$LHTB_INSTRUCTION"), {model} (shell-quoted), {agent_dir},
    # {model_args} (from model_args), {session} (a conversation id); resume also {message}
    run: str
    model_env: Callable[[ModelRoute], dict[str, str]]  # env for the CLI
    model_args: Callable[[ModelRoute], str] = lambda _route: ""
    resume: str | None = None  # continue the same conversation; None: continue-until-timeout restarts the CLI
    # The API the CLI speaks: a chat-completions --model-api-base is put behind the translating proxy for others.
    wire_api: Literal["chat", "responses", "messages"] = "chat"
    proxy_path: str = ""  # appended to the proxy's URL for the CLI's base-URL setting ("/v1": OpenAI style)
    passthrough_env: tuple[str, ...] = ()  # host variables copied into the run (API keys)
    parse_usage: UsageParser = _no_usage
    notes: str = ""
    default_model: str | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    # Python agents: wheels installed on the host and mounted read-only (runtime.py); install is then skipped.
    python_packages: tuple[str, ...] = ()
    # npm CLIs: installed on the host into a pinned, checked cache and mounted read-only (npm.py).
    npm: NpmAgent | None = None
    trajectory: str | None = None  # a file the CLI writes under {agent_dir}: copied to the trial's agent/ logs
    parse_trajectory: Callable[[str], Usage] | None = None  # usage from that file, when stdout has none
    session_log: SessionLog | None = None
    conversation_id: Callable[[str], str | None] = lambda _stdout: None  # from a run's stdout, for resume


def reported_usage(recipe: Recipe, stdout: str, trajectory: str | None) -> Usage:
    """A first run's usage as the CLI reported it, labelled self-reported (:func:`reported_run`)."""
    return reported_run(recipe, stdout, trajectory, Usage())[0]


def reported_run(recipe: Recipe, stdout: str, trajectory: str | None, before: Usage) -> tuple[Usage, Usage]:
    """A run's usage as the CLI reported it (its trajectory file wins over stdout), labelled self-reported, and
    the conversation's reported total after it. Never raises: forged figures are refused by :class:`Usage` with a
    note (docs/integrity.md)."""
    if trajectory is not None and recipe.parse_trajectory is not None:
        run = recipe.parse_trajectory(trajectory).labelled("self-reported")
        return run, before.plus(run)
    run, total = recipe.parse_usage(stdout, before)
    return run.labelled("self-reported"), total


def cli_model(model: str | None, proxied: bool) -> str | None:
    """The model name the CLI is given: behind the proxy, the backend's litellm string without its provider."""
    if model and proxied and "/" in model:
        return model.split("/", 1)[1]
    return model


class InstalledAgent:
    """Runs one recipe; ``resume`` continues the CLI's conversation where the recipe can (ResumableInstalledAgent)."""

    def __init__(self, recipe: Recipe, spec: AgentSpec) -> None:
        self.recipe = recipe
        self.name = recipe.name
        self.model = spec.model or recipe.default_model
        self.api_base = spec.kwargs.get("api_base")
        self.extra_args = spec.kwargs.get("extra_args", "")  # appended to the CLI's command line as given
        # A CLI that does not speak chat completions reaches a chat-completions --model-api-base through the proxy;
        # --ak proxy=on puts it in front of the CLI's own provider too (the key then stays on the host).
        wanted = spec.kwargs.get("proxy", "auto")
        if wanted not in ("auto", "on", "off"):
            raise ConfigError(f"{recipe.name}: --ak proxy={wanted!r}: use auto, on or off")
        self.use_proxy = recipe.wire_api != "chat" and wanted != "off" and (bool(self.api_base) or wanted == "on")
        self.max_output_tokens = _positive_int(recipe.name, "max_output_tokens", spec.kwargs.get("max_output_tokens"))
        self.proxy: ModelProxy | None = None
        self.session = str(uuid.uuid4())  # the conversation id lhtb gives a CLI that takes one (Claude Code)
        self.ledger = UsageLedger()
        self._runtime: Path | None = None
        self._logs_dir: Path | None = None

    @property
    def route(self) -> ModelRoute:
        if self.proxy is not None:
            base = self.proxy.url + self.recipe.proxy_path
            model = cli_model(self.model, True)
            return ModelRoute(model, base, self.proxy.key, self.max_output_tokens)
        return ModelRoute(model=self.model, api_base=self.api_base, max_output_tokens=self.max_output_tokens)

    @property
    def usage_so_far(self) -> Usage:
        """The usage of the run in progress (read while it runs, when a timeout cuts it off): measured by the
        proxy when there is one, else the last figure the CLI reported."""
        if self.proxy is not None:
            return self.ledger.measured_in_run(self.proxy)
        return self.ledger.last_reported

    async def prepare_host(self, task: object) -> ContainerNeeds:
        """Before the container starts: the host-installed CLI to mount, the proxy, and the model to route to."""
        mounts: dict[str, tuple[str, str]] = {}
        if self.recipe.python_packages:
            self._runtime = await asyncio.to_thread(ensure_runtime, self.name, self.recipe.python_packages)
            mounts[str(self._runtime)] = (CONTAINER_RUNTIME_DIR, "ro")
        elif self.recipe.npm is not None:
            self._runtime = await asyncio.to_thread(ensure_npm_agent, self.recipe.npm)
            mounts[str(self._runtime)] = (self.recipe.npm.container_dir, "ro")
        if self.use_proxy:
            _require_reachable(self.name, self.api_base, task)
            if self.model is None:
                raise AgentSetupError(f"{self.name}: the model proxy needs -m MODEL (a litellm model name)")
            self.proxy = ModelProxy(self.model, self.api_base, self.max_output_tokens)
            try:
                await self.proxy.start()
            except BaseException:
                await self.close()
                raise
        return ContainerNeeds(mounts=mounts, model_api_base=self.route.api_base)

    async def setup(self, context: AgentContext) -> None:
        if self._runtime is not None:  # mounted read-only by the harness: nothing to install
            await context.environment.exec(f"mkdir -p {shlex.join(self._agent_dirs())}", timeout_sec=30)
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

    def _agent_dirs(self) -> list[str]:
        """The agent's directory, and the home the CLI keeps its session logs in (it must exist beforehand)."""
        log = self.recipe.session_log
        return [AGENT_DIR] + ([f"{AGENT_DIR}/{log.directory.split('/')[0]}"] if log is not None else [])

    def run_env(self) -> dict[str, str]:
        env = dict(self.recipe.extra_env)
        if self.proxy is None:  # behind the proxy the provider's key stays on the host, in the proxy
            env |= {key: os.environ[key] for key in self.recipe.passthrough_env if key in os.environ}
        env |= self.recipe.model_env(self.route)
        return env

    def _fill(self, template: str, message: str | None = None) -> str:
        npm = self.recipe.npm
        route = self.route
        command = template.format(
            binary=shlex.quote(npm.container_binary if npm is not None else self.recipe.binary),
            instruction=f'"${INSTRUCTION_ENV}"',
            message=f'"${MESSAGE_ENV}"' if message is not None else "",
            model=shlex.quote(route.model or ""),
            model_args=self.recipe.model_args(route),
            agent_dir=AGENT_DIR,
            session=shlex.quote(self.ledger.conversation or self.session),
        )
        return f"{command} {self.extra_args}".strip()

    def command(self) -> str:
        return self._fill(self.recipe.run)

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        """A fresh conversation (the first run, or a restart with the instruction and the rejection)."""
        self.ledger.new_conversation()
        self.session = str(uuid.uuid4())
        return await self._execute(context, self.command(), "run", {INSTRUCTION_ENV: instruction})

    async def _execute(
        self, context: AgentContext, command: str, label: Literal["run", "resume"], text: dict[str, str]
    ) -> AgentOutcome:
        self._logs_dir = context.logs_dir
        self.ledger.start_run()
        env = self.run_env() | text
        result = await context.environment.exec(command, env=env, timeout_sec=context.timeout_sec)
        self.ledger.runs_done += 1
        suffix = "" if self.ledger.runs_done == 1 else f".{self.ledger.runs_done}"
        write_text_atomic(context.logs_dir / f"stdout{suffix}.txt", result.stdout)
        write_text_atomic(context.logs_dir / f"stderr{suffix}.txt", result.stderr)
        if self.ledger.conversation is None:
            self.ledger.conversation = self.recipe.conversation_id(result.stdout)
        trajectory = await self._fetch_trajectory(context)
        reported = self._reported(result.stdout, trajectory)
        usage = self.ledger.finish_run(label, reported, self.proxy, context.logs_dir)
        await self._fetch_sessions(context)
        if result.timed_out:
            return AgentOutcome(stop_reason="timeout", usage=usage, message=f"{self.name} hit the agent timeout")
        if result.exit_code != 0:
            message = f"{self.name} exited {result.exit_code}: {result.stderr.strip()[-300:]}"
            return AgentOutcome(stop_reason="error", exit_code=result.exit_code, usage=usage, message=message)
        return AgentOutcome(stop_reason="completed", exit_code=0, usage=usage)

    def _reported(self, stdout: str, trajectory: str | None) -> Usage:
        run, self.ledger.reported_total = reported_run(self.recipe, stdout, trajectory, self.ledger.reported_total)
        return run

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

    async def _fetch_sessions(self, context: AgentContext) -> None:
        """Copy the CLI's session logs to ``agent/sessions/`` and convert them to ``agent/trajectory.json``.

        What the container holds there is the agent's: whatever it is (absent, over the size limit, names no file
        system takes, lines nested too deep to write back), the run's outcome stands and the reason is written to
        ``agent/sessions-missing.txt``."""
        log = self.recipe.session_log
        if log is None:
            return
        try:
            data = await download_small_tar(context.environment, f"{AGENT_DIR}/{log.directory}")
            version = self.recipe.npm.version if self.recipe.npm is not None else ""
            convert = functools.partial(_copy_and_convert, data, log, self.route.model, version, context.logs_dir)
            await asyncio.to_thread(convert)
        except Exception as exc:
            write_text_atomic(context.logs_dir / "sessions-missing.txt", f"{type(exc).__name__}: {exc}"[:2000] + "\n")

    async def close(self) -> None:
        """After the trial: stop the proxy, keeping its log and its record of every call in the agent's logs."""
        proxy, self.proxy = self.proxy, None
        if proxy is None:
            return
        try:
            await proxy.stop()  # first: no call ends after what is copied below
            if self._logs_dir is not None:
                self.ledger.finish_trial(proxy, self._logs_dir)
                for source, name in ((proxy.log_path, "proxy.log"), (proxy.usage_file, "proxy-usage.jsonl")):
                    write_text_atomic(self._logs_dir / name, _tail(source, 1_000_000))
        finally:
            await proxy.close()


def _positive_int(agent: str, key: str, value: object) -> int | None:
    if value is None:
        return None
    try:
        number = int(str(value))
    except ValueError:
        number = 0
    if number <= 0:
        raise ConfigError(f"{agent}: --ak {key}={value!r}: expected a whole number above 0")
    return number


def _require_reachable(name: str, api_base: str | None, task: object) -> None:
    """The proxy runs on the host, but what the agent's model calls reach is the task's business: with no network,
    a backend elsewhere than this machine's loopback is refused as it is without the proxy (never contacted)."""
    environment = getattr(getattr(task, "config", None), "environment", None)
    if api_base and loopback_port(api_base) is None and getattr(environment, "effective_network", "none") == "none":
        raise AgentSetupError(
            f"{name} runs inside the task container, which has no network: its model api_base {api_base!r} must "
            "be this machine's loopback (lhtb bridges it), or the task must allow network"
        )


def _tail(path: Path, limit: int) -> str:
    """The last ``limit`` bytes of a file the proxy wrote (its access log grows with every call)."""
    if not path.is_file():
        return ""
    with path.open("rb") as handle:
        handle.seek(max(path.stat().st_size - limit, 0))
        return handle.read().decode("utf-8", errors="replace")


def _copy_and_convert(data: bytes, log: SessionLog, model: str | None, version: str, logs_dir: Path) -> None:
    """The session tar's files to ``sessions/`` (named by their order: no name from the container is used) and
    its ``*.jsonl`` logs, in name order, to ``trajectory.json``."""
    texts: list[str] = []
    index: list[str] = []
    target = logs_dir / SESSION_LOGS_DIR
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = sorted((m for m in archive.getmembers() if m.isfile()), key=lambda m: m.name)
        for number, member in enumerate(members, 1):
            handle = archive.extractfile(member)
            if handle is None:
                continue
            text = handle.read().decode("utf-8", errors="replace")
            write_text_atomic(target / f"{number:04d}.{'jsonl' if member.name.endswith('.jsonl') else 'txt'}", text)
            index.append(f"{number:04d}\t{member.name[:500]!r}")
            if member.name.endswith(".jsonl"):
                texts.append(text)
    write_text_atomic(target / "index.txt", "\n".join(index) + "\n")
    log.convert(texts, model, version).write(logs_dir / "trajectory.json")


class ResumableInstalledAgent(InstalledAgent):
    """A CLI that continues its own conversation (``codex exec resume``, ``claude --resume``): continue-until-timeout
    sends the rejection as the next user turn of the same conversation."""

    async def resume(self, context: AgentContext, message: str) -> AgentOutcome:
        assert self.recipe.resume is not None
        return await self._execute(context, self._fill(self.recipe.resume, message), "resume", {MESSAGE_ENV: message})
