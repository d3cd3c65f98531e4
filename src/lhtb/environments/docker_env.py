"""The Environment protocol on the Docker Engine API (docker SDK calls run in worker threads)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import socket
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lhtb.environments.base import ContainerSpec, ExecResult, FreezeError, command_timed_out
from lhtb.environments.cgroup_cpu import CpuFile, cpu_file_for_pid
from lhtb.environments.docker_client import (
    LABEL_JOB,
    LABEL_MANAGED,
    LABEL_OWNER_HOST,
    LABEL_OWNER_PID,
    LABEL_ROLE,
    LABEL_TRIAL,
    get_client,
    in_engine_thread,
)
from lhtb.environments.exec_stream import CapturedOutput, capture_frames, close_stream
from lhtb.environments.tarsafe import (
    MAX_ARTIFACT_BYTES,
    SanitizedArchive,
    sanitize,
    tar_directory,
)
from lhtb.errors import (
    ArchiveRefusedError,
    ArtifactsRefusedError,
    EnvironmentStartError,
    LhtbError,
    TaskInvalidError,
    UnsafeArchiveError,
)

if TYPE_CHECKING:
    from lhtb.tasks.loader import Task

_EXIT_CODE_POLLS = 500  # x 20 ms: how long an ended exec's exit code is waited for (returned at once when known)
# Grace between the in-container `timeout` and the host-side kill of a command that outlived it.
_HOST_KILL_GRACE_SEC = 10.0
MAX_CAPTURED_OUTPUT = 8 * 1024 * 1024  # per stream: a 4 MiB head and a 4 MiB tail, applied while reading


SNAPSHOT_REPO = "lhtb-snapshot"  # images committed from an agent container for a sibling verifier
SNAPSHOT_ROLE = "snapshot"


def _labels(spec: ContainerSpec) -> dict[str, str]:
    return {
        LABEL_MANAGED: "1",
        LABEL_JOB: spec.job,
        LABEL_TRIAL: spec.trial,
        LABEL_ROLE: spec.role,
        LABEL_OWNER_PID: str(os.getpid()),
        LABEL_OWNER_HOST: socket.gethostname(),
    }


class DockerEnvironment:
    """One container. ``stop()`` is idempotent and safe to call from ``finally`` blocks and signal paths."""

    def __init__(self, spec: ContainerSpec) -> None:
        self._spec = spec
        self._container: Any = None
        self._cpu_file: CpuFile | Literal[False] | None = None  # None: not looked up; False: not on this host
        self._stopped = False
        self._sidecars_up = False
        # Cleared while the container is frozen: a new exec waits instead of failing on a paused container.
        self._thawed = asyncio.Event()
        self._thawed.set()

    @property
    def spec(self) -> ContainerSpec:
        return self._spec

    @property
    def container_id(self) -> str | None:
        return None if self._container is None else self._container.id

    async def start(self) -> None:
        """A start cancelled midway (Ctrl-C, SIGTERM) still waits until the container exists, so the caller's
        ``stop`` removes it instead of finding nothing to remove and leaving it running."""
        starting = asyncio.ensure_future(in_engine_thread(self._start_blocking))
        try:
            await asyncio.shield(starting)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await starting
            raise

    def _start_blocking(self) -> None:
        import docker

        spec = self.spec
        volumes = {host: {"bind": dest, "mode": mode} for host, (dest, mode) in spec.mounts.items()}
        network: dict[str, Any] = {"network_mode": spec.network}
        if spec.sidecars is not None:
            from lhtb.environments.compose_env import start_sidecars

            self._sidecars_up = True  # from here on, stop() tears them down whatever happens next
            name = start_sidecars(spec, _labels(spec))
            endpoint = get_client().api.create_endpoint_config(aliases=["main"])  # sidecars reach it as "main"
            network = {"network": name, "networking_config": {name: endpoint}}
        # A sibling sharing another container's network namespace takes its hostname too (Docker refuses one).
        hostname = {} if spec.network.startswith("container:") else {"hostname": "sandbox"}
        try:
            self._container = get_client().containers.run(
                spec.image,
                command=["sleep", "infinity"],
                name=spec.name,
                detach=True,
                init=True,  # docker-init as PID 1: signals forwarded, stop is instant
                labels=_labels(spec),
                **network,
                nano_cpus=int(spec.cpus * 1e9),
                mem_limit=f"{spec.memory_mb}m",
                memswap_limit=f"{spec.memory_mb}m",
                pids_limit=spec.pids_limit,
                working_dir=spec.workdir,
                environment=spec.env,
                volumes=volumes,
                **hostname,
                user=spec.user,
            )
        except docker.errors.DockerException as exc:
            if spec.user and ("unable to find user" in str(exc) or "unable to find group" in str(exc)):
                raise TaskInvalidError(
                    f"task.toml [agent] user {spec.user!r}: no such user or group in the image {spec.image} "
                    f"(create it in environment/Dockerfile): {exc}"
                ) from exc
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
        """Run ``command`` with bash. A timeout kills the command's whole process group inside the container.

        ``timed_out`` is what the harness's clock saw (the deadline passed and the in-container ``timeout`` fired,
        or the host kill was needed); a command that exits 124 or 137 on its own keeps its exit code."""
        argv = ["bash", "-c", command]
        if timeout_sec is not None:
            # coreutils `timeout` leads its own process group and signals all of it on expiry.
            argv = ["timeout", "--kill-after=5", f"{max(timeout_sec, 0.001):.3f}", *argv]
        await self._thawed.wait()
        started = time.monotonic()
        exec_id = await in_engine_thread(self._exec_create, argv, user, env, workdir)
        task = asyncio.ensure_future(in_engine_thread(self._exec_run, exec_id))
        host_timeout = None if timeout_sec is None else timeout_sec + _HOST_KILL_GRACE_SEC
        host_killed = False
        try:
            exit_code, captured = await asyncio.wait_for(asyncio.shield(task), host_timeout)
        except TimeoutError:
            await in_engine_thread(self._host_kill, exec_id)
            exit_code, captured = await task
            host_killed = True
        except asyncio.CancelledError:
            await in_engine_thread(self._host_kill, exec_id)
            raise
        elapsed = time.monotonic() - started
        timed_out = command_timed_out(
            host_killed=host_killed, elapsed=elapsed, timeout_sec=timeout_sec, exit_code=exit_code
        )
        return ExecResult(
            exit_code=None if timed_out else exit_code,
            stdout=captured.stdout,
            stderr=captured.stderr,
            timed_out=timed_out,
            duration_sec=elapsed,
            stdout_bytes=captured.stdout_bytes,
            stderr_bytes=captured.stderr_bytes,
            output_truncated=captured.truncated,
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

    def _exec_run(self, exec_id: str) -> tuple[int | None, CapturedOutput]:
        """Drain the output frame by frame into bounded buffers (never one growing ``bytes``), then the exit code."""
        api = get_client().api
        frames = api.exec_start(exec_id, stream=True, demux=True)
        try:
            captured = capture_frames(frames, MAX_CAPTURED_OUTPUT)
        finally:
            close_stream(frames)
        inspected = api.exec_inspect(exec_id)
        # The output can end a moment before the engine records the exit code; on a loaded machine, seconds.
        for _ in range(_EXIT_CODE_POLLS):
            if not inspected.get("Running") and inspected.get("ExitCode") is not None:
                break
            time.sleep(0.02)
            inspected = api.exec_inspect(exec_id)
        return inspected.get("ExitCode"), captured

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
        data = await in_engine_thread(tar_directory, source, ".")
        await self.upload_tar(data, dest)

    async def upload_tar(self, tar_bytes: bytes | SanitizedArchive, dest: str, *, make_dest: bool = True) -> None:
        """Extract a tar under ``dest``; ``make_dest=False`` saves an exec when it surely exists.

        A :class:`SanitizedArchive` is streamed from its temporary file. The engine refusing the archive
        (an HTTP error answer) raises :class:`ArchiveRefusedError`; a lost connection propagates as it is.
        """
        import docker

        if make_dest:
            await self.exec(f"mkdir -p {shlex.quote(dest)}", timeout_sec=60)
        container = self._require()

        def blocking() -> bool:
            body = tar_bytes.reader() if isinstance(tar_bytes, SanitizedArchive) else tar_bytes
            return bool(container.put_archive(dest, body))

        try:
            ok = await in_engine_thread(blocking)
        except docker.errors.APIError as exc:
            raise ArchiveRefusedError(f"the engine refused the upload to {self.spec.name}:{dest}: {exc}") from exc
        if not ok:
            raise ArchiveRefusedError(f"upload to {self.spec.name}:{dest} failed")

    async def download_sanitized(self, path: str, *, max_bytes: int = MAX_ARTIFACT_BYTES) -> SanitizedArchive | None:
        """The safe members of ``path`` as a tar (unsafe ones listed in ``refused``), or None if it is absent.

        Streams to a temporary file; over ``max_bytes`` (apparent size) raises :class:`UnsafeArchiveError`."""
        container = self._require()

        def blocking() -> SanitizedArchive | None:
            import docker

            try:
                stream, _stat = container.get_archive(path)
            except docker.errors.NotFound:
                return None
            except docker.errors.APIError as exc:
                # 404 is "absent"; other client errors name the path's own state (a parent that is a file, an
                # unreadable name), which the container's processes chose. 5xx stays an engine failure.
                if exc.is_client_error():
                    raise UnsafeArchiveError(f"{path} cannot be archived by the engine: {exc.explanation}") from exc
                raise
            return sanitize(stream, max_bytes=max_bytes)

        return await in_engine_thread(blocking)

    async def pause(self) -> None:
        """Freeze every process with the cgroup freezer; execs started meanwhile wait for ``unpause``."""
        import docker

        self._thawed.clear()
        try:
            await in_engine_thread(self._require().pause)
        except docker.errors.APIError as exc:
            raise FreezeError(f"container {self.spec.name} could not be frozen: {exc}") from exc

    async def unpause(self) -> None:
        await in_engine_thread(self._require().unpause)
        self._thawed.set()

    async def cpu_usage_ns(self) -> int | None:
        """Total CPU time the container's processes have used; None when unavailable.

        From the host's cgroup file when the engine runs on this host, else from the Engine API (~1 s a call).
        """
        container = self._require()
        if self._cpu_file is None:
            self._cpu_file = await in_engine_thread(self._find_cpu_file, container.id)
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

        return await in_engine_thread(from_api)

    @staticmethod
    def _find_cpu_file(container_id: str) -> CpuFile | Literal[False]:
        import docker

        try:
            pid = int(get_client().api.inspect_container(container_id)["State"]["Pid"] or 0)
        except (docker.errors.APIError, OSError, KeyError, TypeError, ValueError):
            return False
        return (cpu_file_for_pid(pid, container_id) if pid > 0 else None) or False

    async def service(self, name: str) -> DockerEnvironment | None:
        if name == "main":
            return self
        if self.spec.sidecars is None or name not in self.spec.sidecars.services:
            raise LhtbError(f"sandbox {self.spec.name} has no Compose service {name!r}")
        from lhtb.environments.compose_env import LABEL_SERVICE, project_name

        labels = [f"com.docker.compose.project={project_name(self.spec)}", f"{LABEL_SERVICE}={name}"]
        found = await in_engine_thread(lambda: get_client().containers.list(filters={"label": labels}))
        if not found:
            return None
        container = found[0]
        workdir = (container.attrs.get("Config") or {}).get("WorkingDir") or "/"
        handle = DockerEnvironment(
            replace(self.spec, name=container.name, role="sidecar", workdir=workdir, sidecars=None)
        )
        handle._container = container
        handle._stopped = True  # not this handle's to remove: the sandbox's teardown removes its sidecars
        return handle

    async def commit(self) -> str:
        container = self._require()
        labels = _labels(self.spec) | {LABEL_ROLE: SNAPSHOT_ROLE}

        def commit() -> str:
            import docker

            # What the agent wrote is the agent's: too much of it, or an engine that refuses it, is graded 0.
            listed = get_client().api.containers(all=True, filters={"id": container.id}, size=True)
            changed = int((listed[0] if listed else {}).get("SizeRw") or 0)
            if changed > MAX_ARTIFACT_BYTES:
                raise ArtifactsRefusedError(
                    f"the agent's container changed {changed} bytes of its file system, over the "
                    f"{MAX_ARTIFACT_BYTES} a snapshot for live grading takes"
                )
            try:  # the caller froze the container (with its retries): pausing here again would fail
                image = container.commit(repository=SNAPSHOT_REPO, pause=False, conf={"Labels": labels})
            except docker.errors.APIError as exc:
                raise ArtifactsRefusedError(f"the engine could not snapshot the agent's container: {exc}") from exc
            return str(image.id)

        committing = asyncio.ensure_future(in_engine_thread(commit))
        try:
            return await asyncio.shield(committing)
        except asyncio.CancelledError:  # the engine finishes it anyway: remove what nobody will own
            with contextlib.suppress(Exception):
                await in_engine_thread(remove_image, await committing)
            raise

    @property
    def network_namespace(self) -> str:
        return f"container:{self._require().id}"

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self._container is not None:
            await in_engine_thread(remove_container, self._container.id)
        if self.spec.owns_image:
            await in_engine_thread(remove_image, self.spec.image)
        if self._sidecars_up:
            from lhtb.environments.compose_env import stop_sidecars

            await in_engine_thread(stop_sidecars, self.spec)


def remove_image(image: str) -> None:
    import docker

    with contextlib.suppress(docker.errors.NotFound):
        get_client().api.remove_image(image, force=True)


def remove_container(container_id: str) -> None:
    import docker

    try:
        get_client().api.remove_container(container_id, force=True, v=True)
    except docker.errors.NotFound:
        pass
    except docker.errors.APIError as exc:
        if "already in progress" not in str(exc):
            raise


class DockerProvider:
    """Trials on the local Docker engine: images built by content hash, one container per sandbox."""

    async def prepare_image(self, task: Task) -> tuple[str, bool]:
        from lhtb.environments.images import ensure_prebuilt_image, ensure_task_image

        prebuilt = task.prebuilt_image
        if prebuilt is not None:  # Harbor's docker_image without a Dockerfile: used as it is (or substituted)
            reference = dict(task.base_images).get(prebuilt, prebuilt)
            key = "[environment] docker_image"
            return await in_engine_thread(ensure_prebuilt_image, reference, task.name, key), False
        timeout = task.config.environment.build_timeout_sec
        return await ensure_task_image(
            task.name, task.environment_dir, timeout_sec=timeout, base_images=dict(task.base_images)
        )

    async def prepare_verifier_image(self, task: Task) -> tuple[str, bool]:
        from lhtb.environments.images import ensure_prebuilt_image, ensure_task_image

        if task.verifier_docker_image is not None:
            return await in_engine_thread(ensure_prebuilt_image, task.verifier_docker_image, task.name), False
        assert task.verifier_image_dir is not None
        timeout = task.config.environment.build_timeout_sec
        return await ensure_task_image(
            f"{task.name} (verifier)", task.verifier_image_dir, timeout_sec=timeout, base_images=dict(task.base_images)
        )

    async def image_workdir(self, image: str) -> str:
        def read() -> str:
            config = get_client().images.get(image).attrs.get("Config") or {}
            return str(config.get("WorkingDir") or "/")

        return await in_engine_thread(read)

    def create(self, spec: ContainerSpec) -> DockerEnvironment:
        return DockerEnvironment(spec)

    def collect_garbage(self, *, job: str | None = None) -> int:
        from lhtb.environments.gc import collect

        return len(collect(job=job).containers)

    def remove_owned(self, *, job: str | None = None, owner_pid: int | None = None) -> int:
        from lhtb.environments.gc import remove_containers

        return remove_containers(job=job, owner_pid=owner_pid)
