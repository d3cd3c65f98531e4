"""Separate-mode verification: grade a copy of the agent's artifacts in a fresh container from the clean image.

The agent container never receives ``tests/``; the verifier container gets them root-only (mode 0700). The
verifier writes into ``/logs/verifier`` inside its own container and the harness downloads that directory
afterwards, so no verifier output is ever on a path the agent can see. The verifier's interpreter, shell and
pytest come from the clean image (docs/long-horizon.md).
"""

from __future__ import annotations

import asyncio
import io
import posixpath
import shlex
import tarfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import lhtb
from lhtb.environments.base import ExecResult
from lhtb.environments.docker_env import ContainerSpec, DockerEnvironment
from lhtb.environments.tarsafe import safe_extract
from lhtb.errors import ErrorClass, LhtbError, VerifierError, VerifierTimeoutError
from lhtb.fs import write_text_atomic
from lhtb.results.models import ErrorInfo, VerifierOutcome
from lhtb.tasks.loader import Task

RunTests = Callable[[], Awaitable[ExecResult]]  # runs test.sh and leaves its output in phase_dir/output
TESTS_MOUNT = "/tests"
OUTPUT_DIR = "/logs/verifier"
SDK_MOUNT = "/opt/lhtb/sdk"
# Set for every verifier run: artifacts cannot change the interpreter's search path or write caches.
TRUSTED_PYTHON_ENV = {
    "PYTHONPATH": SDK_MOUNT,
    "PYTHONNOUSERSITE": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONSTARTUP": "",
    "PYTEST_ADDOPTS": "-p no:cacheprovider",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
}


@dataclass
class ArtifactSnapshot:
    """Sanitized tars of the declared artifact paths, keyed by container path (None: path absent)."""

    tars: dict[str, bytes | None]
    refused: list[str]


async def snapshot_artifacts(agent_env: DockerEnvironment, task: Task) -> ArtifactSnapshot:
    tars: dict[str, bytes | None] = {}
    refused: list[str] = []
    for path in task.config.artifact_paths:
        sanitized = await agent_env.download_sanitized(path)
        if sanitized is None:
            tars[path] = None
            continue
        tars[path] = sanitized.data
        refused.extend(f"{path}: {item}" for item in sanitized.refused)
    return ArtifactSnapshot(tars=tars, refused=refused)


def sdk_host_dir() -> Path:
    """The installed ``lhtb`` package directory, mounted read-only so verifiers can import lhtb.grading."""
    return Path(lhtb.__file__).resolve().parent


def verifier_env_vars(task: Task) -> dict[str, str]:
    return {
        **task.config.environment.env,
        **task.config.verifier.env,
        **TRUSTED_PYTHON_ENV,
        "LHTB_VERIFIER_OUTPUT_DIR": OUTPUT_DIR,
    }


def verifier_spec(task: Task, image: str, *, job: str, trial: str) -> ContainerSpec:
    """A verifier container: generic for a trial, so it can be started ahead of time and used for any phase."""
    return ContainerSpec.for_task(
        task.config.environment,
        image,
        job=job,
        trial=trial,
        role="verifier",
        network="none",
        env=verifier_env_vars(task),
        mounts={str(sdk_host_dir()): (f"{SDK_MOUNT}/lhtb", "ro")},
    )


def tests_archive(task: Task) -> bytes:
    """``tests/`` as a tar rooted at ``tests``, owned by root with the top directory mode 0700.

    Verifiers run the agent's programs unprivileged; those programs must not read the hidden tests, so the
    tests are copied in root-only rather than bind-mounted with the host's permissions.
    """
    out = io.BytesIO()

    def owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        if info.name == TESTS_MOUNT.lstrip("/"):
            info.mode = 0o700
        return info

    with tarfile.open(fileobj=out, mode="w") as archive:
        archive.add(task.tests_dir, arcname=TESTS_MOUNT.lstrip("/"), filter=owned_by_root)
    return out.getvalue()


async def install_tests(verifier_env: DockerEnvironment, task: Task) -> None:
    await verifier_env.upload_tar(tests_archive(task), "/", make_dest=False)


