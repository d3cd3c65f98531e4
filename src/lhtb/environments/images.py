"""Base images built without a registry, and task images cached by the hash of their build context."""

from __future__ import annotations

import asyncio
import hashlib
import io
import posixpath
import re
import shutil
import subprocess
import tarfile
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path

from lhtb.environments.docker_client import LABEL_CONTENT_HASH, LABEL_MANAGED, get_client
from lhtb.errors import BaseImageMissingError, EnvironmentBuildError, TaskInvalidError
from lhtb.textsafe import without_ansi

BASE_IMAGE = "lhtb/base:bookworm"
PYTHON_IMAGE = "lhtb/python:bookworm"
DEBIAN_MIRROR = "http://deb.debian.org/debian"
TASK_IMAGE_REPO = "lhtb-task"

# The Debian packages of the python variant (docs/images.md lists them with their purpose).
PYTHON_VARIANT_PACKAGES = [
    "bash", "ca-certificates", "coreutils", "procps", "psmisc", "tmux", "less", "file", "git", "make", "patch",
    "xz-utils", "bzip2", "gzip", "unzip", "zip", "python3", "python3-pytest", "python3-numpy", "python3-scipy",
    "python3-pandas", "python3-yaml", "python3-dateutil", "python3-pil",
]  # fmt: skip

PYTHON_VARIANT_DOCKERFILE = f"""FROM {BASE_IMAGE}
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
RUN apt-get update \\
 && apt-get install -y --no-install-recommends {" ".join(PYTHON_VARIANT_PACKAGES)} \\
 && rm -rf /var/lib/apt/lists/*
"""

Logger = Callable[[str], None]


def _image_label(tag: str, label: str) -> str | None:
    import docker

    try:
        image = get_client().images.get(tag)
    except docker.errors.ImageNotFound:
        return None
    return (image.labels or {}).get(label, "")


