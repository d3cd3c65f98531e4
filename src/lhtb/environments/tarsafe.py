"""Tar streams in and out of sandboxes, with the checks that keep an archive inside its destination.

An agent controls the files it leaves behind, so an artifact archive may hold absolute names, ``..`` segments,
links that point out of the artifact root, hard links to members that were refused, or device nodes. Such
members are refused: dropped from the archive and reported, never followed or extracted. What is kept always
extracts (and uploads into a container) cleanly.

Archives stream: the source is read member by member and the sanitized copy is written to a temporary file, so
harness memory stays flat whatever the agent leaves (a 3 GiB sparse file is refused from its header alone).
An archive over the size or member limits is refused as a whole with :class:`ArtifactsRefusedError`: that is
the agent's doing and is graded, never retried (docs/errors.md).
"""

from __future__ import annotations

import io
import os
import posixpath
import tarfile
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from lhtb.errors import UnsafeArchiveError

TarFilter = Callable[[tarfile.TarInfo], tarfile.TarInfo | None]

# Sum of member sizes (apparent size: a sparse file counts in full, as Docker's tar streams its zeros).
MAX_ARTIFACT_BYTES = 2 * 1024**3
MAX_ARTIFACT_MEMBERS = 200_000
MAX_IN_MEMORY_TAR_BYTES = 64 * 1024**2  # archives returned as bytes (agent logs): small, they sit in memory
MAX_REFUSED_LISTED = 1_000  # refusals beyond this are counted, not listed (the list is kept in memory and on disk)
_HEADER_BYTES = 512  # every member costs at least a header block: counted, so a million empty files add up
_COPY_BUFSIZE = 1024 * 1024


@dataclass
class SanitizedArchive:
    """The kept members as a tar in a temporary file; ``refused`` says what was dropped and why."""

    file: IO[bytes]
    size: int
    refused: list[str] = field(default_factory=list)
    n_members: int = 0
    n_refused: int = 0

    def reader(self) -> IO[bytes]:
        """The archive from its first byte, as a reader of its own (for ``put_archive``, which streams a file object).

        Readers never share a position: QA's load gate uploads one snapshot to two verifiers at once, and with one
        shared file the second upload's seek moved the first's, whose HTTP client had already sent a
        Content-Length for the rest of the file; the engine then waited for bytes that never came, until the
        Docker client's 600 s read timeout made it a harness error (an oracle's load gate failed three times
        running on av-sync-audit)."""
        self.file.flush()  # the views read the file itself: what the writer still buffers must reach it first
        return io.BufferedReader(_PositionalReader(self.file.fileno()), buffer_size=_COPY_BUFSIZE)

    @property
    def data(self) -> bytes:
        """The whole archive in memory: only for archives known to be small (agent logs, verifier output)."""
        return self.reader().read()

    def close(self) -> None:
        self.file.close()


class _PositionalReader(io.RawIOBase):
    """A read-only, seekable view of an open file with a position of its own (``os.pread``): many may read one
    archive at once. It reads through a descriptor of its own (a dup), so an upload still streaming when the
    archive is closed (an interim verification cut off) reads on from the same file, never from whatever file
    the number is reused for."""

    def __init__(self, fd: int) -> None:
        self._fd = os.dup(fd)
        self._position = 0
        self._size = os.fstat(self._fd).st_size

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._size}[whence]
        self._position = max(base + offset, 0)
        return self._position

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = os.pread(self._fd, len(buffer), self._position)
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)


class _ChunkReader(io.RawIOBase):
    """A read-only file over an iterable of byte chunks (the docker SDK's ``get_archive`` stream)."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._view = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._view:
            try:
                self._view = memoryview(next(self._chunks))
            except StopIteration:
                return 0
        n = min(len(buffer), len(self._view))
        buffer[:n] = self._view[:n]
        self._view = self._view[n:]
        return n

    def close(self) -> None:
        close = getattr(self._chunks, "close", None)
        if close is not None:  # a generator over an HTTP response: stop the transfer
            close()
        super().close()


def _inside(root: str, path: str) -> bool:
    normal = posixpath.normpath(path)
    return normal == root or normal.startswith(root.rstrip("/") + "/")


def _printable(name: str) -> str:
    return repr(name) if any(ord(c) < 32 or c == "\x7f" for c in name) else name


def _key(name: str) -> str:
    """A member name as tar extraction sees it: ``./a//b/`` and ``a/b`` are the same path."""
    return posixpath.normpath(name.lstrip("/")) if name else ""


def member_problem(member: tarfile.TarInfo) -> str | None:
    """Why ``member`` may not be extracted, or None when it is safe. Paths are judged relative to the root."""
    name = member.name
    if "\x00" in name or "\x00" in member.linkname:
        return "NUL byte in name"
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


