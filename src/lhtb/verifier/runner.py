"""Separate-mode verification: grade a copy of the agent's artifacts in a fresh container from the clean image.

The agent container never receives ``tests/``; the verifier's output directory is a host directory mounted
only into the verifier container; the verifier's interpreter and shell come from the clean image.
"""

from __future__ import annotations

import asyncio
import posixpath
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

import lhtb
from lhtb.environments.docker_env import ContainerSpec, DockerEnvironment, unique_name
from lhtb.errors import ErrorClass, LhtbError, VerifierError, VerifierTimeoutError
from lhtb.fs import write_text_atomic
from lhtb.results.models import ErrorInfo, VerifierOutcome
from lhtb.tasks.loader import Task

TESTS_MOUNT = "/tests"
OUTPUT_MOUNT = "/logs/verifier"
SDK_MOUNT = "/opt/lhtb/sdk"


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


def verifier_spec(task: Task, image: str, *, job: str, trial: str, output_dir: Path) -> ContainerSpec:
    env_section = task.config.environment
    env = {
        **env_section.env,
        **task.config.verifier.env,
        "PYTHONPATH": SDK_MOUNT,
        "LHTB_VERIFIER_OUTPUT_DIR": OUTPUT_MOUNT,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    output_dir.mkdir(parents=True, exist_ok=True)
    return ContainerSpec(
        image=image,
        name=unique_name(trial, "verifier"),
        job=job,
        trial=trial,
        role="verifier",
        workdir=env_section.workdir,
        network="none",
        cpus=env_section.cpus,
        memory_mb=env_section.memory_mb,
        pids_limit=env_section.pids_limit,
        env=env,
        mounts={
            str(task.tests_dir): (TESTS_MOUNT, "ro"),
            str(sdk_host_dir()): (f"{SDK_MOUNT}/lhtb", "ro"),
            str(output_dir.resolve()): (OUTPUT_MOUNT, "rw"),
        },
    )


async def install_artifacts(verifier_env: DockerEnvironment, snapshot: ArtifactSnapshot) -> None:
    for path, data in snapshot.tars.items():
        parent = posixpath.dirname(path.rstrip("/")) or "/"
        result = await verifier_env.exec(
            f"rm -rf {shlex.quote(path)} && mkdir -p {shlex.quote(parent)}", timeout_sec=120
        )
        if result.exit_code != 0:
            raise LhtbError(f"could not clear {path} in the verifier container: {result.stderr.strip()}")
        if data is not None:
            await verifier_env.upload_tar(data, parent)


async def run_verifier(
    task: Task,
    verifier_env: DockerEnvironment,
    snapshot: ArtifactSnapshot,
    phase_dir: Path,
    *,
    phase: str = "final",
) -> VerifierOutcome:
    """Install the artifacts, run tests/test.sh under the verifier timeout, and parse the reward it wrote."""
    from lhtb.verifier.reward import parse_reward_dir

    started = time.monotonic()
    timeout = task.config.verifier.timeout_sec
    outcome = VerifierOutcome(phase=phase)
    try:
        await install_artifacts(verifier_env, snapshot)
        result = await verifier_env.exec(
            f"bash {TESTS_MOUNT}/test.sh", user=task.config.verifier.user, timeout_sec=timeout
        )
        write_text_atomic(phase_dir / "stdout.txt", result.stdout)
        write_text_atomic(phase_dir / "stderr.txt", result.stderr)
        if snapshot.refused:
            write_text_atomic(phase_dir / "refused-artifacts.txt", "\n".join(snapshot.refused) + "\n")
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
    outcome.duration_sec = time.monotonic() - started
    return outcome
