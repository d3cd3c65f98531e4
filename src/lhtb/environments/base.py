"""The seam between the harness and a sandbox: everything the trial, grader, verifier and agents call.

No module outside ``environments/`` names an implementation: a trial receives an :class:`EnvironmentProvider`
(the job passes it) and asks it for images and environments. Docker (``docker_env.py``) is the real one;
``fake.py`` runs commands as local processes for fast unit tests of the lifecycle.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lhtb.environments.tarsafe import MAX_ARTIFACT_BYTES, MAX_IN_MEMORY_TAR_BYTES, SanitizedArchive
from lhtb.errors import LhtbError

if TYPE_CHECKING:
    from lhtb.tasks.config import EnvironmentSection
    from lhtb.tasks.loader import Task


@dataclass(frozen=True)
class ExecResult:
    exit_code: int | None  # None when the command was killed by our timeout
    stdout: str
    stderr: str
    timed_out: bool  # the harness's own clock saw the deadline pass; never inferred from an exit code
    duration_sec: float
    stdout_bytes: int = 0  # bytes the command wrote, kept or not (``stdout`` holds a head and a tail of them)
    stderr_bytes: int = 0
    output_truncated: bool = False  # a stream outgrew the capture cap; a marker line says how much was dropped


def command_timed_out(*, host_killed: bool, elapsed: float, timeout_sec: float | None, exit_code: int | None) -> bool:
    """Whether a command ran out of time, by the harness's clock: the host killed it, or the deadline passed and
    the in-container ``timeout`` fired (124 TERM, 137 KILL after the grace; before the deadline those codes are
    the command's own). The clock starts before the in-container one, so a fired ``timeout`` implies elapsed."""
    deadline_passed = timeout_sec is not None and elapsed >= timeout_sec
    return host_killed or (deadline_passed and exit_code in (124, 137, None))


class FreezeError(LhtbError):
    """The sandbox could not be frozen this time (the cgroup freezer gives up while processes churn); callers
    retry. Its class stays a harness error: an environment that never freezes is the infrastructure's fault."""


@dataclass(frozen=True)
class Sidecars:
    """Compose services started beside the sandbox, on a network of its own (lhtb.environments.compose_env)."""

    compose_file: str  # the task's environment/docker-compose.yaml; its directory is the Compose project's
    services: tuple[str, ...]
    internal: bool  # a network with no route out: the sandbox reaches its sidecars and nothing else
    timeout_sec: float  # to build, start and (where a healthcheck says how) see them healthy


@dataclass
class ContainerSpec:
    """What a sandbox of a trial is: image, identity, limits, environment, mounts and user."""

    image: str
    name: str
    job: str
    trial: str
    role: str  # "agent" or "verifier"
    workdir: str = "/app"
    network: str = "none"
    cpus: float = 1.0
    memory_mb: int = 2048
    pids_limit: int = 4096
    env: dict[str, str] = field(default_factory=dict)
    # host path -> (container path, mode "ro"/"rw")
    mounts: dict[str, tuple[str, str]] = field(default_factory=dict)
    # The container's user, and so the default of every exec (the agent's: task.toml [agent] user); None: the
    # image's USER.
    user: str | None = None
    # The task's Compose sidecars, each sandbox getting its own set; the container then joins the sandbox's own
    # network (internal or not) instead of ``network``.
    sidecars: Sidecars | None = None
    # ``image`` was made for this container alone (a snapshot of another: Environment.commit): removed with it.
    owns_image: bool = False

    @classmethod
    def for_task(
        cls,
        section: EnvironmentSection,
        image: str,
        *,
        job: str,
        trial: str,
        role: str,
        network: str,
        env: dict[str, str],
        mounts: dict[str, tuple[str, str]] | None = None,
        user: str | None = None,
        sidecars: Sidecars | None = None,
    ) -> ContainerSpec:
        """A container of a trial, sized by the task's ``[environment]`` (agent and verifier alike)."""
        return cls(
            image=image,
            name=unique_name(trial.replace("~", "-"), role),  # a digested trial name holds "~" (jobs/layout.py)
            job=job,
            trial=trial,
            role=role,
            workdir=section.workdir,
            network=network,
            cpus=section.cpus,
            memory_mb=section.memory_mb,
            pids_limit=section.pids_limit,
            env=env,
            mounts=mounts or {},
            user=user,
            sidecars=sidecars,
        )


def sidecars_for(task: Task, *, internal: bool) -> Sidecars | None:
    """The task's Compose sidecars for one sandbox (None without any); ``internal``: no route out."""
    if task.compose is None:
        return None
    return Sidecars(
        compose_file=str(task.compose.path),
        services=task.compose.sidecars,
        internal=internal,
        timeout_sec=task.config.environment.build_timeout_sec,
    )


def unique_name(*parts: str) -> str:
    cleaned = "-".join(p.replace("/", "-").replace(":", "-") for p in parts if p)
    return f"lhtb-{cleaned[:80]}-{uuid.uuid4().hex[:6]}"


class Environment(Protocol):
    """A running sandbox built from a task image. ``stop()`` is idempotent and safe in ``finally`` blocks."""

    @property
    def spec(self) -> ContainerSpec: ...

    async def start(self) -> None: ...

    async def exec(
        self,
        command: str,
        *,
        user: str | None = None,
        env: dict[str, str] | None = None,
        workdir: str | None = None,
        timeout_sec: float | None = None,
    ) -> ExecResult: ...

    async def upload_dir(self, source: Path, dest: str) -> None: ...

    async def upload_tar(self, tar_bytes: bytes | SanitizedArchive, dest: str, *, make_dest: bool = True) -> None:
        """Extract a tar under ``dest``; a refused archive raises ``ArchiveRefusedError``."""
        ...

    async def download_sanitized(self, path: str, *, max_bytes: int = MAX_ARTIFACT_BYTES) -> SanitizedArchive | None:
        """The safe members of ``path`` (None when absent); over ``max_bytes`` raises ``UnsafeArchiveError``."""
        ...

    async def pause(self) -> None:
        """Freeze every process (execs started meanwhile wait); may raise :class:`FreezeError`."""
        ...

    async def unpause(self) -> None: ...

    async def service(self, name: str) -> Environment | None:
        """The sandbox's Compose service ``name``: ``main`` is this container, a sidecar its running container
        (execs and downloads only; it is removed with the sandbox), None when that sidecar is not running."""
        ...

    async def commit(self) -> str:
        """A snapshot of this container's file system as an image, for one sibling container, which removes it
        (``ContainerSpec.owns_image``; lhtb env gc removes a leaked one). Call it with the container frozen.
        Raises ``ArtifactsRefusedError`` when what the agent wrote cannot be snapshotted (too much, or refused)."""
        ...

    @property
    def network_namespace(self) -> str:
        """The ``network`` a sibling container gives to share this one's network namespace (its loopback and
        its services): Docker's ``container:<id>``."""
        ...

    async def cpu_usage_ns(self) -> int | None:
        """CPU time the sandbox's processes have used so far; None when it cannot be measured."""
        ...

    async def stop(self) -> None: ...


async def download_small_tar(env: Environment, path: str) -> bytes:
    """A sanitized tar of ``path`` held in memory (agent logs: small); absent is an error."""
    sanitized = await env.download_sanitized(path, max_bytes=MAX_IN_MEMORY_TAR_BYTES)
    if sanitized is None:
        raise LhtbError(f"{env.spec.name}:{path} does not exist")
    try:
        return sanitized.data
    finally:
        sanitized.close()


class EnvironmentProvider(Protocol):
    """Where trials run: a task's image, its sandboxes, and the leftovers of owners that died."""

    async def prepare_image(self, task: Task) -> tuple[str, bool]:
        """The image reference for ``task`` and whether it was built now (False: reused)."""
        ...

    async def prepare_verifier_image(self, task: Task) -> tuple[str, bool]:
        """The image of a bundled verifier: built like the task's from ``task.verifier_image_dir``, or the
        prebuilt ``task.verifier_docker_image`` (present, or pulled; else ``BaseImageMissingError``)."""
        ...

    async def image_workdir(self, image: str) -> str:
        """The image's working directory (Dockerfile WORKDIR; "/" when it sets none): a silent task's workdir."""
        ...

    def create(self, spec: ContainerSpec) -> Environment: ...

    def collect_garbage(self, *, job: str | None = None) -> int:
        """Remove sandboxes (of ``job``) whose owner process is gone; how many. Blocking: call in a thread."""
        ...

    def remove_owned(self, *, job: str | None = None, owner_pid: int | None = None) -> int:
        """Remove every sandbox of ``job`` / owned by ``owner_pid`` still alive (the safety net after a job)."""
        ...
