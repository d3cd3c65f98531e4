"""Atomic file writes: a kill -9 at any moment leaves either the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
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
