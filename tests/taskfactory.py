"""Small task directories written on the fly, importable by name from any test (``from taskfactory import ...``:
``conftest`` names a different module depending on which tests run)."""

from __future__ import annotations

import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _with_lhtb_choices(text: str) -> str:
    """``text`` with ``environment_mode = "separate"`` and ``allow_internet = false`` where it is silent on them
    (as every bundled task is explicit); text that is not valid TOML is left for the test that wrote it."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
    except TOMLKitError:
        return text
    verifier = doc.setdefault("verifier", tomlkit.table())
    environment = doc.setdefault("environment", tomlkit.table())
    agent = doc.get("agent", {})
    if isinstance(verifier, dict) and "environment_mode" not in verifier and "environment" not in verifier:
        verifier["environment_mode"] = "separate"
    networked = ("network_mode", "allow_internet")
    if isinstance(environment, dict) and not any(k in environment for k in networked) and "network_mode" not in agent:
        environment["allow_internet"] = False
    return tomlkit.dumps(doc)


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
    lhtb_choices: bool = True,
) -> Path:
    """A minimal Harbor-layout task; its default verifier gives 1.0 iff /app/out.txt holds "hello".

    ``top`` holds top-level task.toml keys, ``toml`` tables appended after the defaults. With ``lhtb_choices``
    the task states what lhtb's own tasks state (a separate verifier, no network) unless ``toml`` says otherwise;
    without it the task is silent and gets Harbor's defaults.
    """
    task = root / name
    for sub in ("environment", "tests", "solution"):
        (task / sub).mkdir(parents=True, exist_ok=True)
    text = (
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
    (task / "task.toml").write_text(_with_lhtb_choices(text) if lhtb_choices else text)
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
