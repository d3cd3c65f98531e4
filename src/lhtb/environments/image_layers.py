"""Scan a task image's own layers (not its base's) for hidden content and .git directories."""

from __future__ import annotations

import hashlib
import io
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lhtb.environments.docker_client import get_client


@dataclass
class LayerScan:
    leaked: list[str] = field(default_factory=list)  # "image path == tests/x" for hidden files found in layers
    git_dirs: list[str] = field(default_factory=list)
    n_files: int = 0


def _base_diff_ids(image_id: str) -> set[str]:
    """Layers the image shares with the lhtb base images (scanned once there, identical for every task)."""
    client = get_client()
    shared: set[str] = set()
    for base in client.images.list(name="lhtb/*"):
        if base.id == image_id:
            continue
        shared.update(base.attrs.get("RootFS", {}).get("Layers", []))
    return shared


def scan_image(tag: str, hidden_digests: dict[str, str]) -> LayerScan:
    """Stream ``docker save`` and hash every regular file of the task's own layers."""
    client = get_client()
    image = client.images.get(tag)
    shared = _base_diff_ids(image.id)
    own = [d for d in image.attrs.get("RootFS", {}).get("Layers", []) if d not in shared]
    scan = LayerScan()
    if not own:
        return scan
    layer_dirs = _overlay_dirs(image.attrs, len(own))
    if layer_dirs is not None:
        for layer_dir in layer_dirs:
            _scan_dir(layer_dir, hidden_digests, scan)
        return scan
    stream = image.save(named=False)
    raw = io.BufferedReader(_Chunks(stream), buffer_size=1 << 20)
    with tarfile.open(fileobj=raw, mode="r|") as outer:
        # docker save lists layer tars by a path ending in layer.tar; their diff id is the sha256 of the tar.
        for member in outer:
            if not member.isfile() or not member.name.endswith(".tar"):
                continue
            handle = outer.extractfile(member)
            if handle is None:
                continue
            data = handle.read()
            if "sha256:" + hashlib.sha256(data).hexdigest() not in own:
                continue
            _scan_layer(data, hidden_digests, scan)
    return scan


def _overlay_dirs(attrs: dict[str, Any], count: int) -> list[Path] | None:
    """The image's newest ``count`` layer directories when the engine is local overlay2 (fast path), else None."""
    driver = attrs.get("GraphDriver") or {}
    data = driver.get("Data") or {}
    if driver.get("Name") != "overlay2" or "UpperDir" not in data:
        return None
    dirs = [Path(data["UpperDir"])] + [Path(p) for p in (data.get("LowerDir") or "").split(":") if p]
    chosen = dirs[:count]
    return chosen if len(chosen) == count and all(d.is_dir() for d in chosen) else None


def _scan_dir(root: Path, hidden_digests: dict[str, str], scan: LayerScan) -> None:
    for path in root.rglob("*"):
        relative = "/" + path.relative_to(root).as_posix()
        if path.name == ".git" and path.is_dir() and not path.is_symlink():
            scan.git_dirs.append(relative)
        if not path.is_file() or path.is_symlink():
            continue
        scan.n_files += 1
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest in hidden_digests:
            scan.leaked.append(f"{relative} == {hidden_digests[digest]}")


def _scan_layer(data: bytes, hidden_digests: dict[str, str], scan: LayerScan) -> None:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as layer:
        for entry in layer:
            parts = entry.name.split("/")
            if ".git" in parts and entry.isdir() and parts[-1] == ".git":
                scan.git_dirs.append("/" + entry.name)
            if not entry.isfile():
                continue
            scan.n_files += 1
            content = layer.extractfile(entry)
            if content is None:
                continue
            digest = hashlib.sha256(content.read()).hexdigest()
            if digest in hidden_digests:
                scan.leaked.append(f"/{entry.name} == {hidden_digests[digest]}")


class _Chunks(io.RawIOBase):
    """A readable stream over docker's chunk iterator, for tarfile's streaming mode."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = iter(chunks)
        self._buffer = b""

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        while not self._buffer:
            try:
                self._buffer = next(self._chunks)
            except StopIteration:
                return 0
        size = min(len(target), len(self._buffer))
        target[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size
