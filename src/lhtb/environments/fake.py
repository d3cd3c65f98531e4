"""A sandbox without Docker, for fast unit tests of the trial lifecycle: a temporary directory as the container's
file system and local processes under bubblewrap as its commands.

Every exec runs ``bwrap`` with the sandbox's directory as ``/``, the host's ``/usr`` and ``/etc`` read-only over
it, its own PID namespace (``kill -STOP -1`` stops only the sandbox) and, for network "none", its own network
namespace. What it cannot do, and so what tests on it do not prove: it has no image (the host's ``/usr`` stands
in for it: a task's Dockerfile is ignored), no CPU, memory or PID limits, no users (every command runs as the
caller; ``user`` is recorded, not applied), no CPU accounting, and nothing outlives its exec (a background
process ends with the command that started it). The Docker integration tests cover all of that.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shutil
import signal
import tarfile
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from lhtb.environments.base import ContainerSpec, ExecResult, command_timed_out
from lhtb.environments.exec_stream import BoundedBuffer
from lhtb.environments.tarsafe import (
    MAX_ARTIFACT_BYTES,
    SanitizedArchive,
    safe_extract,
    sanitize,
    tar_directory,
)
from lhtb.errors import ArchiveRefusedError, EnvironmentStartError, LhtbError, UnsafeArchiveError

if TYPE_CHECKING:
    from lhtb.tasks.loader import Task

FAKE_IMAGE = "host"  # what a fake sandbox runs on instead of a task image
_CAPTURE_CAP = 8 * 1024 * 1024
_HOST_KILL_GRACE_SEC = 10.0
_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_SYSTEM_LINKS = {"bin": "usr/bin", "sbin": "usr/sbin", "lib": "usr/lib", "lib64": "usr/lib64"}


class FakeEnvironment:
    """One sandbox in ``root``; ``stop()`` kills what still runs and deletes the directory."""

    def __init__(self, spec: ContainerSpec, root: Path) -> None:
        self._spec = spec
        self.root = root
        self.started = False
        self.stopped = False
        self.users: list[str | None] = []  # the user each exec asked for (not applied: see the module docstring)
        self._running: set[int] = set()  # process groups of the execs in flight
        self._thawed = asyncio.Event()
        self._thawed.set()

    @property
    def spec(self) -> ContainerSpec:
        return self._spec

    async def start(self) -> None:
        if shutil.which("bwrap") is None:
            raise EnvironmentStartError("the fake environment needs bubblewrap (apt-get install bubblewrap)")
        for part in ("tmp", "root", self.spec.workdir.lstrip("/")):
            (self.root / part).mkdir(parents=True, exist_ok=True)
        for name, target in _SYSTEM_LINKS.items():
            if (Path("/") / target).exists() and not (self.root / name).is_symlink():
                (self.root / name).symlink_to(target)
        self.started = True

    def _argv(self, command: str, env: dict[str, str], workdir: str, timeout_sec: float | None) -> list[str]:
        argv = ["bwrap", "--bind", str(self.root), "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        argv += ["--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--die-with-parent", "--chdir", workdir]
        if self.spec.network == "none":
            argv.append("--unshare-net")
        for host, (dest, mode) in self.spec.mounts.items():
            argv += ["--ro-bind" if mode == "ro" else "--bind", host, dest]
        argv.append("--clearenv")
        for key, value in {"PATH": _PATH, "HOME": "/root", **self.spec.env, **env}.items():
            argv += ["--setenv", key, value]
        argv.append("--")
        if timeout_sec is not None:
            argv += ["timeout", "--kill-after=5", f"{max(timeout_sec, 0.001):.3f}"]
        return [*argv, "bash", "-c", command]

    async def exec(
        self,
        command: str,
        *,
        user: str | None = None,
        env: dict[str, str] | None = None,
        workdir: str | None = None,
        timeout_sec: float | None = None,
    ) -> ExecResult:
        if not self.started or self.stopped:
            raise LhtbError(f"sandbox {self.spec.name} is not running")
        await self._thawed.wait()
        self.users.append(user or self.spec.user)
        started = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            *self._argv(command, env or {}, workdir or self.spec.workdir, timeout_sec),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        self._running.add(process.pid)
        out, err = BoundedBuffer(_CAPTURE_CAP), BoundedBuffer(_CAPTURE_CAP)
        assert process.stdout is not None and process.stderr is not None
        drained = asyncio.gather(_drain(process.stdout, out), _drain(process.stderr, err), process.wait())
        host_timeout = None if timeout_sec is None else timeout_sec + _HOST_KILL_GRACE_SEC
        host_killed = False
        try:
            await asyncio.wait_for(asyncio.shield(drained), host_timeout)
        except TimeoutError:
            _kill_group(process.pid)
            host_killed = True
            await drained
        except asyncio.CancelledError:
            _kill_group(process.pid)
            with contextlib.suppress(Exception):
                await drained
            raise
        finally:
            self._running.discard(process.pid)
        elapsed = time.monotonic() - started
        exit_code = process.returncode
        timed_out = command_timed_out(
            host_killed=host_killed, elapsed=elapsed, timeout_sec=timeout_sec, exit_code=exit_code
        )
        return ExecResult(
            exit_code=None if timed_out else exit_code,
            stdout=out.data().decode("utf-8", "replace"),
            stderr=err.data().decode("utf-8", "replace"),
            timed_out=timed_out,
            duration_sec=elapsed,
            stdout_bytes=out.total,
            stderr_bytes=err.total,
            output_truncated=out.truncated or err.truncated,
        )

    def _host_path(self, path: str) -> Path:
        """``path`` inside the sandbox as a host path, refusing one whose links lead out of it."""
        resolved = (self.root / path.lstrip("/")).resolve()
        if resolved != self.root.resolve() and self.root.resolve() not in resolved.parents:
            raise UnsafeArchiveError(f"{path} leads outside the sandbox")
        return resolved

    async def upload_dir(self, source: Path, dest: str) -> None:
        await self.upload_tar(await asyncio.to_thread(tar_directory, source, "."), dest)

    async def upload_tar(self, tar_bytes: bytes | SanitizedArchive, dest: str, *, make_dest: bool = True) -> None:
        target = self._host_path(dest)
        if not make_dest and not target.is_dir():
            raise ArchiveRefusedError(f"upload to {self.spec.name}:{dest} failed: no such directory")
        try:
            await asyncio.to_thread(safe_extract, tar_bytes, target)
        except (tarfile.TarError, OSError) as exc:
            raise ArchiveRefusedError(f"the sandbox refused the upload to {self.spec.name}:{dest}: {exc}") from exc

    async def download_sanitized(self, path: str, *, max_bytes: int = MAX_ARTIFACT_BYTES) -> SanitizedArchive | None:
        source = self._host_path(path)
        if not source.exists():
            return None

        def blocking() -> SanitizedArchive:
            with tempfile.TemporaryFile() as spool:
                with tarfile.open(fileobj=spool, mode="w") as archive:
                    archive.add(source, arcname=source.name or "root", recursive=True)
                spool.seek(0)
                return sanitize(iter(lambda: spool.read(io.DEFAULT_BUFFER_SIZE * 64), b""), max_bytes=max_bytes)

        return await asyncio.to_thread(blocking)

    async def pause(self) -> None:
        """SIGSTOP every exec in flight (their process groups); execs started meanwhile wait for ``unpause``."""
        self._thawed.clear()
        for group in list(self._running):
            _signal_group(group, signal.SIGSTOP)

    async def unpause(self) -> None:
        for group in list(self._running):
            _signal_group(group, signal.SIGCONT)
        self._thawed.set()

    async def cpu_usage_ns(self) -> int | None:
        return None  # not measured: activity then rests on the agent's own reports

    async def service(self, name: str) -> FakeEnvironment | None:
        if name != "main":
            raise LhtbError(f"the fake sandbox runs no Compose service {name!r} (sidecars need Docker)")
        return self

    async def commit(self) -> str:
        raise LhtbError("the fake sandbox has no image to commit (a sibling verifier needs Docker)")

    @property
    def network_namespace(self) -> str:
        raise LhtbError("the fake sandbox cannot share its network namespace (a sibling verifier needs Docker)")

    async def stop(self) -> None:
        if self.stopped:
            return
        self._halt()
        self._thawed.set()  # in the loop's thread: an asyncio.Event is not thread-safe
        await asyncio.to_thread(shutil.rmtree, self.root, True)

    def halt(self) -> None:
        """``stop`` for a thread without the loop (the provider's blocking clean-up): kill, remove the root."""
        if not self.stopped:
            self._halt()
            shutil.rmtree(self.root, ignore_errors=True)

    def _halt(self) -> None:
        self.stopped = True
        for group in list(self._running):
            _kill_group(group)


async def _drain(stream: asyncio.StreamReader, buffer: BoundedBuffer) -> None:
    while chunk := await stream.read(65536):
        buffer.feed(chunk)


def _signal_group(group: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, sig)


def _kill_group(group: int) -> None:
    _signal_group(group, signal.SIGCONT)  # a frozen group must run to die
    _signal_group(group, signal.SIGKILL)


class FakeProvider:
    """Fake sandboxes under ``root``; every sandbox it made is kept in ``created`` for tests to inspect."""

    def __init__(self, root: Path, *, image_workdir: str = "/app") -> None:
        self.root = root
        self._image_workdir = image_workdir  # what the fake "image" says for a task silent on its workdir
        self.created: list[FakeEnvironment] = []
        self.images: list[str] = []  # the tasks whose image was asked for

    async def prepare_image(self, task: Task) -> tuple[str, bool]:
        self.images.append(task.name)
        return FAKE_IMAGE, False

    async def prepare_verifier_image(self, task: Task) -> tuple[str, bool]:
        self.images.append(f"{task.name} (verifier)")
        return FAKE_IMAGE, False

    async def image_workdir(self, image: str) -> str:
        return self._image_workdir

    def create(self, spec: ContainerSpec) -> FakeEnvironment:
        env = FakeEnvironment(spec, self.root / spec.name)
        self.created.append(env)
        return env

    def alive(self) -> list[FakeEnvironment]:
        """Sandboxes started and not stopped (a leak, once a trial has ended)."""
        return [env for env in self.created if env.started and not env.stopped]

    def collect_garbage(self, *, job: str | None = None) -> int:
        return 0  # every fake sandbox belongs to this process: none has a dead owner

    def remove_owned(self, *, job: str | None = None, owner_pid: int | None = None) -> int:
        leftovers = [env for env in self.alive() if job is None or env.spec.job == job]
        for env in leftovers:
            env.halt()
        return len(leftovers)
