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
    args = ["tasks", "check", str(good), str(bad), "--report", str(report_path), "-n", "2", "--no-audit"]
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
