"""`lhtb tasks check` on a good task and on one that breaks several gates at once."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.qa.scaffold import scaffold


def test_check_passes_a_good_task_and_names_every_broken_gate(tmp_path: Path) -> None:
    good = scaffold("good-task", tmp_path / "tasks", "software-engineering")
    bad = scaffold("bad-task", tmp_path / "tasks", "software-engineering")
    # The oracle gets the answer wrong for large inputs, a hidden reference leaks into the image, a file lacks
    # the canary, and the verifier uses the wall clock (non-deterministic).
    solve = (bad / "solution" / "solve.sh").read_text().replace("sys.argv[1:]", "sys.argv[1:200]")
    (bad / "solution" / "solve.sh").write_text(solve)
    (bad / "tests" / "reference_answers.py").write_text("# hidden reference\nANSWERS = " + repr(list(range(50))) + "\n")
    # The build regenerates the hidden file byte for byte (a generator shared by environment/ and tests/).
    regenerate = "RUN printf '# hidden reference\\nANSWERS = %s\\n' \"$(python3 -c 'print(list(range(50)))')\" > /opt/answers.py\n"
    dockerfile = (bad / "environment" / "Dockerfile").read_text() + regenerate
    (bad / "environment" / "Dockerfile").write_text(dockerfile)
    grade = (
        (bad / "tests" / "grade.py")
        .read_text()
        .replace(
            "card.write()",
            "import time\ncard.add('clock', 1, (time.time_ns() % 997) / 997, kind='continuous', visibility='hidden')"
            "\ncard.write()",
        )
    )
    (bad / "tests" / "grade.py").write_text(grade)

    report_path = tmp_path / "report.json"
    args = ["tasks", "check", str(good), str(bad), "--report", str(report_path), "-n", "2", "--no-audit", "--basic"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    report = {task["task"]: task for task in json.loads(report_path.read_text())["tasks"]}
    good_gates = {g["name"]: g["passed"] for g in report["good-task"]["gates"]}
    assert all(good_gates.values()), good_gates
    assert report["good-task"]["rewards"]["oracle"] == 1.0
    failed = {g["name"] for g in report["bad-task"]["gates"] if not g["passed"]}
    assert "oracle = 1.0" in failed
    assert "canary" in failed  # tests/reference_answers.py has none
    assert "no hidden content in image" in failed
    assert "deterministic" in failed
    leak = next(g for g in report["bad-task"]["gates"] if g["name"] == "no hidden content in image")
    assert "/opt/answers.py == tests/reference_answers.py" in leak["detail"]


def _lax_task(root: Path) -> Path:
    """A task whose gold solution is right but whose grading can be gamed in four ways at once."""
    task = scaffold("lax-task", root, "software-engineering")
    grade = task / "tests" / "grade.py"
    text = grade.read_text()
    # The hidden cases ignore the harness's seed (a fixed, public seed) ...
    text = text.replace("SEED = stress.seed_from_env(4242)", "SEED = 4242")
    # ... a subtask recomputes its expected answer from the agent-writable workdir ...
    text = text.replace(
        "card.write()",
        "from pathlib import Path\n"
        "public = [int(x) for x in Path('/app/numbers.txt').read_text().split()]\n"
        "card.binary('public_numbers', 1, lambda: solves(public), visibility='public')\n"
        "# ... and a claim the program makes about itself counts.\n"
        "claims = {'nfev': 0}\n"
        "card.binary('efficient', 1, lambda: solves([4, 5]) and claims['nfev'] < 10, visibility='public')\n"
        "card.write()",
    )
    grade.write_text(text)
    # ... and one scripted shortcut (a copy of the gold solution here) scores far above its ceiling.
    (task / "tests" / "shortcuts" / "count.sh").write_text((task / "solution" / "solve.sh").read_text())
    return task


def test_validity_gates_catch_a_gameable_task_and_the_lock_holds_results(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    good = scaffold("good-task", tasks, "software-engineering")
    lax = _lax_task(tasks)
    lock = tmp_path / "qa-lock.json"
    report_path = tmp_path / "report.json"
    args = ["tasks", "check", str(good), str(lax), "--report", str(report_path), "-n", "2", "--no-audit"]
    result = CliRunner().invoke(app, [*args, "--lock", str(lock), "--update-lock"])
    assert result.exit_code == 1, result.output
    report = {task["task"]: task for task in json.loads(report_path.read_text())["tasks"]}
    good_gates = {g["name"]: g["passed"] for g in report["good-task"]["gates"]}
    assert all(good_gates.values()), good_gates
    for gate in ("oracle = 1.0 on 5 seeds", "oracle = 1.0 under load", "inputs from tests/", "≥ 3 shortcuts"):
        assert good_gates[gate], gate
    lax_gates = {g["name"]: g for g in report["lax-task"]["gates"]}
    assert lax_gates["oracle = 1.0"]["passed"]  # the gold solution is fine; the grading is not
    failed = {name for name, gate in lax_gates.items() if not gate["passed"]}
    assert failed == {"seeded by the harness", "no self-report", "inputs from tests/", "shortcut count ≤ 0.3"}
    assert "/app/numbers.txt" in lax_gates["inputs from tests/"]["detail"]
    assert "'nfev'" in lax_gates["no self-report"]["detail"]
    # Only the task that passed is locked.
    entries = json.loads(lock.read_text())["tasks"]
    assert set(entries) == {"good-task"}
    assert entries["good-task"]["rewards"]["oracle"]["seed-4"] == 1.0

    # CI mode: an unchanged task that is not rotated in is held by its entry without being run.
    held = CliRunner().invoke(app, ["tasks", "check", str(good), "--report", str(report_path), "--no-audit",
                                    "--lock", str(lock), "--rotate", "0"])  # fmt: skip
    assert held.exit_code == 0, held.output
    gates = json.loads(report_path.read_text())["tasks"][0]["gates"]
    assert [g["name"] for g in gates] == ["lock current"]

    # A changed task is checked and fails until its entry is refreshed.
    instruction = good / "instruction.md"
    instruction.write_text(instruction.read_text() + "\nOne more sentence.\n")
    stale = CliRunner().invoke(app, ["tasks", "check", str(good), "--report", str(report_path), "--no-audit",
                                     "--basic", "--lock", str(lock), "--rotate", "0"])  # fmt: skip
    assert stale.exit_code == 1, stale.output
    gates = {g["name"]: g for g in json.loads(report_path.read_text())["tasks"][0]["gates"]}
    assert not gates["lock current"]["passed"] and "--update-lock" in gates["lock current"]["detail"]
    assert gates["oracle = 1.0"]["passed"]
