"""``lhtb tasks check`` and ``lhtb tasks init``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

import lhtb
from lhtb.errors import LhtbError
from lhtb.fs import write_model_atomic
from lhtb.results.models import QaReport, QaTaskReport
from lhtb.tasks.loader import TaskLoad
from lhtb.textsafe import markup_block, markup_safe, one_line, plain

console = Console()


def _loads(paths: list[Path]) -> list[TaskLoad]:
    from lhtb.tasks.loader import scan_dataset

    loads = []
    for path in paths:
        loads.extend(scan_dataset(path))
    return loads


def render(reports: list[QaTaskReport], width: int | None = None) -> RenderableType:
    """Names never wrap or get cut (users copy them): a borderless table with short headers fits 80 columns for
    names up to 35 characters; when a name does not fit the terminal, each task is a line of its own (its name)
    with its figures on the next."""
    width = console.width if width is None else width

    def fmt(value: float | None) -> str:
        return "—" if value is None else f"{value:.3f}"

    def figures(report: QaTaskReport) -> list[str]:
        passed = sum(g.passed for g in report.gates)
        return [
            "[green]pass[/green]" if report.passed else "[red]FAIL[/red]",
            fmt(report.rewards.get("oracle")),
            fmt(report.rewards.get("nop")),
            fmt(report.rewards.get("baseline")),
            f"{report.verifier_sec:.0f}s",
            f"{report.build_sec:.0f}s",
            f"{passed}/{len(report.gates)}",
        ]

    if max((len(one_line(r.task)) for r in reports), default=0) + _FIGURES_WIDTH > width:
        lines: list[RenderableType] = [Text("lhtb tasks check", style="italic")]
        for report in reports:
            lines.append(Text(one_line(report.task), style="bold"))
            verdict, *values = figures(report)
            shown = zip(_FIGURE_NAMES[1:], values, strict=True)
            lines.append(Text.from_markup(f"  {verdict} " + " ".join(f"{name}={value}" for name, value in shown)))
        return Group(*lines)
    table = Table(title="lhtb tasks check", box=box.SIMPLE_HEAD, padding=0)
    table.add_column("task", no_wrap=True)
    for column in _FIGURE_NAMES:
        table.add_column(column, no_wrap=True)
    for report in reports:
        table.add_row(plain(report.task), *figures(report))
    return table


_FIGURE_NAMES = ("ok", "oracle", "nop", "base", "verify", "build", "gates")
_FIGURES_WIDTH = 45  # the columns after the name, one space apart (and the table's edge)


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
    from lhtb.cli.interrupt import Interrupted, run_interruptible

    try:
        reports = run_interruptible(
            check_tasks(
                chosen,
                concurrency=concurrency,
                scan_layers=scan_layers,
                audit=audit,
                full=full,
                progress=lambda line: console.print(plain(line)),
            )
        )
    except Interrupted as stop:
        console.print("check interrupted: no report written, the lock unchanged")
        return stop.code
    if lock is not None and lock_path is not None:
        hold_to_lock(lock, lock_path, reports, digests, update=update_lock, full=full)
        reports += [held_report(name, lock_path) for name in locked]
    report = QaReport(created_at=datetime.now(UTC), lhtb_version=lhtb.__version__, tasks=reports)
    write_model_atomic(report_path, report)
    if markdown is not None:
        write_catalogue(markdown, reports)
    console.print(render(reports))
    print_problems(reports)
    failed = [r.task for r in reports if not r.passed]
    console.print(f"report: {report_path}")
    if failed:
        console.print(f"[red]{len(failed)} task(s) failed: {markup_safe(', '.join(failed))}[/red]")
        return 1
    return 0


def write_catalogue(path: Path, reports: list[QaTaskReport]) -> None:
    """Rewrite the measured tasks' rows and sections of the task catalogue at ``path``, keeping the others."""
    from lhtb.fs import write_text_atomic
    from lhtb.qa.markdown import measured, update_tasks_markdown

    existing = path.read_text(encoding="utf-8") if path.exists() else None
    write_text_atomic(path, update_tasks_markdown(existing, measured(reports)))


def markdown_command(report_paths: list[Path], out: Path) -> int:
    """The catalogue from saved check reports: a later report's measurement of a task replaces an earlier one's."""
    from pydantic import ValidationError

    from lhtb.cli.commands import _fail
    from lhtb.errors import ConfigError
    from lhtb.fs import first_problem

    latest: dict[str, QaTaskReport] = {}
    for path in report_paths:
        try:
            report = QaReport.model_validate_json(path.read_bytes())
        except ValidationError as exc:
            return _fail(ConfigError(f"{path}: {first_problem(exc)}"))
        except OSError as exc:
            return _fail(ConfigError(f"{path}: cannot read the report: {exc.strerror}"))
        latest.update({task.task: task for task in report.tasks if task.subtasks})
    write_catalogue(out, list(latest.values()))
    console.print(f"{out}: {len(latest)} task(s) written: {markup_safe(', '.join(sorted(latest)))}")
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