async def install_artifacts(
    verifier_env: DockerEnvironment, snapshot: ArtifactSnapshot, task_user: str | None = None
) -> None:
    """Replace the clean image's copy of each artifact path with the agent's, and prepare the output dir."""
    # Writable by the verifier's user only: agent programs the verifier runs as `nobody` cannot plant a reward.
    owner = task_user or "root"
    commands = [f"mkdir -p {OUTPUT_DIR} && chmod 755 {OUTPUT_DIR} && chown {shlex.quote(owner)} {OUTPUT_DIR}"]
    for path in snapshot.tars:
        parent = posixpath.dirname(path.rstrip("/")) or "/"
        commands.append(f"rm -rf {shlex.quote(path)} && mkdir -p {shlex.quote(parent)}")
    result = await verifier_env.exec(" && ".join(commands), user="root", timeout_sec=120)
    if result.exit_code != 0:
        raise LhtbError(f"could not prepare the verifier container: {result.stderr.strip()[:500]}")
    for path, data in snapshot.tars.items():
        if data is not None:
            parent = posixpath.dirname(path.rstrip("/")) or "/"
            await verifier_env.upload_tar(data, parent, make_dest=False)


async def collect_output(env: DockerEnvironment, output_path: str, phase_dir: Path) -> None:
    """Download the verifier's output directory into ``phase_dir/output`` (safe extraction)."""
    sanitized = await env.download_sanitized(output_path)
    target = phase_dir / "output"
    if sanitized is None:
        target.mkdir(parents=True, exist_ok=True)
        return
    staging = phase_dir / ".output-download"
    await asyncio.to_thread(safe_extract, sanitized.data, staging)
    extracted = staging / posixpath.basename(output_path.rstrip("/"))
    if extracted.is_dir():
        extracted.rename(target)
    else:
        target.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(_remove_tree, staging)


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


async def grade_outcome(
    task: Task,
    phase: str,
    phase_dir: Path,
    run_tests: RunTests,
) -> VerifierOutcome:
    """Run ``run_tests`` and turn what it left in ``phase_dir/output`` into a VerifierOutcome."""
    from lhtb.verifier.reward import parse_reward_dir

    started = time.monotonic()
    timeout = task.config.verifier.timeout_sec
    outcome = VerifierOutcome(phase=phase)
    try:
        result = await run_tests()
        write_text_atomic(phase_dir / "stdout.txt", result.stdout)
        write_text_atomic(phase_dir / "stderr.txt", result.stderr)
        outcome.exit_code = result.exit_code
        if result.timed_out:
            raise VerifierTimeoutError(f"tests/test.sh exceeded the verifier timeout of {timeout:.0f} s")
        parsed = await asyncio.to_thread(parse_reward_dir, phase_dir / "output")
        outcome.reward = parsed.reward
        outcome.subtasks = list(parsed.subtasks)
        outcome.source = parsed.source
    except VerifierError as exc:
        exit_note = "" if outcome.exit_code in (0, None) else f" (test.sh exited {outcome.exit_code})"
        outcome.error = ErrorInfo(error_class=exc.error_class, message=f"{exc}{exit_note}")
        outcome.reward = None
    except LhtbError as exc:
        outcome.error = ErrorInfo(error_class=ErrorClass.HARNESS_ERROR, message=str(exc), retryable=True)
        outcome.reward = None
    outcome.duration_sec = round(time.monotonic() - started, 3)
    return outcome


async def run_verifier(
    task: Task,
    verifier_env: DockerEnvironment,
    snapshot: ArtifactSnapshot,
    phase_dir: Path,
    *,
    phase: str = "final",
) -> VerifierOutcome:
    """Separate mode: install the artifacts, run tests/test.sh under the verifier timeout, parse the reward."""
    phase_dir.mkdir(parents=True, exist_ok=True)
    if snapshot.refused:
        write_text_atomic(phase_dir / "refused-artifacts.txt", "\n".join(snapshot.refused) + "\n")

    async def run_tests() -> ExecResult:
        await install_artifacts(verifier_env, snapshot, task.config.verifier.user)
        result = await verifier_env.exec(
            f"bash {TESTS_MOUNT}/test.sh",
            user=task.config.verifier.user,
            timeout_sec=task.config.verifier.timeout_sec,
        )
        await collect_output(verifier_env, OUTPUT_DIR, phase_dir)
        return result

    return await grade_outcome(task, phase, phase_dir, run_tests)
