"""Atomic file writes: a kill -9 at any moment leaves either the old file or the new one, never half of one."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ValidationError


def write_text_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def write_model_atomic(path: Path, model: BaseModel) -> None:
    write_text_atomic(path, model.model_dump_json(indent=2, by_alias=True) + "\n")


def first_problem(exc: ValidationError) -> str:
    """A model file's first validation problem as ``field.path: message``, so errors name the field."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    return f"{where}: {first['msg']}"


def install_once(entry: Path, build: Callable[[Path], None], *, done: str) -> tuple[Path, bool]:
    """``entry`` built once by ``build(partial_dir)`` and renamed into place, under a lock beside it.

    A cache several trials fill at the same moment (an agent's runtime, a CLI, a proxy's venv): the first builds
    it, the others wait and reuse it; a build that crashed leaves only a ``.partial`` directory, removed on the
    next try. ``done`` names a file ``build`` writes last, so its presence means the entry is whole. Returns the
    entry and whether it was built now."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    with (entry.parent / f"{entry.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (entry / done).is_file():
            return entry, False
        partial = entry.parent / f"{entry.name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
        build(partial)
        if not (partial / done).is_file():
            raise RuntimeError(f"{partial}: the build did not write {done}")
        shutil.rmtree(entry, ignore_errors=True)
        partial.rename(entry)
        return entry, True


def sha256_file(path: Path) -> str:
    """The file's sha256, read in chunks (model weights and CLI binaries run to hundreds of MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()
