"""Shared helpers: small task directories written on the fly."""

from __future__ import annotations

from pathlib import Path

import pytest
from taskfactory import write_task


@pytest.fixture
def make_task(tmp_path: Path):
    root = tmp_path / "tasks"
    root.mkdir(exist_ok=True)

    def factory(name: str, **kwargs: object) -> Path:
        return write_task(root, name, **kwargs)  # type: ignore[arg-type]

    factory.root = root  # type: ignore[attr-defined]
    return factory
