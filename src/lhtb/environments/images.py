"""Base images built without a registry, and task images cached by the hash of their build context."""

from __future__ import annotations

import asyncio
import hashlib
import io
import re
import shutil
import subprocess
import tarfile
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path

from lhtb.environments.docker_client import LABEL_CONTENT_HASH, LABEL_MANAGED, get_client
from lhtb.errors import EnvironmentBuildError

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


def _run_build(*, log: Logger, timeout: float | None = None, **kwargs: object) -> None:
    output: list[str] = []
    for chunk in get_client().api.build(rm=True, forcerm=True, network_mode="host", decode=True, **kwargs):
        if "stream" in chunk:
            output.append(chunk["stream"])
        if "error" in chunk:
            tail = "".join(output)[-3000:]
            raise EnvironmentBuildError(f"docker build failed: {chunk['error'].strip()}\n{tail}")
    log("".join(output)[-300:].strip().splitlines()[-1] if output else "built")


# ---- task images -------------------------------------------------------------------------------------------

_FROM_RE = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.IGNORECASE | re.MULTILINE)


def context_hash(environment_dir: Path) -> str:
    """Hash of every file's path, mode and bytes in the build context, plus the ids of the base images."""
    digest = hashlib.sha256()
    for path in sorted(environment_dir.rglob("*")):
        relative = path.relative_to(environment_dir).as_posix()
        if path.is_symlink():
            digest.update(f"L {relative} -> {path.readlink()}\n".encode())
        elif path.is_file():
            digest.update(f"F {relative} {path.stat().st_mode & 0o777}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    dockerfile = (environment_dir / "Dockerfile").read_text(encoding="utf-8")
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


def task_image_tag(task_name: str, content: str) -> str:
    safe = re.sub(r"[^a-z0-9_.-]", "-", task_name.lower())[:100]
    return f"{TASK_IMAGE_REPO}/{safe}:{content}"


# One lock per tag and event loop: an asyncio.Lock binds to the loop that first waits on it, and every job
# (``asyncio.run``) has its own loop, so a lock shared across jobs in one process would fail in the second job.
_build_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


async def ensure_task_image(
    task_name: str, environment_dir: Path, *, timeout_sec: float, log: Logger = lambda _m: None
) -> tuple[str, bool]:
    """The tag of the task's image, building it only when no image with the same content hash exists."""
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
            log=log,
        )
        try:
            await asyncio.wait_for(build, timeout_sec)
        except TimeoutError as exc:
            raise EnvironmentBuildError(f"building {task_name} exceeded build_timeout_sec={timeout_sec:.0f}") from exc
        return tag, True
