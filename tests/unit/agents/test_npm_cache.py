"""The npm agents' host cache: pinned package, integrity and binary checked at install and at every use.

A stand-in ``npm`` on PATH writes what the real one writes (package-lock.json, node_modules/<platform>/...),
so the install flow runs offline here; the real registry install is exercised by the CLI agents' end-to-end
tests.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from lhtb.agents.installed.npm import MANIFEST, NpmAgent, NpmInstallRecord, ensure_npm_agent
from lhtb.errors import AgentSetupError

BINARY = b"#!/bin/sh\necho fake-cli 1.0\n"
AGENT = NpmAgent(
    name="fake",
    package="@vendor/fake",
    version="1.0.0",
    platform_package="@vendor/fake-linux-x64",
    integrity="sha512-pinned",
    binary="bin/fake",
    sha256=hashlib.sha256(BINARY).hexdigest(),
)

FAKE_NPM = """#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
prefix = args[args.index("--prefix") + 1]
assert "--ignore-scripts" in args, args
with open(os.path.join(os.path.dirname(__file__), "calls"), "a") as log:
    log.write(" ".join(args) + "\\n")
pkg = os.path.join(prefix, "node_modules", "@vendor", "fake-linux-x64", "bin")
os.makedirs(pkg)
with open(os.path.join(pkg, "fake"), "wb") as out:
    out.write(os.environ.get("FAKE_BINARY", "#!/bin/sh\\necho fake-cli 1.0\\n").encode())
lock = {"packages": {"node_modules/@vendor/fake-linux-x64": {"integrity": os.environ.get("FAKE_INTEGRITY", "sha512-pinned")}}}
with open(os.path.join(prefix, "package-lock.json"), "w") as out:
    json.dump(lock, out)
"""


@pytest.fixture
def fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(FAKE_NPM)
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("LHTB_AGENT_CACHE", str(tmp_path / "cache"))
    return bin_dir


def test_installed_once_then_reused_and_recorded(fake_npm: Path, tmp_path: Path) -> None:
    first = ensure_npm_agent(AGENT)
    assert (first / "bin" / "fake").read_bytes() == BINARY
    assert ensure_npm_agent(AGENT) == first
    assert len((fake_npm / "calls").read_text().splitlines()) == 1  # the second use is the cache
    entry = tmp_path / "cache" / "npm" / "fake-1.0.0"
    record = NpmInstallRecord.model_validate_json((entry / MANIFEST).read_text())
    assert (record.package, record.version, record.sha256) == ("@vendor/fake", "1.0.0", AGENT.sha256)
    assert "@vendor/fake@1.0.0" in (fake_npm / "calls").read_text()  # the pinned version, nothing else


def test_a_package_other_than_the_pinned_one_is_refused(fake_npm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_INTEGRITY", "sha512-something-else")
    with pytest.raises(AgentSetupError, match="integrity"):
        ensure_npm_agent(AGENT)


def test_a_binary_other_than_the_pinned_one_is_refused(fake_npm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_BINARY", "#!/bin/sh\necho tampered\n")
    with pytest.raises(AgentSetupError, match="sha256"):
        ensure_npm_agent(AGENT)


def test_a_cache_edited_after_install_is_refused_at_use(fake_npm: Path) -> None:
    directory = ensure_npm_agent(AGENT)
    (directory / "bin" / "fake").write_bytes(b"#!/bin/sh\necho swapped\n")
    with pytest.raises(AgentSetupError, match="refused"):
        ensure_npm_agent(AGENT)


def test_the_recipes_run_the_mounted_binary(tmp_path: Path) -> None:
    from lhtb.agents.installed import RECIPES, InstalledAgent
    from lhtb.results.models import AgentSpec

    for name in ("codex", "claude-code"):
        recipe = RECIPES[name]
        assert recipe.npm is not None and len(recipe.npm.sha256) == 64
        command = InstalledAgent(recipe, AgentSpec(name=name, model="openai/m")).command()
        assert command.startswith(recipe.npm.container_binary + " "), command