def bootstrap_base(*, mirror: str = DEBIAN_MIRROR, force: bool = False, log: Logger = print) -> bool:
    """Build lhtb/base:bookworm with debootstrap + docker import. Returns True when it built something."""
    recipe_hash = hashlib.sha256(f"debootstrap minbase bookworm {mirror}".encode()).hexdigest()[:16]
    if not force and _image_label(BASE_IMAGE, LABEL_CONTENT_HASH) == recipe_hash:
        log(f"{BASE_IMAGE} is up to date")
        return False
    if shutil.which("debootstrap") is None:
        raise EnvironmentBuildError("debootstrap is not installed: apt-get install -y debootstrap")
    with tempfile.TemporaryDirectory(prefix="lhtb-rootfs-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        log(f"debootstrap --variant=minbase bookworm from {mirror} ...")
        proc = subprocess.run(
            ["debootstrap", "--variant=minbase", "bookworm", str(rootfs), mirror],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise EnvironmentBuildError(f"debootstrap failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
        for leftover in ("var/cache/apt/archives", "var/lib/apt/lists"):
            shutil.rmtree(rootfs / leftover, ignore_errors=True)
            (rootfs / leftover).mkdir(parents=True, exist_ok=True)
        log(f"docker import as {BASE_IMAGE} ...")
        tar_proc = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        assert tar_proc.stdout is not None
        changes = [
            'CMD ["bash"]',
            "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8",
            f"LABEL {LABEL_MANAGED}=1 {LABEL_CONTENT_HASH}={recipe_hash}",
        ]
        repository, tag = BASE_IMAGE.split(":")
        get_client().api.import_image_from_stream(tar_proc.stdout, repository=repository, tag=tag, changes=changes)
        tar_proc.wait()
    return True


def bootstrap_python(*, force: bool = False, log: Logger = print) -> bool:
    """Build lhtb/python:bookworm on top of the base image, fetching Debian packages with the host network."""
    base_id = get_client().images.get(BASE_IMAGE).id
    recipe_hash = hashlib.sha256((PYTHON_VARIANT_DOCKERFILE + base_id).encode()).hexdigest()[:16]
    if not force and _image_label(PYTHON_IMAGE, LABEL_CONTENT_HASH) == recipe_hash:
        log(f"{PYTHON_IMAGE} is up to date")
        return False
    log(f"building {PYTHON_IMAGE} ({len(PYTHON_VARIANT_PACKAGES)} Debian packages) ...")
    dockerfile = PYTHON_VARIANT_DOCKERFILE.encode()
    context = io.BytesIO()
    with tarfile.open(fileobj=context, mode="w") as archive:
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(dockerfile)
        archive.addfile(info, io.BytesIO(dockerfile))
    context.seek(0)
    _run_build(
        fileobj=context,
        custom_context=True,
        tag=PYTHON_IMAGE,
        labels={LABEL_MANAGED: "1", LABEL_CONTENT_HASH: recipe_hash},
        log=log,
    )
    return True


def _run_build(*, log: Logger, dockerfile: Path | None = None, **kwargs: object) -> None:
    """Run one build. With ``dockerfile`` (a task's), failures that are properties of the task are
    :class:`TaskInvalidError` (never retried); the rest stay :class:`EnvironmentBuildError` (retried)."""
    import docker

    output: list[str] = []
    try:
        for chunk in get_client().api.build(rm=True, forcerm=True, network_mode="host", decode=True, **kwargs):
            if "stream" in chunk:
                output.append(chunk["stream"])
            if "error" in chunk:
                error = str(chunk["error"]).strip()
                _raise_if_base_missing(error, dockerfile)
                _raise_build_error(error, "".join(output)[-3000:], dockerfile)
    except docker.errors.APIError as exc:
        explanation = str(exc.explanation or exc).strip()
        _raise_if_base_missing(explanation, dockerfile)
        # A 4xx answer to the build request is the engine refusing the Dockerfile before any step ran (parse
        # error, empty file, no stage): every parameter but the Dockerfile is ours and valid.
        if dockerfile is not None and exc.is_client_error():
            raise TaskInvalidError(f"{dockerfile}: the Docker engine refused it: {explanation}") from exc
        raise EnvironmentBuildError(f"docker build failed: {explanation}") from exc
    log("".join(output)[-300:].strip().splitlines()[-1] if output else "built")


# Step failures that depend only on the task's files. Everything else (a RUN step exiting non-zero, a pull,
# the engine) may be transient — a mirror down, a full disk — and is retried as environment_build.
_TASK_BUILD_ERRORS = re.compile(
    r"^(?:(?:COPY|ADD) failed: (?:file not found|forbidden path)|invalid reference format)", re.IGNORECASE
)


def base_images(dockerfile_text: str) -> list[str]:
    """The images the Dockerfile builds from: every FROM but ``scratch``, earlier stages and ``$ARG`` forms."""
    stages: set[str] = set()
    bases: list[str] = []
    for match in _FROM_STAGE_RE.finditer(dockerfile_text):
        reference, stage = match.group(1), match.group(2)
        if reference.lower() not in stages and reference != "scratch" and "$" not in reference:
            bases.append(reference)
        if stage:
            stages.add(stage.lower())
    return list(dict.fromkeys(bases))


def missing_images(references: list[str]) -> list[str]:
    return [reference for reference in references if _base_image_id(reference) == "missing"]


def missing_base_images(dockerfile: Path) -> list[str]:
    return missing_images(base_images(read_dockerfile(dockerfile)))


def _raise_if_base_missing(error: str, dockerfile: Path | None) -> None:
    """A failed build whose base image is still not here failed pulling it: no retry brings it, say the fix."""
    if dockerfile is None:
        return
    missing = missing_base_images(dockerfile)
    if not missing:
        return
    images = ", ".join(missing)
    cause = error.splitlines()[0] if error else "the build failed"
    raise BaseImageMissingError(
        f"{dockerfile}: base image {images} is not on this machine and could not be pulled ({cause}). "
        f"Load it from a file made with `docker save {missing[0]} -o image.tar` on a machine that has it: "
        '`lhtb images load image.tar` (docs/images.md, "Machines without a registry")'
    )


def _raise_build_error(error: str, tail: str, dockerfile: Path | None) -> None:
    if dockerfile is not None and _TASK_BUILD_ERRORS.match(error):
        raise TaskInvalidError(f"{dockerfile}: the build failed: {error}")
    where = f"{dockerfile}: " if dockerfile is not None else ""
    raise EnvironmentBuildError(f"{where}docker build failed: {without_ansi(error)}\n{without_ansi(tail)}")


def load_images(archive: Path) -> list[str]:
    """``docker load`` of an image archive (``docker save`` output): how base images reach a machine with no
    registry. Returns the tags (or ids) loaded; a missing or unreadable archive is a ConfigError naming it."""
    import docker

    from lhtb.errors import ConfigError

    if not archive.is_file():
        raise ConfigError(f"{archive}: no such image archive (make one with `docker save IMAGE -o FILE.tar`)")
    try:
        with archive.open("rb") as stream:
            images = get_client().images.load(stream)
    except docker.errors.APIError as exc:
        raise ConfigError(f"{archive}: the Docker engine could not load it: {exc.explanation or exc}") from None
    return [tag for image in images for tag in (image.tags or [image.short_id])]


# ---- task images -------------------------------------------------------------------------------------------

_FROM_RE = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.IGNORECASE | re.MULTILINE)
_FROM_STAGE_RE = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?", re.IGNORECASE | re.MULTILINE)


def dockerfile_problem(dockerfile: Path) -> str | None:
    """Why ``dockerfile`` cannot build whatever the engine does (missing, empty, not UTF-8, no FROM), as a
    message naming the file; None when it looks buildable. Cheap: ``tasks list`` can call it for every task."""
    try:
        read_dockerfile(dockerfile)
    except TaskInvalidError as exc:
        return str(exc)
    return None


def dockerfile_workdir(dockerfile_text: str) -> str | None:
    """The WORKDIR the final stage sets, read without building; None when it sets none (the base image's then
    applies, unknown here) or uses a variable."""
    workdir: str | None = None
    for line in dockerfile_text.splitlines():
        words = line.strip().split(maxsplit=1)
        if not words:
            continue
        keyword = words[0].upper()
        if keyword == "FROM":
            workdir = None
        elif keyword == "WORKDIR" and len(words) == 2:
            value = words[1].strip().strip('"')
            if "$" in value or (workdir == "$" and not value.startswith("/")):
                workdir = "$"  # a variable: not known without building
            else:
                workdir = posixpath.normpath(posixpath.join(workdir or "/", value))
    return None if workdir in (None, "$") else workdir


def read_dockerfile(dockerfile: Path) -> str:
    """The Dockerfile's text; :class:`TaskInvalidError` naming the file when it cannot be a valid one."""
    try:
        data = dockerfile.read_bytes()
    except FileNotFoundError:
        raise TaskInvalidError(f"{dockerfile}: required file is missing") from None
    except OSError as exc:
        raise TaskInvalidError(f"{dockerfile}: cannot be read: {exc.strerror or exc}") from None
    if not data.strip():
        raise TaskInvalidError(f"{dockerfile}: the Dockerfile is empty; it needs at least a FROM line")
    try:
        text = data.decode("utf-8-sig")  # the engine skips a byte-order mark too
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TaskInvalidError(
            f"{dockerfile}: not UTF-8 text ({exc.reason} at byte {exc.start}, line {line}); save it as UTF-8"
        ) from None
    if not _FROM_RE.search(text):
        raise TaskInvalidError(f"{dockerfile}: has no FROM instruction; a build must start from a base image")
    return text


def context_hash(environment_dir: Path) -> str:
    """Hash of every file's path, mode and bytes in the build context, plus the ids of the base images."""
    dockerfile = read_dockerfile(environment_dir / "Dockerfile")
    digest = hashlib.sha256()
    for path in sorted(environment_dir.rglob("*")):
        relative = path.relative_to(environment_dir).as_posix()
        try:
            if path.is_symlink():
                digest.update(f"L {relative} -> {path.readlink()}\n".encode())
            elif path.is_file():
                digest.update(f"F {relative} {path.stat().st_mode & 0o777}\n".encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError as exc:  # an unreadable file in the task's build context: the build could not send it
            raise TaskInvalidError(f"{path}: cannot be read for the build: {exc.strerror or exc}") from None
    for base in _FROM_RE.findall(dockerfile):
        digest.update(f"FROM {base} {_base_image_id(base)}\n".encode())
    return digest.hexdigest()[:20]


def _base_image_id(reference: str) -> str:
    import docker

    try:
        return str(get_client().images.get(reference).id)
    except docker.errors.ImageNotFound:
        return "missing"
    except docker.errors.APIError:
        return "unresolvable"


def ensure_prebuilt_image(reference: str, task_name: str, key: str = "[verifier.environment] docker_image") -> str:
    """A prebuilt image a task names (Harbor's verifier ``docker_image``): here already, or pulled; one neither
    here nor pullable is ``BaseImageMissingError`` with the fix, never retried."""
    import docker

    if _base_image_id(reference) != "missing":
        return reference
    try:
        get_client().images.pull(reference)
    except docker.errors.DockerException as exc:
        cause = without_ansi(str(exc)).splitlines()[0] if str(exc) else "the pull failed"
        raise BaseImageMissingError(
            f"task {task_name}: {key} {reference} is not on this machine and could "
            f"not be pulled ({cause}). Load it from a file made with `docker save {reference} -o image.tar` on a "
            'machine that has it: `lhtb images load image.tar` (docs/images.md, "Machines without a registry")'
        ) from exc
    return reference


def task_image_tag(task_name: str, content: str) -> str:
    """A valid tag for any task name: a readable slug plus a hash of the exact name, so names that slug alike
    (``Foo``/``foo``, ``..ünï..``/``-n-``) never share a repository and no name makes an invalid reference."""
    slug = re.sub(r"[^a-z0-9]+", "-", task_name.lower()).strip("-")[:60].rstrip("-") or "task"
    name_hash = hashlib.sha256(task_name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{TASK_IMAGE_REPO}/{slug}-{name_hash}:{content}"


# One lock per tag and event loop: an asyncio.Lock binds to the loop that first waits on it, and every job
# (``asyncio.run``) has its own loop, so a lock shared across jobs in one process would fail in the second job.
_build_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


def substitute_bases(dockerfile_text: str, substitutes: dict[str, str]) -> str:
    """The Dockerfile with each FROM image in ``substitutes`` replaced (earlier stages and other lines unchanged)."""
    stages: set[str] = set()

    def swap(match: re.Match[str]) -> str:
        reference, stage = match.group(1), match.group(2)
        replacement = reference if reference.lower() in stages else substitutes.get(reference, reference)
        if stage:
            stages.add(stage.lower())
        start, end = match.start(1) - match.start(), match.end(1) - match.start()
        return match.group(0)[:start] + replacement + match.group(0)[end:]

    return _FROM_STAGE_RE.sub(swap, dockerfile_text)


def _substituted_context(environment_dir: Path, substitutes: dict[str, str], into: Path) -> Path:
    """A copy of the build context whose Dockerfile builds from the substitutes (its hash, and tag, differ)."""
    context = into / "context"
    shutil.copytree(environment_dir, context, symlinks=True)
    dockerfile = context / "Dockerfile"
    dockerfile.write_text(substitute_bases(read_dockerfile(dockerfile), substitutes), encoding="utf-8")
    return context


async def ensure_task_image(
    task_name: str,
    environment_dir: Path,
    *,
    timeout_sec: float,
    log: Logger = lambda _m: None,
    base_images: dict[str, str] | None = None,
) -> tuple[str, bool]:
    """The tag of the task's image, building it only when no image with the same content hash exists; with
    ``base_images``, from a copy of the context whose Dockerfile builds from those instead."""
    if base_images:
        with tempfile.TemporaryDirectory(prefix="lhtb-base-") as scratch:
            context = _substituted_context(environment_dir, base_images, Path(scratch))
            return await ensure_task_image(task_name, context, timeout_sec=timeout_sec, log=log)
    content = await asyncio.to_thread(context_hash, environment_dir)
    tag = task_image_tag(task_name, content)
    locks = _build_locks.setdefault(asyncio.get_running_loop(), {})
    lock = locks.setdefault(tag, asyncio.Lock())
    async with lock:
        if await asyncio.to_thread(_image_label, tag, LABEL_CONTENT_HASH) == content:
            return tag, False
        build = asyncio.to_thread(
            _run_build,
            path=str(environment_dir),
            tag=tag,
            labels={LABEL_MANAGED: "1", LABEL_CONTENT_HASH: content, "lhtb.task": task_name},
            dockerfile=environment_dir / "Dockerfile",
            log=log,
        )
        try:
            await asyncio.wait_for(build, timeout_sec)
        except TimeoutError as exc:
            raise EnvironmentBuildError(f"building {task_name} exceeded build_timeout_sec={timeout_sec:.0f}") from exc
        return tag, True
