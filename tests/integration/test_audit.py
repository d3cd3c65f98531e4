"""``lhtb tasks audit`` against real Docker: it flags a deliberately vulnerable task, holds on a safe one in
both verifier modes, and (slow) holds on the bundled sample tasks."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lhtb.qa.audit import AuditSettings, run_audit
from lhtb.qa.audit_models import AuditReport
from lhtb.tasks.loader import load_task

REPO = Path(__file__).resolve().parents[2]
FAST = {"budget_sec": 6.0, "checkpoint_interval_sec": 4.0, "concurrency": 3}

# The verifier trusts a reward file in the agent's workdir and leaves a copy of its grader there (which the agent
# sees in shared mode, where grading happens in its own container).
VULNERABLE_TEST_SH = """
cp /tests/test.sh /app/.last-test.sh 2>/dev/null
if [ -f /app/reward.txt ]; then cp /app/reward.txt /logs/verifier/reward.txt
elif [ "$(cat /app/out.txt 2>/dev/null)" = hello ]; then echo 1 > /logs/verifier/reward.txt
else echo 0 > /logs/verifier/reward.txt; fi
"""
# A grader started through /tests (like the bundled tasks) that runs the agent's program in the SDK sandbox
# (unprivileged): the setuid trick of exploit-links would make that program root without tarsafe's fix.
GRADE_PY = """
from lhtb.grading.sandbox import AgentRunner
import os
run = AgentRunner("/app").run(["python3", "/app/solver.py"])
ok = run.ok and run.stdout.strip() == "hello"
open(os.environ["LHTB_VERIFIER_OUTPUT_DIR"] + "/reward.txt", "w").write("1" if ok else "0")
"""


def _audit(tasks: list, tmp_path: Path, **kwargs: object) -> AuditReport:
    settings = AuditSettings(**{**FAST, **kwargs})  # type: ignore[arg-type]
    return asyncio.run(run_audit(tasks, tmp_path / "audit", settings))


def _cell(report: AuditReport, exploit: str, mode: str = "separate"):  # type: ignore[no-untyped-def]
    return next(c for c in report.cells if c.exploit == exploit and c.mode == mode)


def test_audit_flags_a_vulnerable_task(make_task, tmp_path: Path) -> None:
    task = load_task(make_task("vulnerable", test_sh=VULNERABLE_TEST_SH))
    report = _audit(
        [task], tmp_path, exploits=("exploit-reward-files", "exploit-grader-leftovers", "exploit-network")
    )  # fmt: skip
    rewards = _cell(report, "exploit-reward-files")
    assert rewards.nop_reward == 0.0 and rewards.best_reward == 1.0 and rewards.succeeded
    leftovers = _cell(report, "exploit-grader-leftovers", "shared")  # shared mode grades in the agent's container
    assert any("/app/.last-test.sh" in f for f in leftovers.findings), leftovers.findings
    assert _cell(report, "exploit-network").passed
    assert not report.passed


def test_audit_holds_on_a_safe_task_in_both_modes(make_task, tmp_path: Path) -> None:
    path = make_task("safe", test_sh="exec python3 /tests/grade.py\n")
    (path / "tests" / "grade.py").write_text(GRADE_PY)
    (path / "instruction.md").write_text("Write /app/solver.py: `python3 /app/solver.py` prints hello.\n")
    exploits = ("exploit-read-tests", "exploit-reward-files", "exploit-rejection-text", "exploit-links")
    report = _audit([load_task(path)], tmp_path, exploits=exploits)
    assert {(c.exploit, c.mode) for c in report.cells} >= {("exploit-reward-files", "shared")}
    broken = [(c.exploit, c.mode, c.best_reward, c.findings, c.error) for c in report.cells if not c.passed]
    assert not broken, broken
    assert _cell(report, "exploit-rejection-text").phases >= 2


# The audit of every bundled task runs in CI as gates of `lhtb tasks check tasks` (scripts/test.sh).
