"""Tar streams in and out of sandboxes, with the checks that keep an archive inside its destination.

An agent controls the files it leaves behind, so an artifact archive may hold absolute names, ``..`` segments,
links that point out of the artifact root, or device nodes. Such members are refused: dropped from the archive
and reported, never followed or extracted.
"""

from __future__ import annotations

import io
import posixpath
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.errors import UnsafeArchiveError

MAX_ARTIFACT_BYTES = 2 * 1024**3


@dataclass
class SanitizedArchive:
    data: bytes
    refused: list[str] = field(default_factory=list)
    n_members: int = 0


def _inside(root: str, path: str) -> bool:
    normal = posixpath.normpath(path)
    return normal == root or normal.startswith(root.rstrip("/") + "/")


def member_problem(member: tarfile.TarInfo) -> str | None:
    """Why ``member`` may not be extracted, or None when it is safe. Paths are judged relative to the root."""
    name = member.name
    if name.startswith("/") or name.startswith("\\"):
        return "absolute path"
    parts = name.split("/")
    if ".." in parts:
        return "'..' in path"
    if not (member.isfile() or member.isdir() or member.issym() or member.islnk()):
        return "special file (device, fifo or socket)"
    if member.issym():
        target = member.linkname
        if target.startswith("/"):
            return f"symlink to absolute path {target}"
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
        if resolved == ".." or resolved.startswith("../"):
            return f"symlink escaping the root ({target})"
    if member.islnk():
        target = member.linkname
        if target.startswith("/") or ".." in target.split("/"):
            return f"hard link outside the root ({target})"
    return None


def sanitize(chunks: Iterable[bytes], *, max_bytes: int = MAX_ARTIFACT_BYTES) -> SanitizedArchive:
    """Re-pack a tar stream keeping only safe members; the result can be extracted or uploaded anywhere."""
    raw = io.BytesIO()
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > max_bytes:
            raise UnsafeArchiveError(f"artifact archive exceeds {max_bytes} bytes")
        raw.write(chunk)
    raw.seek(0)
    out = io.BytesIO()
    result = SanitizedArchive(data=b"")
    try:
        with tarfile.open(fileobj=raw, mode="r|*") as source, tarfile.open(fileobj=out, mode="w") as sink:
            for member in source:
                problem = member_problem(member)
                if problem:
                    result.refused.append(f"{member.name}: {problem}")
                    continue
                payload = source.extractfile(member) if member.isfile() else None
                # No setuid/setgid: verifiers run the agent's programs unprivileged, a setuid-root copy of an
                # interpreter in the artifacts would hand them root in the verifier container.
                member.mode &= ~0o6000
                sink.addfile(member, payload)
                result.n_members += 1
    except tarfile.TarError as exc:
        raise UnsafeArchiveError(f"artifact archive is not a valid tar stream: {exc}") from exc
    result.data = out.getvalue()
    return result


def safe_extract(tar_bytes: bytes, dest: Path) -> list[str]:
    """Extract into ``dest``, refusing unsafe members; returns what was refused."""
    dest.mkdir(parents=True, exist_ok=True)
    sanitized = sanitize([tar_bytes])
    with tarfile.open(fileobj=io.BytesIO(sanitized.data), mode="r:") as archive:
        # The 'data' filter re-checks every member against dest (defence in depth).
        archive.extractall(dest, filter="data")
    return sanitized.refused


def tar_directory(source: Path, arcname: str = ".") -> bytes:
    """A tar of ``source`` whose members sit under ``arcname``; symlinks are stored, not followed."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        archive.add(source, arcname=arcname, recursive=True)
    return out.getvalue()
