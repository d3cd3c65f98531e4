"""`lhtb tasks check` and `lhtb tasks audit` tables in an 80-column terminal: every name whole on one line (users
copy them), no figure cut; a name too long for the table moves the task to lines of its own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rich.console import Console

from lhtb.cli.audit_commands import render as render_audit
from lhtb.cli.qa_commands import render as render_check
from lhtb.qa.audit_models import AuditCell, AuditReport
from lhtb.results.models import QaGate, QaTaskReport


def _shown(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True)
    console.print(renderable)
    return console.export_text()


def _report(name: str) -> QaTaskReport:
    gates = [QaGate(name=f"g{i}", passed=True, detail="") for i in range(19)]
    rewards = {"oracle": 1.0, "nop": 0.028, "baseline": 0.204}
    return QaTaskReport(task=name, path=name, gates=gates, rewards=rewards, verifier_sec=49.5, build_sec=120)


@pytest.mark.parametrize("name", ["multi-currency-reconciliation", "x" * 35, "harbor-org/" + "y" * 60])
def test_check_table_keeps_names_and_figures_whole_in_80_columns(name: str) -> None:
    text = _shown(render_check([_report(name), _report("short")], width=80))
    assert all(len(line) <= 80 for line in text.splitlines())
    assert any(name in line for line in text.splitlines())  # on one line
    assert "…" not in text and text.count("19/19") == 2 and text.count("0.204") == 2


def test_audit_table_heads_each_tasks_rows_with_its_whole_name() -> None:
    names = ["multi-currency-reconciliation", "stiff-kinetics-solver-repair"]
    cells = [
        AuditCell(task=task, mode="separate", exploit=exploit, number=3, best_reward=0.028, nop_reward=0.028, phases=4)
        for task in names
        for exploit in ("exploit-python-hooks", "exploit-reward-files")
    ]
    report = AuditReport(created_at=datetime.now(UTC), lhtb_version="0", budget_sec=60, cells=cells)
    lines = _shown(render_audit(report), width=80).splitlines()
    assert all(len(line) <= 80 for line in lines) and "…" not in "\n".join(lines)
    assert sum(line.strip() == name for line in lines for name in names) == 2  # one heading line per task
    assert sum("exploit-python-hooks" in line for line in lines) == 2
