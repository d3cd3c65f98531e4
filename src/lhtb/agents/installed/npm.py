"""CLI agents from the npm registry, installed once on the host into a versioned cache and bind-mounted
read-only into task containers, like the Python agents' runtimes (runtime.py).

Task containers have no network, so ``npm install -g`` inside them cannot work; and a CLI fetched at run time
would be whatever the registry serves that day. Here each agent is pinned: the npm package and version, the
platform package that carries its native binary, npm's integrity hash of that package (sha512, from
``package-lock.json``) and the sha256 of the binary itself. The host's npm installs it (``--ignore-scripts``:
no install script runs on the host) into ``<cache>/npm/<name>-<version>``; every use checks the binary's
sha256 again, so a cache edited or corrupted since is refused, never run. Both CLIs are native executables
(Codex a static musl binary, Claude Code a glibc one, Debian 12's), so the task image needs no Node.js.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from lhtb.agents.installed.runtime import cache_root
from lhtb.errors import AgentSetupError
from lhtb.fs import install_once, sha256_file

INSTALL_TIMEOUT_SEC = 900.0
CONTAINER_NPM_DIR = "/opt/lhtb-agent-npm"
MANIFEST = "lhtb-npm-install.json"


@dataclass(frozen=True)
class NpmAgent:
    """One pinned npm CLI: what to install and what must come out of it."""

    name: str
    package: str  # "@openai/codex"
    version: str
    platform_package: str  # the package holding the native binary, as npm names it under node_modules/
    integrity: str  # npm's sha512 integrity of that platform package (package-lock.json)
    binary: str  # the executable, relative to the platform package's directory
    sha256: str  # of the executable

    @property
    def container_dir(self) -> str:
        return f"{CONTAINER_NPM_DIR}/{self.name}"

    @property
    def container_binary(self) -> str:
        return f"{self.container_dir}/{self.binary}"


class NpmInstallRecord(BaseModel):
    """``lhtb-npm-install.json`` in a cache entry: what was installed and what it was checked against."""

    model_config = ConfigDict(extra="forbid")

    name: str
    package: str
    version: str
    platform_package: str
    integrity: str
    binary: str
    sha256: str
    installed_at: datetime


def _entry(agent: NpmAgent) -> Path:
    return cache_root() / "npm" / f"{agent.name}-{agent.version}"


def _checked(agent: NpmAgent, prefix: Path) -> Path:
    """The platform package's directory once its integrity and binary match the pins; raises otherwise."""
    lock_file = prefix / "package-lock.json"
    try:
        packages = json.loads(lock_file.read_text())["packages"]
    except (OSError, ValueError, KeyError) as exc:
        raise AgentSetupError(f"{agent.name}: {lock_file} is missing or unreadable: {exc}") from exc
    key = f"node_modules/{agent.platform_package}"
    found = (packages.get(key) or {}).get("integrity")
    if found != agent.integrity:
        raise AgentSetupError(
            f"{agent.name}: {key} in {lock_file} has integrity {found!r}, pinned {agent.integrity!r}: "
            f"not the pinned {agent.package}@{agent.version}"
        )
    directory = prefix / "node_modules" / agent.platform_package
    binary = directory / agent.binary
    if not binary.is_file():
        raise AgentSetupError(f"{agent.name}: {binary} is missing from the install")
    actual = sha256_file(binary)
    if actual != agent.sha256:
        raise AgentSetupError(f"{agent.name}: {binary} has sha256 {actual}, pinned {agent.sha256}: refused")
    return directory


def ensure_npm_agent(agent: NpmAgent) -> Path:
    """The host directory to mount at ``agent.container_dir``; installed on first use (locked), checked always."""

    def build(partial: Path) -> None:
        if shutil.which("npm") is None:
            raise AgentSetupError(f"{agent.name}: npm is not installed on this machine (apt-get install npm)")
        command = ["npm", "install", "--prefix", str(partial), "--no-audit", "--no-fund", "--ignore-scripts"]
        command += ["--loglevel=error", f"{agent.package}@{agent.version}"]
        try:
            subprocess.run(command, check=True, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SEC)
        except subprocess.CalledProcessError as exc:
            detail = (exc.stderr or exc.stdout or "")[-600:]
            raise AgentSetupError(
                f"{agent.name}: npm install {agent.package}@{agent.version} failed: {detail}"
            ) from exc
        except subprocess.TimeoutExpired as exc:
            raise AgentSetupError(f"{agent.name}: npm install took over {exc.timeout:.0f} s") from exc
        _checked(agent, partial)
        record = NpmInstallRecord(
            name=agent.name, package=agent.package, version=agent.version, platform_package=agent.platform_package,
            integrity=agent.integrity, binary=agent.binary, sha256=agent.sha256, installed_at=datetime.now(UTC),
        )  # fmt: skip
        (partial / MANIFEST).write_text(record.model_dump_json(indent=2) + "\n")

    # The trials of a job set up the same agent at once: one installs, the others wait; every use is checked.
    entry, _built = install_once(_entry(agent), build, done=MANIFEST)
    return _checked(agent, entry)
