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


def write_multi_step_task(root: Path, name: str, *, mode: str = "separate", strategy: str = "mean") -> Path:
    """A three-step Harbor task: ``create`` (its own tests, solution and staged workdir with a setup.sh, gated by
    min_reward 1.0), ``extend`` (its own tests writing two named rewards, gated on one), ``finish`` (the task's
    shared tests/ and solution/). Every step's test sources tests/lib.sh, which only the task's tests/ holds, so
    a step's verifier must see both directories. The oracle scores 1.0 and nop 0.0, in lhtb and in Harbor."""
    task = root / name
    files = {
        "task.toml": f"""\
            schema_version = "1.4"
            multi_step_reward_strategy = "{strategy}"
            artifacts = ["/app"]  # what a separate verifier gets (Harbor gives it nothing unless told)
            [task]
            name = "lhtb/{name}"
            [[steps]]
            name = "create"
            min_reward = 1.0
            [[steps]]
            name = "extend"
            min_reward = {{ correctness = 1.0 }}
            [steps.agent]
            timeout_sec = 40
            [[steps]]
            name = "finish"
            [metadata]
            category = "smoke"
            [agent]
            timeout_sec = 60
            [verifier]
            timeout_sec = 60
            environment_mode = "{mode}"
            [environment]
            network_mode = "no-network"
            """,
        "environment/Dockerfile": "FROM lhtb/python:bookworm\nWORKDIR /app\n",
        "tests/lib.sh": 'check() { [ "$(cat "$1" 2>/dev/null)" = "$2" ] && echo 1 || echo 0; }\n',
        "tests/test.sh": '#!/bin/bash\n. /tests/lib.sh\ncheck /app/final.txt "done-$(cat /app/seed.txt)" '
        "> /logs/verifier/reward.txt\n",
        "solution/solve.sh": '#!/bin/bash\necho "done-$(cat seed.txt)" > final.txt\n',
        "steps/create/instruction.md": "Write one-SEED to /app/one.txt, SEED being /app/seed.txt's content.\n",
        "steps/create/workdir/seed.txt": "42\n",
        "steps/create/workdir/setup.sh": "echo staged > staged.txt\n",
        "steps/create/tests/test.sh": '#!/bin/bash\n. /tests/lib.sh\ncheck /app/one.txt "one-$(cat /app/seed.txt)" '
        "> /logs/verifier/reward.txt\n",
        "steps/create/solution/solve.sh": '#!/bin/bash\necho "one-$(cat seed.txt)" > one.txt\n',
        "steps/extend/instruction.md": "Write two to /app/two.txt.\n",
        "steps/extend/tests/test.sh": "#!/bin/bash\n. /tests/lib.sh\n"
        'echo "{\\"correctness\\": $(check /app/two.txt two), \\"style\\": $(check /app/staged.txt staged)}" '
        "> /logs/verifier/reward.json\n",
        "steps/extend/solution/solve.sh": "#!/bin/bash\necho two > two.txt\n",
        "steps/finish/instruction.md": "Write done-SEED to /app/final.txt.\n",
    }
    for relative, text in files.items():
        path = task / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if relative == "task.toml" else text)
    return task
