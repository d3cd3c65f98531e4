"""The inputs gate's spoiled snapshot: public data files the agent left as the image shipped them become junk.

A verifier that recomputes expected answers from the agent-writable workdir lets an agent swap in trivial
inputs. Graded on a snapshot whose untouched public data files hold junk, a verifier that uses its own copies
(under ``tests/``) gives the gold solution the same reward; one that reads the workdir's copies does not.
Files the gold solution's own programs read while graded are declared in ``[qa] runtime_inputs``.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from lhtb.environments.tarsafe import SanitizedArchive
from lhtb.tasks.loader import Task
from lhtb.verifier.separate import ArtifactSnapshot

# Data, not code or build files: what a verifier could recompute answers from.
DATA_SUFFIXES = frozenset({
    ".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".txt", ".dat", ".log", ".xml", ".yaml", ".yml", ".npy",
    ".npz", ".parquet", ".bin", ".raw", ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".svg", ".wav", ".flac",
    ".mp3", ".nc", ".h5", ".hdf5", ".sqlite", ".db", ".gz", ".zst", ".xz", ".bz2", ".lhpk", ".mat", ".tar",
    ".zip",
})  # fmt: skip
JUNK = b"\x00lhtb inputs gate: this public input was replaced\x00\n"


def _files(snapshot: ArtifactSnapshot) -> Iterator[tuple[str, tarfile.TarInfo, bytes]]:
    """(container path, member, content) of every regular file in ``snapshot``."""
    for path, archive in snapshot.tars.items():
        if archive is None:
            continue
        parent = posixpath.dirname(path.rstrip("/")) or "/"
        with tarfile.open(fileobj=archive.reader(), mode="r:") as source:
            for member in source:
                handle = source.extractfile(member) if member.isfile() else None
                data = handle.read() if handle is not None else b""
                yield posixpath.normpath(posixpath.join(parent, member.name)), member, data


def shipped_files(snapshot: ArtifactSnapshot) -> dict[str, str]:
    """Container path → sha256 of each file in a snapshot of the task's clean image (before any agent ran)."""
    return {path: hashlib.sha256(data).hexdigest() for path, member, data in _files(snapshot) if member.isfile()}


def _declared(task: Task, container_path: str) -> bool:
    workdir = task.config.environment.workdir
    for declared in task.config.qa.runtime_inputs:
        full = declared if declared.startswith("/") else posixpath.join(workdir, declared)
        if posixpath.normpath(full) == container_path:
            return True
    return False


def spoil_public_inputs(
    snapshot: ArtifactSnapshot, shipped: dict[str, str], task: Task
) -> tuple[ArtifactSnapshot, list[str]]:
    """A copy of ``snapshot`` in which every data file still as the image shipped it (same path, same bytes)
    is junk, and the container paths spoiled."""
    spoiled: list[str] = []
    tars: dict[str, SanitizedArchive | None] = {}
    for path, archive in snapshot.tars.items():
        if archive is None:
            tars[path] = None
            continue
        out = tempfile.TemporaryFile(prefix="lhtb-spoiled-")  # noqa: SIM115 - owned by the returned snapshot
        one = ArtifactSnapshot(tars={path: archive}, refused=[])
        with tarfile.open(fileobj=out, mode="w:") as dest:
            for container_path, member, data in _files(one):
                if not member.isfile():
                    dest.addfile(member)
                    continue
                if (
                    data
                    and Path(member.name).suffix.lower() in DATA_SUFFIXES
                    and shipped.get(container_path) == hashlib.sha256(data).hexdigest()
                    and not _declared(task, container_path)
                ):
                    data = JUNK
                    spoiled.append(container_path)
                member.size = len(data)
                dest.addfile(member, io.BytesIO(data))
        tars[path] = SanitizedArchive(file=out, size=out.tell(), n_members=archive.n_members)
    return ArtifactSnapshot(tars=tars, refused=list(snapshot.refused), fault=snapshot.fault), spoiled
