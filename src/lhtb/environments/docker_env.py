"""The Environment protocol on the Docker Engine API (docker SDK calls run in worker threads)."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import socket
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lhtb.environments.base import ExecResult
from lhtb.environments.cgroup_cpu import CpuFile, cpu_file_for_pid
from lhtb.environments.docker_client import (
    LABEL_JOB,
    LABEL_MANAGED,
    LABEL_OWNER_HOST,
    LABEL_OWNER_PID,
    LABEL_ROLE,
    LABEL_TRIAL,
    get_client,
)
from lhtb.environments.tarsafe import SanitizedArchive, sanitize, tar_directory
from lhtb.errors import EnvironmentStartError, LhtbError
from lhtb.tasks.config import EnvironmentSection

# Grace between the in-container `timeout` and the host-side kill of a command that outlived it.
_HOST_KILL_GRACE_SEC = 10.0
MAX_CAPTURED_OUTPUT = 8 * 1024 * 1024


@dataclass
class ContainerSpec:
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
    ) -> ContainerSpec:
        """A container of a trial, sized by the task's ``[environment]`` (agent and verifier alike)."""
        return cls(
            image=image,
            name=unique_name(trial, role),
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
        )

    def labels(self) -> dict[str, str]:
        return {
            LABEL_MANAGED: "1",
            LABEL_JOB: self.job,
            LABEL_TRIAL: self.trial,
            LABEL_ROLE: self.role,
            LABEL_OWNER_PID: str(os.getpid()),
            LABEL_OWNER_HOST: socket.gethostname(),
        }


