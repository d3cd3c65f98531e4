"""Separate-mode verification: grade a copy of the agent's artifacts in a fresh container from the clean image.

The agent container never receives ``tests/``; the verifier container gets them root-only (mode 0700). The
verifier writes into ``/logs/verifier`` inside its own container and the harness downloads that directory
afterwards, so no verifier output is ever on a path the agent can see. The verifier's interpreter, shell and
pytest come from the clean image (docs/long-horizon.md).
"""

from __future__ import annotations

import asyncio
import posixpath
import re
import shlex
import tarfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import lhtb
from lhtb.environments.base import ContainerSpec, Environment, ExecResult, sidecars_for
from lhtb.environments.tarsafe import MAX_ARTIFACT_BYTES, SanitizedArchive, safe_extract, tar_directory
from lhtb.errors import (
    ArchiveRefusedError,
    ArtifactsRefusedError,
    ErrorClass,
    LhtbError,
    TaskInvalidError,
    UnsafeArchiveError,
    VerifierError,
    VerifierTimeoutError,
)
from lhtb.fs import write_text_atomic
from lhtb.grading.stress import SEED_ENV
from lhtb.results.models import ErrorInfo, VerifierOutcome
from lhtb.tasks.loader import Task

RunTests = Callable[[], Awaitable[ExecResult]]  # runs test.sh and leaves its output in phase_dir/output
TESTS_MOUNT = "/tests"
OUTPUT_DIR = "/logs/verifier"
SDK_MOUNT = "/opt/lhtb/sdk"
# Members of the verifier's output that collecting it dropped (links, fifos), beside output/ in the phase dir.
REFUSED_OUTPUT = "refused-output.txt"
# What the engine prints (exit 126) when an exec's user or group is not in the container's passwd/group files.
_NO_SUCH_USER = re.compile(r"unable to find (?:user|group) [^\n]*?: no matching entries in (?:passwd|group) file")
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
    """Sanitized tars of the declared artifact paths, keyed by container path (None: path absent).

    ``fault`` is set when the artifacts cannot be graded at all (over the limits, not archivable): the
    agent's doing, so the verification is recorded as ``artifacts_refused`` (reward 0), never retried.
    """

    tars: dict[str, SanitizedArchive | None]
    refused: list[str]
    fault: str | None = None

    def close(self) -> None:
        for archive in self.tars.values():
            if archive is not None:
                archive.close()


async def snapshot_artifacts(
    agent_env: Environment, task: Task, *, max_bytes: int = MAX_ARTIFACT_BYTES
) -> ArtifactSnapshot:
    """Stream every artifact path out of the (paused) agent container, or out of the sidecar an artifact names
    (which keeps running); ``max_bytes`` bounds them together. A sidecar that is not running has none."""
    snapshot = ArtifactSnapshot(tars={}, refused=[])
    budget = max_bytes
    for service, path in task.config.artifact_sources:
        source = agent_env if service == "main" else await agent_env.service(service)
        if source is None:
            snapshot.tars[path] = None
            snapshot.refused.append(f"{path}: service {service!r} is not running, so it has no such artifact")
            continue
        try:
            sanitized = await source.download_sanitized(path, max_bytes=budget)
        except ArtifactsRefusedError as exc:
            snapshot.fault = f"{path}: {exc}"
            break
        snapshot.tars[path] = sanitized
        if sanitized is None:
            continue
        budget -= sanitized.size
        snapshot.refused.extend(f"{path}: {item}" for item in sanitized.refused)
        if sanitized.n_refused > len(sanitized.refused):
            snapshot.refused.append(f"{path}: ... and {sanitized.n_refused - len(sanitized.refused)} more")
    return snapshot


def sdk_host_dir() -> Path:
    """The installed ``lhtb`` package directory, mounted read-only so verifiers can import lhtb.grading."""
    return Path(lhtb.__file__).resolve().parent


def seed_env(seed: int | None) -> dict[str, str]:
    """The verify seed as the grading SDK reads it (lhtb.grading.stress.seed_from_env); none: the task's default."""
    return {} if seed is None else {SEED_ENV: str(seed)}


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
        sidecars=sidecars_for(task, internal=True),  # fresh ones, as Harbor's separate verifier gets
    )