class _Sanitizer:
    """The state of one pass: what was kept so far decides whether a later link or path can be kept."""

    def __init__(self, max_bytes: int, max_members: int) -> None:
        self.max_bytes = max_bytes
        self.max_members = max_members
        self.total = 0
        self.biggest: tuple[int, str] = (0, "")
        self.seen: set[str] = set()
        self.linkable: set[str] = set()  # kept regular files and hard links: valid hard-link targets
        self.not_dirs: set[str] = set()  # kept non-directories: nothing may be extracted beneath them
        self.refused: list[str] = []
        self.n_refused = 0

    def count(self, member: tarfile.TarInfo, n_seen: int) -> None:
        """Charge ``member`` against the limits; over a limit the whole archive is refused."""
        if n_seen > self.max_members:
            raise UnsafeArchiveError(f"artifacts hold more than {self.max_members} files, directories and links")
        self.total += member.size + _HEADER_BYTES
        if member.size > self.biggest[0]:
            self.biggest = (member.size, member.name)
        if self.total > self.max_bytes:
            size, name = self.biggest
            raise UnsafeArchiveError(
                f"artifacts exceed the size limit of {self.max_bytes} bytes (apparent size, sparse files count in "
                f"full); the biggest member is {_printable(name)} ({size} bytes)"
            )

    def refuse(self, member: tarfile.TarInfo, problem: str) -> None:
        self.n_refused += 1
        if len(self.refused) < MAX_REFUSED_LISTED:
            self.refused.append(f"{_printable(member.name)}: {problem}")

    def problem(self, member: tarfile.TarInfo) -> str | None:
        problem = member_problem(member)
        if problem:
            return problem
        key = _key(member.name)
        if key in self.seen:
            return "duplicate member (the first one is kept)"
        parent = posixpath.dirname(key)
        while parent:
            if parent in self.not_dirs:
                return f"inside {_printable(parent)}, which is not a directory"
            parent = posixpath.dirname(parent)
        if member.islnk():
            target = _key(member.linkname)
            if target not in self.linkable:
                return f"hard link to a member that is not in the archive or not a regular file ({member.linkname})"
        return None

    def keep(self, member: tarfile.TarInfo) -> None:
        key = _key(member.name)
        self.seen.add(key)
        if member.isfile() or member.islnk():
            self.linkable.add(key)
        if not member.isdir():
            self.not_dirs.add(key)


def sanitize(
    chunks: Iterable[bytes], *, max_bytes: int = MAX_ARTIFACT_BYTES, max_members: int = MAX_ARTIFACT_MEMBERS
) -> SanitizedArchive:
    """Re-pack a tar stream keeping only safe members; the result can be extracted or uploaded anywhere.

    Raises :class:`UnsafeArchiveError` (an agent fault when the archive is the agent's) when the stream is not
    a tar or exceeds ``max_bytes`` (sum of member sizes) or ``max_members``.
    """
    source_file = _ChunkReader(chunks)
    out = tempfile.TemporaryFile(prefix="lhtb-artifacts-")  # noqa: SIM115 - returned open, closed by the owner
    state = _Sanitizer(max_bytes, max_members)
    n_members = n_seen = 0
    try:
        with (
            tarfile.open(fileobj=source_file, mode="r|", bufsize=_COPY_BUFSIZE) as source,
            tarfile.TarFile(fileobj=out, mode="w", copybufsize=_COPY_BUFSIZE) as sink,
        ):
            while (member := source.next()) is not None:
                # Stream mode keeps every TarInfo it has read; dropping them keeps memory flat.
                source.members.clear()  # type: ignore[attr-defined]
                sink.members.clear()  # type: ignore[attr-defined]
                n_seen += 1
                state.count(member, n_seen)
                problem = state.problem(member)
                if problem:
                    state.refuse(member, problem)
                    continue
                payload = source.extractfile(member) if member.isfile() else None
                # No setuid/setgid: verifiers run the agent's programs unprivileged, a setuid-root copy of an
                # interpreter in the artifacts would hand them root in the verifier container.
                member.mode &= ~0o6000
                sink.addfile(member, payload)
                state.keep(member)
                n_members += 1
    except tarfile.TarError as exc:
        out.close()
        raise UnsafeArchiveError(f"artifact archive is not a valid tar stream: {exc}") from exc
    except BaseException:
        out.close()
        raise
    finally:
        source_file.close()
    size = out.tell()
    return SanitizedArchive(file=out, size=size, refused=state.refused, n_members=n_members, n_refused=state.n_refused)


def safe_extract(tar_bytes: bytes | SanitizedArchive, dest: Path) -> list[str]:
    """Extract into ``dest``, refusing unsafe members; returns what was refused."""
    dest.mkdir(parents=True, exist_ok=True)
    sanitized = tar_bytes if isinstance(tar_bytes, SanitizedArchive) else sanitize([tar_bytes])
    with tarfile.open(fileobj=sanitized.reader(), mode="r|") as archive:
        # The 'data' filter re-checks every member against dest (defence in depth).
        archive.extractall(dest, filter="data")
    return sanitized.refused


def tar_directory(source: Path | Sequence[Path], arcname: str = ".", *, filter: TarFilter | None = None) -> bytes:
    """A tar of ``source`` whose members sit under ``arcname``; symlinks are stored, not followed.

    Several sources are overlaid in order: a path in a later one replaces the same path in an earlier one (a
    multi-step task's ``steps/NAME/tests`` over its ``tests``)."""
    sources = [source] if isinstance(source, Path) else list(source)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        if len(sources) == 1:
            archive.add(sources[0], arcname=arcname, recursive=True, filter=filter)
            return out.getvalue()
        members: dict[str, Path] = {}
        for root in sources:
            for directory, dirs, files in os.walk(root):
                for name in (*dirs, *files):
                    path = Path(directory, name)
                    members[path.relative_to(root).as_posix()] = path
        archive.add(sources[-1], arcname=arcname, recursive=False, filter=filter)
        for relative in sorted(members):
            archive.add(members[relative], arcname=f"{arcname}/{relative}", recursive=False, filter=filter)
    return out.getvalue()
