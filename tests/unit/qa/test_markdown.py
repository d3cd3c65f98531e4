"""The task catalogue (docs/tasks.md): a check rewrites the tasks it measured and keeps every other task."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.qa.lock import held_report
from lhtb.qa.markdown import measured, update_tasks_markdown
from lhtb.results.models import QaGate, QaReport, QaTaskReport, Subtask


def task(name: str, category: str, baseline: float, subtask: str = "hidden_a") -> QaTaskReport:
    return QaTaskReport(
        task=name,
        path=f"tasks/{name}",
        category=category,
        description=f"{name} does things.",
        gates=[QaGate(name="oracle = 1.0", passed=True)],
        rewards={"oracle": 1.0, "nop": 0.0, "baseline": baseline},
        subtasks=[
            Subtask(name=subtask, weight=2, score=1.0),
            Subtask(name="public", weight=1, score=1.0, visibility="public"),
        ],
        expert_time_estimate_min=150,
        agent_timeout_sec=7200,
    )


def test_update_rewrites_measured_tasks_and_keeps_the_others() -> None:
    first = update_tasks_markdown(None, [task("b-task", "zeta", 0.2), task("a-task", "alpha", 0.3)])
    assert first.index("| [a-task](#a-task) | alpha") < first.index("| [b-task](#b-task) | zeta")
    assert "## b-task" in first and "| hidden_a | binary | hidden | 2 |" in first

    second = update_tasks_markdown(first, [task("b-task", "zeta", 0.25, subtask="hidden_new"), task("c", "mid", 0.1)])
    rows = [line for line in second.splitlines() if line.startswith("| [")]
    assert [row.split("]")[0] for row in rows] == ["| [a-task", "| [c", "| [b-task"]  # by category, then name
    assert "0.300" in rows[0] and "0.250" in rows[2]  # a-task kept as it was, b-task rewritten
    b_section = second[second.index("## b-task") :]
    assert "hidden_new" in b_section and "| hidden_a |" not in b_section
    assert second.count("## a-task") == 1 and "a-task does things." in second
    assert update_tasks_markdown(second, []) == second  # nothing measured: the file is unchanged
    assert "Failed gates" not in second

    failing = task("c", "mid", 0.1)
    failing.gates.append(QaGate(name="baseline spread ≤ ±0.03", passed=False, detail="max - min = 0.0657"))
    third = update_tasks_markdown(second, [failing])
    assert "Failed gates: baseline spread ≤ ±0.03 (max - min = 0.0657)." in third
    assert "| [c](#c) | mid |" in third and "| 1/2 |" in third


def test_held_and_unmeasured_reports_do_not_replace_entries(tmp_path: Path) -> None:
    failed_early = QaTaskReport(task="a-task", path="tasks/a-task", gates=[QaGate(name="valid", passed=False)])
    reports = [held_report("a-task", tmp_path / "lock.json"), failed_early, task("b-task", "zeta", 0.2)]
    assert [t.task for t in measured(reports)] == ["b-task"]


def test_markdown_command_merges_reports_and_names_a_broken_one(tmp_path: Path) -> None:
    old = QaReport(created_at=datetime.now(UTC), lhtb_version="0", tasks=[task("a-task", "alpha", 0.3)])
    new = QaReport(created_at=datetime.now(UTC), lhtb_version="0", tasks=[task("a-task", "alpha", 0.4)])
    (tmp_path / "old.json").write_text(old.model_dump_json())
    (tmp_path / "new.json").write_text(new.model_dump_json())
    out = tmp_path / "tasks.md"
    runner = CliRunner()
    result = runner.invoke(
        app, ["tasks", "markdown", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "0.400" in out.read_text() and "0.300" not in out.read_text()  # the later report wins

    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"created_at": "now", "tasks": []}))
    before = out.read_text()
    result = runner.invoke(app, ["tasks", "markdown", str(broken), "-o", str(out)])
    assert result.exit_code != 0
    assert "broken.json" in result.output and "created_at" in result.output
    assert out.read_text() == before  # nothing lost