def tests_archive(task: Task) -> bytes:
    """``tests/`` (a step's ``steps/NAME/tests`` over it) as a tar rooted at ``tests``, owned by root with the
    top directory mode 0700.

    Verifiers run the agent's programs unprivileged; those programs must not read the hidden tests, so the
    tests are copied in root-only rather than bind-mounted with the host's permissions.
    """

    def owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        if info.name == TESTS_MOUNT.lstrip("/"):
            info.mode = 0o700
        return info

    return tar_directory(task.tests_dirs, TESTS_MOUNT.lstrip("/"), filter=owned_by_root)


async def install_tests(verifier_env: Environment, task: Task) -> None:
    """Copy ``tests/`` in and check ``[verifier] user``, both before any artifact is installed.

    A non-root verifier user gets ``tests/`` as its own (still mode 0700): root-only tests would leave its
    ``bash /tests/test.sh`` with "Permission denied".
    """
    if task.verifier_docker_image is None:  # a prebuilt verifier image holds its own tests (Harbor)
        await verifier_env.upload_tar(tests_archive(task), "/", make_dest=False)
    await check_verifier_user(verifier_env, task)
    user = task.config.verifier.user
    if user and user.split(":")[0] not in ("root", "0"):
        owned = await verifier_env.exec(f"chown -R -- {shlex.quote(user)} {TESTS_MOUNT}", user="root", timeout_sec=120)
        if owned.exit_code != 0 and "invalid user" in owned.stderr:  # the user check above could not tell
            raise TaskInvalidError(
                f"{task.path / 'task.toml'}: [verifier] user {user!r} does not exist in the verifier's image "
                f"({owned.stderr.strip()[:200]}); create it there (e.g. RUN useradd) or change [verifier] user"
            )
        if owned.exit_code != 0:
            raise LhtbError(f"could not give {TESTS_MOUNT} to [verifier] user {user!r}: {owned.stderr.strip()[:300]}")


async def check_verifier_user(env: Environment, task: Task) -> None:
    """:class:`TaskInvalidError` when ``[verifier] user`` does not exist in ``env``.

    Only meaningful on a container of the clean image that no agent work has touched yet: there a missing user
    is the task's own error. Costs one exec, and none when the task leaves the user unset.
    """
    user = task.config.verifier.user
    if not user:
        return
    result = await env.exec("true", user=user, timeout_sec=60)
    missing = _missing_user(result)
    if missing is not None:
        raise TaskInvalidError(
            f"{task.path / 'task.toml'}: [verifier] user {user!r} does not exist in the image built from "
            f"environment/Dockerfile ({missing}); create it there (e.g. RUN useradd) or change [verifier] user"
        )


def _missing_user(result: ExecResult) -> str | None:
    """The engine's "unable to find user" message when an exec could not start for want of its user (exit 126;
    None when the engine had not recorded it yet)."""
    if result.exit_code not in (126, None) or result.timed_out:
        return None
    found = _NO_SUCH_USER.search(result.stdout + result.stderr)
    return found.group(0) if found else None


