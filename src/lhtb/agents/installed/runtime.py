"""A Python CLI agent's packages, installed once on the host and bind-mounted read-only into task containers.

Task containers have no network and their Python has no pip, so a Python agent cannot be installed inside
them. Instead the host's pip installs the agent's wheels (binary only, for the container's interpreter:
CPython 3.11 on manylinux, which is what ``lhtb/python:bookworm`` runs) into a cache directory. The agent
then runs as ``python3 -s`` with that directory put first on ``sys.path`` by its launcher, and only there:
commands the agent starts see the image's own Python packages, not the agent's.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from lhtb.errors import AgentSetupError
from lhtb.fs import install_once

TARGET_PYTHON = "3.11"  # the interpreter of lhtb/python:bookworm (Debian 12)
_MANYLINUX = ("manylinux2014", "manylinux_2_17", "manylinux_2_24", "manylinux_2_27", "manylinux_2_28")
INSTALL_TIMEOUT_SEC = 1800.0
CONTAINER_RUNTIME_DIR = "/opt/lhtb-agent-runtime"
_DONE = ".lhtb-complete"


def cache_root() -> Path:
    return Path(os.environ.get("LHTB_AGENT_CACHE", Path.home() / ".cache" / "lhtb" / "agents"))


def _platform_args() -> list[str]:
    machine = platform.machine() or "x86_64"
    args = ["--only-binary=:all:", "--python-version", TARGET_PYTHON, "--implementation", "cp"]
    args += ["--abi", f"cp{TARGET_PYTHON.replace('.', '')}"]
    for tag in _MANYLINUX:
        args += ["--platform", f"{tag}_{machine}"]
    return args


def ensure_runtime(name: str, packages: tuple[str, ...]) -> Path:
    """The host directory holding ``packages`` for the container's Python; installed on first use (locked)."""
    key = hashlib.sha256(json.dumps([list(packages), TARGET_PYTHON, platform.machine()]).encode()).hexdigest()[:12]

    def build(partial: Path) -> None:
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
        command += ["--target", str(partial), *_platform_args(), *packages]
        try:
            subprocess.run(command, check=True, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SEC)
        except subprocess.CalledProcessError as exc:
            failure = f"{name}: installing {' '.join(packages)} on the host failed: {exc.stderr[-600:]}"
            raise AgentSetupError(failure) from exc
        except subprocess.TimeoutExpired as exc:
            raise AgentSetupError(f"{name}: installing {' '.join(packages)} took over {exc.timeout:.0f} s") from exc
        (partial / _DONE).write_text(json.dumps({"packages": list(packages), "python": TARGET_PYTHON}) + "\n")

    # Trials of one job may all set up the same agent at once: one installs, the others wait for it.
    target, _built = install_once(cache_root() / f"{name}-{key}", build, done=_DONE)
    return target


def launcher(entry: str, prog: str) -> str:
    """``python3 -s -c ...`` running ``module:function`` with the runtime first on ``sys.path`` (this process only)."""
    module, function = entry.split(":")
    code = (
        f"import sys; sys.path.insert(0, {CONTAINER_RUNTIME_DIR!r}); sys.argv[0] = {prog!r}; "
        f"from {module} import {function}; sys.exit({function}())"
    )
    return f'python3 -s -c "{code}"'
