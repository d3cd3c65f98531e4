"""Small task directories written on the fly, importable by name from any test (``from taskfactory import ...``:
``conftest`` names a different module depending on which tests run)."""

from __future__ import annotations

import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def write_task(
    root: Path,
    name: str,
    *,
    solve: str = "echo hello > /app/out.txt",
    test_sh: str | None = None,
    dockerfile: str = "FROM lhtb/python:bookworm\nWORKDIR /app\n",
    toml: str = "",
    top: str = "",
    agent_timeout: float = 60,
    verifier_timeout: float = 60,
) -> Path:
    """A minimal Harbor-layout task; its default verifier gives 1.0 iff /app/out.txt holds "hello".

    ``top`` holds top-level task.toml keys, ``toml`` tables appended after the defaults.
    """
    task = root / name
    for sub in ("environment", "tests", "solution"):
        (task / sub).mkdir(parents=True, exist_ok=True)
    (task / "task.toml").write_text(
        top
        + textwrap.dedent(
            f"""\
            [metadata]
            category = "smoke"
            [agent]
            timeout_sec = {agent_timeout}
            [verifier]
            timeout_sec = {verifier_timeout}
            """
        )
        + toml
    )
    (task / "instruction.md").write_text(f"Task {name}: write hello to /app/out.txt\n")
    (task / "environment" / "Dockerfile").write_text(dockerfile)
    if test_sh is None:
        test_sh = (
            'if [ "$(cat /app/out.txt 2>/dev/null)" = hello ]; then echo 1; else echo 0; fi'
            " > /logs/verifier/reward.txt\n"
        )
    (task / "tests" / "test.sh").write_text("#!/bin/bash\n" + test_sh)
    (task / "solution" / "solve.sh").write_text("#!/bin/bash\n" + solve + "\n")
    return task