async def install_artifacts(
    verifier_env: Environment, snapshot: ArtifactSnapshot, task_user: str | None = None
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
    for path, archive in snapshot.tars.items():
        if archive is None:
            continue
        parent = posixpath.dirname(path.rstrip("/")) or "/"
        try:
            await verifier_env.upload_tar(archive, parent, make_dest=False)
        except ArchiveRefusedError as exc:
            # The archive is sanitized, so what the engine refuses is the agent's content (names, sizes).
            raise ArtifactsRefusedError(f"the verifier container refused the artifacts of {path}: {exc}") from exc


async def collect_output(env: Environment, output_path: str, phase_dir: Path) -> None:
    """Download the verifier's output directory into ``phase_dir/output`` (safe extraction)."""
    try:
        sanitized = await env.download_sanitized(output_path)
    except UnsafeArchiveError as exc:  # the verifier's own output: its fault, never the harness's
        raise VerifierError(f"the verifier output {output_path} could not be collected: {exc}") from exc
    target = phase_dir / "output"
    (phase_dir / REFUSED_OUTPUT).unlink(missing_ok=True)
    if sanitized is not None and sanitized.refused:
        # Kept so the reward parser can say a reward file was a link or a fifo rather than that it was missing.
        root = posixpath.basename(output_path.rstrip("/")) + "/"
        refused = [line.removeprefix(root) for line in sanitized.refused]
        if sanitized.n_refused > len(sanitized.refused):
            refused.append(f"... and {sanitized.n_refused - len(sanitized.refused)} more")
        write_text_atomic(phase_dir / REFUSED_OUTPUT, "\n".join(refused) + "\n")
    if sanitized is None:
        target.mkdir(parents=True, exist_ok=True)
        return
    staging = phase_dir / ".output-download"
    try:
        await asyncio.to_thread(safe_extract, sanitized, staging)
    finally:
        sanitized.close()
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
        missing_user = _missing_user(result)
        if missing_user is not None:
            # Seen only after the agent's work is in place (shared mode, or artifacts under /etc), so the agent may
            # have caused it: counted as a verifier error. A clean image without the user is caught by
            # check_verifier_user as task_invalid before this.
            raise VerifierError(
                f"tests/test.sh could not start as [verifier] user {task.config.verifier.user!r}: {missing_user}"
            )
        refused_file = phase_dir / REFUSED_OUTPUT
        refused = refused_file.read_text(encoding="utf-8").splitlines() if refused_file.is_file() else []
        parsed = await asyncio.to_thread(parse_reward_dir, phase_dir / "output", shown_as=OUTPUT_DIR, refused=refused)
        outcome.reward = parsed.reward
        outcome.subtasks = list(parsed.subtasks)
        outcome.source = parsed.source
    except VerifierError as exc:
        exit_note = "" if outcome.exit_code in (0, None) else f" (test.sh exited {outcome.exit_code})"
        outcome.error = ErrorInfo(error_class=exc.error_class, message=f"{exc}{exit_note}")
        outcome.reward = None
    except ArtifactsRefusedError as exc:
        outcome.error = ErrorInfo(error_class=exc.error_class, message=str(exc))
        outcome.reward = None
    except TaskInvalidError:
        raise  # the task's own error ends the trial as task_invalid, never retried as a harness error
    except LhtbError as exc:
        outcome.error = ErrorInfo(error_class=ErrorClass.HARNESS_ERROR, message=str(exc), retryable=True)
        outcome.reward = None
    outcome.duration_sec = round(time.monotonic() - started, 3)
    return outcome


async def run_verifier(
    task: Task,
    verifier_env: Environment,
    snapshot: ArtifactSnapshot,
    phase_dir: Path,
    *,
    phase: str = "final",
    seed: int | None = None,
) -> VerifierOutcome:
    """Separate mode: install the artifacts, run tests/test.sh under the verifier timeout, parse the reward.

    ``seed`` becomes LHTB_VERIFY_SEED (the hidden cases); ``snapshot`` stays open (it may be graded again);
    whoever took it closes it."""
    phase_dir.mkdir(parents=True, exist_ok=True)
    if snapshot.refused:
        write_text_atomic(phase_dir / "refused-artifacts.txt", "\n".join(snapshot.refused) + "\n")
    if snapshot.fault is not None:
        message = f"artifacts refused, graded 0: {snapshot.fault}"
        write_text_atomic(phase_dir / "refused-artifacts.txt", "\n".join([*snapshot.refused, message]) + "\n")
        error = ErrorInfo(error_class=ErrorClass.ARTIFACTS_REFUSED, message=message)
        return VerifierOutcome(phase=phase, error=error)

    async def run_tests() -> ExecResult:
        await install_artifacts(verifier_env, snapshot, task.config.verifier.user)
        result = await verifier_env.exec(
            f"bash {TESTS_MOUNT}/test.sh",
            user=task.config.verifier.user,
            env=seed_env(seed),
            timeout_sec=task.config.verifier.timeout_sec,
        )
        await collect_output(verifier_env, OUTPUT_DIR, phase_dir)
        return result

    return await grade_outcome(task, phase, phase_dir, run_tests)
