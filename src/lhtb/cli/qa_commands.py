"""``lhtb tasks check`` and ``lhtb tasks init``."""

from __future__ import annotations

import asyncio
import contextlib
import os
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

import lhtb
from lhtb.errors import LhtbError
from lhtb.fs import write_model_atomic
from lhtb.results.models import QaReport, QaTaskReport
from lhtb.tasks.loader import TaskLoad
from lhtb.textsafe import markup_block, markup_safe, plain

console = Console()


def _loads(paths: list[Path]) -> list[TaskLoad]:
    from lhtb.tasks.loader import scan_dataset

    loads = []
    for path in paths:
        loads.extend(scan_dataset(path))
    return loads


def render(reports: list[QaTaskReport]) -> Table:
    table = Table(title="lhtb tasks check")
    for column in ("task", "result", "oracle", "nop", "baseline", "verifier", "build", "gates"):
        table.add_column(column)

    def fmt(value: float | None) -> str:
        return "—" if value is None else f"{value:.3f}"

    for report in reports:
        passed = sum(g.passed for g in report.gates)
        table.add_row(
            plain(report.task),
            "[green]pass[/green]" if report.passed else "[red]FAIL[/red]",
            fmt(report.rewards.get("oracle")),
            fmt(report.rewards.get("nop")),
            fmt(report.rewards.get("baseline")),
            f"{report.verifier_sec:.1f}s",
            f"{report.build_sec:.0f}s",
            f"{passed}/{len(report.gates)}",
        )
    return table


def print_problems(reports: list[QaTaskReport]) -> None:
    for report in reports:
        for gate in report.gates:
            if not gate.passed:
                colour = "red" if gate.blocking else "yellow"
                label = "FAIL" if gate.blocking else "warn"
                text = f"{report.task} · {gate.name}: {gate.detail}"
                console.print(f"[{colour}]{label}[/{colour}] {markup_safe(text)}")


def check_command(
    paths: list[Path],
    report_path: Path,
    concurrency: int,
    scan_layers: bool,
    markdown: Path | None = None,
    audit: bool = True,
    *,
    full: bool = True,
    lock_path: Path | None = None,
    update_lock: bool = False,
    rotate: int | None = None,
) -> int:
    from lhtb.qa.check import check_tasks
    from lhtb.qa.lock import held_report, hold_to_lock, read_lock, require_lock_path, select_for_check, task_digests

    try:
        require_lock_path(lock_path, update_lock)
        loads = _loads(paths)
        lock = read_lock(lock_path) if lock_path is not None else None
    except LhtbError as exc:
        console.print(f"[red]error:[/red] {markup_block(exc)}")
        return 2
    digests = task_digests(loads) if lock is not None else {}
    chosen, locked = select_for_check(loads, lock, digests, rotate, lock_path)
    console.print(
        f"checking {len(chosen)} task(s)" + (f"; {len(locked)} unchanged, held by the lock" if locked else "")
    )
    from lhtb.cli.audit_commands import cancellable

    try:
        reports = asyncio.run(
            cancellable(
                check_tasks(
                    chosen,
                    concurrency=concurrency,
                    scan_layers=scan_layers,
                    audit=audit,
                    full=full,
                    progress=lambda line: console.print(plain(line)),
                )
            )
        )
    except (asyncio.CancelledError, KeyboardInterrupt) as exc:
        # SIGTERM cancels the check (143), Ctrl-C interrupts it (130); its gradings removed their containers,
        # and a container whose start raced the interruption is removed here.
        from lhtb.environments.gc import remove_containers

        with contextlib.suppress(Exception):  # an engine gone too leaves them to `lhtb env gc`
            remove_containers(owner_pid=os.getpid())
        console.print("check interrupted: no report written, the lock unchanged")
        return 143 if isinstance(exc, asyncio.CancelledError) else 130
    if lock is not None and lock_path is not None:
        hold_to_lock(lock, lock_path, reports, digests, update=update_lock, full=full)
        reports += [held_report(name, lock_path) for name in locked]
    report = QaReport(created_at=datetime.now(UTC), lhtb_version=lhtb.__version__, tasks=reports)
    write_model_atomic(report_path, report)
    if markdown is not None:
        from lhtb.fs import write_text_atomic
        from lhtb.qa.markdown import tasks_markdown

        write_text_atomic(markdown, tasks_markdown(report))
    console.print(render(reports))
    print_problems(reports)
    failed = [r.task for r in reports if not r.passed]
    console.print(f"report: {report_path}")
    if failed:
        console.print(f"[red]{len(failed)} task(s) failed: {markup_safe(', '.join(failed))}[/red]")
        return 1
    return 0


def init_command(name: str, directory: Path, category: str) -> int:
    from lhtb.qa.scaffold import scaffold

    try:
        path = scaffold(name, directory, category)
    except LhtbError as exc:
        console.print(f"[red]error:[/red] {exc}")
        return 2
    console.print(f"created {path}; next: edit it, then `lhtb tasks check {path}`")
    return 0
