"""The Agent protocol: an agent acts on a task only through the Environment it is given."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from lhtb.environments.base import Environment
from lhtb.results.models import AgentOutcome
from lhtb.tasks.loader import Task


@dataclass(frozen=True)
class AgentContext:
    """What an agent may know about its run: the task's public parts, its budget and where to write logs."""

    task: Task
    environment: Environment
    logs_dir: Path  # host directory for the agent's logs (trajectory, cast, stdout)
    timeout_sec: float
    # Call on every step (a model reply, keystrokes sent): the harness tells a stall from work by it.
    report_activity: Callable[[], None] = field(default=lambda: None)
    # Wrap every model call in it: a call in flight is work until it returns or fails, however slow the model.
    model_call: Callable[[], AbstractContextManager[None]] = field(default=contextlib.nullcontext)


@dataclass(frozen=True)
class ContainerNeeds:
    """What an agent that runs inside the task container needs from the harness before the container starts.

    Optional: an agent may define ``async prepare_host(task) -> ContainerNeeds`` (installed agents do), and
    ``async close()``, which the harness calls at teardown to stop what it started on the host (a model proxy).
    """

    mounts: dict[str, tuple[str, str]] = field(default_factory=dict)  # host path -> (container path, "ro"/"rw")
    model_api_base: str | None = None  # a model URL the agent must reach from inside the container


class Agent(Protocol):
    name: str

    async def setup(self, context: AgentContext) -> None:
        """Install or upload what the agent needs; failures here are agent_setup errors (retried)."""
        ...

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        """Work on the task until done or ``context.timeout_sec``; the runner also enforces the deadline."""
        ...


@runtime_checkable
class ResumableAgent(Agent, Protocol):
    """An agent that can continue its own conversation (continue-until-timeout's same-conversation mode).

    Agents without ``resume`` are restarted instead: ``run`` again with the instruction plus the message.
    """

    async def resume(self, context: AgentContext, message: str) -> AgentOutcome:
        """Continue after ``message`` (a fixed rejection sentence) as a new user turn."""
        ...
