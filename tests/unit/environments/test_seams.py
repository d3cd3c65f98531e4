"""The Environment seam holds: nothing outside ``environments/`` names the Docker implementation, and engine
calls never queue behind the event loop's default thread pool."""

from __future__ import annotations

import ast
import asyncio
import threading
from pathlib import Path

from lhtb.environments.docker_client import in_engine_thread

SRC = Path(__file__).resolve().parents[3] / "src" / "lhtb"
DOCKER_MODULES = ("docker", "lhtb.environments.docker_env", "lhtb.environments.docker_client")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_module_outside_environments_imports_docker() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if "environments" in path.relative_to(SRC).parts:
            continue
        for name in _imports(path):
            if any(name == m or name.startswith(m + ".") for m in DOCKER_MODULES):
                offenders.append(f"{path.relative_to(SRC)}: {name}")
    assert offenders == []


def test_no_module_outside_environments_names_the_docker_environment() -> None:
    named = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.rglob("*.py"))
        if "environments" not in path.relative_to(SRC).parts and "DockerEnvironment" in path.read_text()
    ]
    assert named == []


def test_engine_calls_run_while_the_default_pool_is_saturated() -> None:
    """Blocking waits that fill the loop's default executor (6 threads on two cores) must not hold up an engine
    call such as the kill of a timed-out command."""

    async def main() -> threading.Thread:
        release = threading.Event()
        loop = asyncio.get_running_loop()
        blockers = [loop.run_in_executor(None, release.wait) for _ in range(64)]
        try:
            # Queued behind the blockers, the call could never run: they wait for it (a deadlock, not a speed).
            return await asyncio.wait_for(in_engine_thread(threading.current_thread), 60)
        finally:
            release.set()
            await asyncio.gather(*blockers)

    assert asyncio.run(main()).name.startswith("lhtb-engine")
