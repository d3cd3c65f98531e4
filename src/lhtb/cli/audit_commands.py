"""``lhtb tasks audit``: exploit agents against tasks, reward versus nop, findings (docs/integrity.md)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from lhtb.cli.interrupt import Interrupted, run_interruptible
from lhtb.errors import LhtbError
from lhtb.fs import write_model_atomic
from lhtb.qa.audit_models import AuditReport
from lhtb.textsafe import markup_block, markup_safe, one_line, plain

console = Console()


def render(report: AuditReport) -> Table:
    # Each task's name heads its rows, whole (users copy names); exploit names never wrap; the findings fold.
    table = Table(title=f"lhtb tasks audit ({report.duration_sec:.0f} s)", box=box.SIMPLE_HEAD, padding=0)
    table.add_column("task / exploit", no_wrap=True)
    for column in ("mode", "best", "nop", "phases", "verdict"):
        table.add_column(column, no_wrap=True)
    table.add_column("findings", overflow="fold", ratio=1, min_width=8)

    def fmt(value: float | None) -> str:
        return "—" if value is None else f"{value:.3f}"

    task = None
    for cell in report.cells:
        if cell.task != task:
            task = cell.task
            table.add_row(Text(one_line(task), style="bold"))
        verdict = "[green]held[/green]" if cell.passed else "[red]BROKEN[/red]"
        findings = "; ".join(cell.findings[:2]) + (" ..." if len(cell.findings) > 2 else "")
        table.add_row(
            plain("  " + cell.exploit), cell.mode, fmt(cell.best_reward), fmt(cell.nop_reward), str(cell.phases),
            verdict, plain(findings[:100] or "—"),
        )  # fmt: skip
    return table


def audit_command(
    paths: list[Path],
    report_path: Path,
    *,
    concurrency: int,
    budget_sec: float,
    checkpoint_sec: float | None,
    exploits: list[str],
    modes: list[str],
    work_dir: Path | None,
    task_specific: bool = False,
    lock_path: Path | None = None,
    update_lock: bool = False,
    rotate: int | None = None,
) -> int:
    from lhtb.cli.qa_commands import _loads
    from lhtb.qa.audit import MODES, AuditSettings, run_audit
    from lhtb.qa.exploits.names import EXPLOITS
    from lhtb.qa.lock import (
        audit_digest,
        audit_held,
        read_lock,
        record_audits,
        require_lock_path,
        task_digest,
        unrecorded_audits,
    )

    unknown = [name for name in exploits if name not in EXPLOITS] + [m for m in modes if m not in MODES]
    if unknown:
        console.print(f"[red]error:[/red] unknown exploit or mode: {', '.join(unknown)}; known: {', '.join(EXPLOITS)}")
        return 2
    try:
        require_lock_path(lock_path, update_lock)
        loads = _loads(paths)
        lock = read_lock(lock_path) if lock_path is not None else None
    except LhtbError as exc:
        console.print(f"[red]error:[/red] {markup_block(exc)}")
        return 2
    invalid = [load.path.name for load in loads if load.task is None]
    if invalid:
        console.print(f"[red]error:[/red] invalid tasks: {markup_safe(', '.join(invalid))} (see `lhtb tasks list`)")
        return 2
    tasks = [load.task for load in loads if load.task is not None]
    if task_specific:
        exploits = [name for name in exploits or EXPLOITS if EXPLOITS[name].task_specific]
        modes = modes or sorted({task.config.verifier.mode for task in tasks})
    settings = AuditSettings(
        budget_sec=budget_sec,
        checkpoint_interval_sec=checkpoint_sec,
        concurrency=concurrency,
        exploits=tuple(exploits) or tuple(EXPLOITS),
        modes=tuple(modes) or MODES,  # type: ignore[arg-type]
    )
    digests = {task.name: task_digest(task) for task in tasks} if lock is not None else {}
    audit_digests = {name: audit_digest(d, settings.exploits, settings.modes) for name, d in digests.items()}
    held: list[str] = []
    if lock is not None and lock_path is not None and rotate is not None:
        held = audit_held(lock, audit_digests, rotate, lock_path)
        tasks = [task for task in tasks if task.name not in held]
    console.print(
        f"auditing {len(tasks)} task(s) with {len(settings.exploits)} exploit(s) ..."
        + (f"; {len(held)} unchanged, held by the lock" if held else "")
    )
    if not tasks:
        console.print("nothing to audit: every task is held by the lock")
        return 0
    with tempfile.TemporaryDirectory(prefix="lhtb-audit-") as tmp:
        root = work_dir or Path(tmp)
        try:
            report = run_interruptible(
                run_audit(tasks, root, settings, progress=lambda line: console.print(plain(line)))
            )
        except Interrupted as stop:
            console.print("audit interrupted: no report written")
            return stop.code
    write_model_atomic(report_path, report)
    console.print(render(report))
    console.print(f"report: {report_path}")
    problems = []
    if lock is not None and lock_path is not None and update_lock:
        outcome = {task.name: all(c.passed for c in report.cells if c.task == task.name) for task in tasks}
        problems = record_audits(lock_path, outcome, digests, audit_digests, settings.exploits, settings.modes)
        for line in problems:
            console.print(f"[red]FAIL[/red] lock · {markup_safe(line)}")
    elif lock is not None and lock_path is not None:
        for line in unrecorded_audits(lock, lock_path, [task.name for task in tasks], audit_digests):
            console.print(f"[yellow]note[/yellow] lock · {markup_safe(line)}")
    if not report.passed:
        broken = sorted({f"{c.task}/{c.mode}/{c.exploit}" for c in report.cells if not c.passed})
        console.print(f"[red]{len(broken)} exploit(s) scored above nop: {markup_safe(', '.join(broken))}[/red]")
        return 1
    return 1 if problems else 0