def _decode(raw: bytes | None) -> str:
    if not raw:
        return ""
    if len(raw) > MAX_CAPTURED_OUTPUT:
        head, tail = raw[: MAX_CAPTURED_OUTPUT // 2], raw[-MAX_CAPTURED_OUTPUT // 2 :]
        omitted = len(raw) - len(head) - len(tail)
        raw = head + f"\n[... {omitted} bytes omitted by lhtb ...]\n".encode() + tail
    return raw.decode("utf-8", errors="replace")


class DockerEnvironment:
    """One container. ``stop()`` is idempotent and safe to call from ``finally`` blocks and signal paths."""

    def __init__(self, spec: ContainerSpec) -> None:
        self.spec = spec
        self._container: Any = None
        self._cpu_file: CpuFile | Literal[False] | None = None  # None: not looked up; False: not on this host
        self._stopped = False
        # Cleared while the container is frozen: a new exec waits instead of failing on a paused container.
        self._thawed = asyncio.Event()
        self._thawed.set()

    @property
    def container_id(self) -> str | None:
        return None if self._container is None else self._container.id

    async def start(self) -> None:
        await asyncio.to_thread(self._start_blocking)

    def _start_blocking(self) -> None:
        import docker

        spec = self.spec
        volumes = {host: {"bind": dest, "mode": mode} for host, (dest, mode) in spec.mounts.items()}
        try:
            self._container = get_client().containers.run(
                spec.image,
                command=["sleep", "infinity"],
                name=spec.name,
                detach=True,
                init=True,  # docker-init as PID 1: signals forwarded, stop is instant
                labels=spec.labels(),
                network_mode=spec.network,
                nano_cpus=int(spec.cpus * 1e9),
                mem_limit=f"{spec.memory_mb}m",
                memswap_limit=f"{spec.memory_mb}m",
                pids_limit=spec.pids_limit,
                working_dir=spec.workdir,
                environment=spec.env,
                volumes=volumes,
                hostname="sandbox",
            )
        except docker.errors.DockerException as exc:
            raise EnvironmentStartError(f"container {spec.name} from {spec.image} failed to start: {exc}") from exc

    def _require(self) -> Any:
        if self._container is None:
            raise LhtbError(f"container {self.spec.name} is not running")
        return self._container

    async def exec(
        self,
        command: str,
        *,
        user: str | None = None,
        env: dict[str, str] | None = None,
        workdir: str | None = None,
        timeout_sec: float | None = None,
    ) -> ExecResult:
        """Run ``command`` with bash. A timeout kills the command's whole process group inside the container."""
        argv = ["bash", "-c", command]
        if timeout_sec is not None:
            # coreutils `timeout` leads its own process group and signals all of it on expiry.
            argv = ["timeout", "--kill-after=5", f"{max(timeout_sec, 0.001):.3f}", *argv]
        await self._thawed.wait()
        started = time.monotonic()
        exec_id = await asyncio.to_thread(self._exec_create, argv, user, env, workdir)
        task = asyncio.ensure_future(asyncio.to_thread(self._exec_run, exec_id))
        host_timeout = None if timeout_sec is None else timeout_sec + _HOST_KILL_GRACE_SEC
        try:
            exit_code, stdout, stderr = await asyncio.wait_for(asyncio.shield(task), host_timeout)
        except TimeoutError:
            await asyncio.to_thread(self._host_kill, exec_id)
            exit_code, stdout, stderr = await task
            exit_code = None
        except asyncio.CancelledError:
            await asyncio.to_thread(self._host_kill, exec_id)
            raise
        timed_out = exit_code is None or (timeout_sec is not None and exit_code in (124, 137))
        return ExecResult(
            exit_code=None if timed_out else exit_code,
            stdout=stdout,
            stderr=stderr,
            timed_out=timed_out,
            duration_sec=time.monotonic() - started,
        )

    def _exec_create(self, argv: list[str], user: str | None, env: dict[str, str] | None, workdir: str | None) -> str:
        container = self._require()
        created = get_client().api.exec_create(
            container.id,
            argv,
            stdout=True,
            stderr=True,
            user=user or "",
            environment=env or None,
            workdir=workdir or self.spec.workdir,
        )
        return str(created["Id"])

    def _exec_run(self, exec_id: str) -> tuple[int | None, str, str]:
        api = get_client().api
        stdout, stderr = api.exec_start(exec_id, demux=True)
        exit_code = api.exec_inspect(exec_id).get("ExitCode")
        return exit_code, _decode(stdout), _decode(stderr)

    def _host_kill(self, exec_id: str) -> None:
        """Last resort when the in-container timeout did not end the command: kill its process group."""
        try:
            pid = int(get_client().api.exec_inspect(exec_id).get("Pid") or 0)
        except Exception:  # the exec may already be gone; nothing left to kill
            return
        if pid <= 0:
            return
        try:
            os.killpg(os.getpgid(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
        except PermissionError:
            os.kill(pid, signal.SIGKILL)

    async def upload_dir(self, source: Path, dest: str) -> None:
        data = await asyncio.to_thread(tar_directory, source, ".")
        await self.upload_tar(data, dest)

    async def upload_tar(self, tar_bytes: bytes, dest: str, *, make_dest: bool = True) -> None:
        """Extract ``tar_bytes`` under ``dest``; ``make_dest=False`` saves an exec when it surely exists."""
        if make_dest:
            await self.exec(f"mkdir -p {shlex.quote(dest)}", timeout_sec=60)
        container = self._require()
        ok = await asyncio.to_thread(container.put_archive, dest, tar_bytes)
        if not ok:
            raise LhtbError(f"upload to {self.spec.name}:{dest} failed")

    async def download_tar(self, path: str) -> bytes:
        """A sanitized tar of ``path`` (its basename is the archive's top-level entry)."""
        sanitized = await self.download_sanitized(path)
        if sanitized is None:
            raise LhtbError(f"{self.spec.name}:{path} does not exist")
        return sanitized.data

    async def download_sanitized(self, path: str) -> SanitizedArchive | None:
        """The safe members of ``path`` as a tar (unsafe ones listed in ``refused``), or None if it is absent."""
        container = self._require()

        def blocking() -> SanitizedArchive | None:
            import docker

            try:
                stream, _stat = container.get_archive(path)
            except docker.errors.NotFound:
                return None
            return sanitize(stream)

        return await asyncio.to_thread(blocking)

    async def pause(self) -> None:
        """Freeze every process with the cgroup freezer; execs started meanwhile wait for ``unpause``."""
        self._thawed.clear()
        await asyncio.to_thread(self._require().pause)

    async def unpause(self) -> None:
        await asyncio.to_thread(self._require().unpause)
        self._thawed.set()

    async def cpu_usage_ns(self) -> int | None:
        """Total CPU time the container's processes have used; None when unavailable.

        From the host's cgroup file when the engine runs on this host, else from the Engine API (~1 s a call).
        """
        container = self._require()
        if self._cpu_file is None:
            self._cpu_file = await asyncio.to_thread(self._find_cpu_file, container.id)
        if self._cpu_file:
            usage = self._cpu_file.read_ns()
            if usage is not None:
                return usage

        def from_api() -> int | None:
            import docker

            try:
                stats = get_client().api.stats(container.id, stream=False, one_shot=True)
            except (docker.errors.APIError, OSError):
                return None
            usage = stats.get("cpu_stats", {}).get("cpu_usage", {}).get("total_usage")
            return int(usage) if isinstance(usage, int) else None

        return await asyncio.to_thread(from_api)

    @staticmethod
    def _find_cpu_file(container_id: str) -> CpuFile | Literal[False]:
        import docker

        try:
            pid = int(get_client().api.inspect_container(container_id)["State"]["Pid"] or 0)
        except (docker.errors.APIError, OSError, KeyError, TypeError, ValueError):
            return False
        return (cpu_file_for_pid(pid, container_id) if pid > 0 else None) or False

    async def stop(self) -> None:
        if self._stopped or self._container is None:
            self._stopped = True
            return
        self._stopped = True
        await asyncio.to_thread(remove_container, self._container.id)


def remove_container(container_id: str) -> None:
    import docker

    try:
        get_client().api.remove_container(container_id, force=True, v=True)
    except docker.errors.NotFound:
        pass
    except docker.errors.APIError as exc:
        if "already in progress" not in str(exc):
            raise


def unique_name(*parts: str) -> str:
    cleaned = "-".join(p.replace("/", "-").replace(":", "-") for p in parts if p)
    return f"lhtb-{cleaned[:80]}-{uuid.uuid4().hex[:6]}"
