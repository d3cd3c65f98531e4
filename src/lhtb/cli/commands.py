"""The work behind each CLI command; returns the process exit code."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from lhtb.errors import LhtbError

if TYPE_CHECKING:
    from lhtb.results.models import JobConfig, JobResult

console = Console()
err_console = Console(stderr=True)


def _fail(exc: LhtbError) -> int:
    err_console.print(f"[red]error:[/red] {exc}")
    return 2


def tasks_list_command(path: Path) -> int:
    from lhtb.tasks.loader import scan_dataset

    try:
        loads = scan_dataset(path)
    except LhtbError as exc:
        return _fail(exc)
    table = Table(title=f"tasks in {path}")
    for column in ("task", "category", "difficulty", "agent timeout", "verifier timeout", "valid"):
        table.add_column(column)
    invalid = 0
    for load in loads:
        if load.task is None:
            invalid += 1
            table.add_row(load.path.name, "", "", "", "", f"[red]no: {load.error}[/red]")
            continue
        config = load.task.config
        table.add_row(
            load.task.name,
            config.metadata.category,
            config.metadata.difficulty,
            f"{config.agent.timeout_sec:.0f}s",
            f"{config.verifier.timeout_sec:.0f}s",
            "[green]yes[/green]",
        )
    console.print(table)
    return 1 if invalid else 0


def _print_leaderboard(job_result: JobResult, title: str) -> None:
    from lhtb.jobs.summary import render_leaderboard

    console.print(render_leaderboard(job_result.agents, job_result.errors_by_class, title))
    console.print(f"[dim]{job_result.denominator_rule}[/dim]")


def _execute(config: JobConfig, jobs_dir: Path) -> int:
    from lhtb.cli.live import LiveView
    from lhtb.jobs.runner import plan_trials, run_job

    total = len(plan_trials(config))
    console.print(f"job [bold]{config.job_name}[/bold]: {total} trials → {jobs_dir / config.job_name}")
    try:
        with LiveView(console, total) as view:
            job_result = run_job(config, jobs_dir, view.event)
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted: containers removed; resume with `lhtb jobs resume`[/yellow]")
        return 130
    _print_leaderboard(job_result, f"leaderboard — {config.job_name}")
    return 0


def run_command(
    path: Path,
    agents: list[str],
    concurrency: int,
    attempts: int,
    tasks: list[str] | None,
    output: Path,
    job_name: str | None,
    max_retries: int,
    timeout_multiplier: float,
) -> int:
    from lhtb.agents.registry import AGENT_FACTORIES
    from lhtb.jobs.runner import new_job_config
    from lhtb.results.models import AgentSpec

    try:
        unknown = [a for a in agents if a not in AGENT_FACTORIES]
        if unknown:
            raise LhtbError(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(sorted(AGENT_FACTORIES))}")
        config = new_job_config(
            path,
            tasks,
            [AgentSpec(name=a) for a in agents],
            job_name=job_name,
            attempts=attempts,
            concurrency=concurrency,
            max_retries=max_retries,
            agent_timeout_multiplier=timeout_multiplier,
        )
        if (output / config.job_name / "config.json").exists():
            raise LhtbError(f"{output / config.job_name} already exists; use `lhtb jobs resume` or another --job-name")
        return _execute(config, output)
    except LhtbError as exc:
        return _fail(exc)


def resume_command(job_dir: Path) -> int:
    from lhtb.jobs.runner import load_job_config

    try:
        config = load_job_config(job_dir)
        return _execute(config, job_dir.resolve().parent)
    except LhtbError as exc:
        return _fail(exc)


def jobs_show_command(job_dir: Path) -> int:
    from lhtb.jobs.runner import load_job_config, load_trial_result
    from lhtb.jobs.summary import DENOMINATOR_RULE, summarise
    from lhtb.results.models import JobResult

    try:
        config = load_job_config(job_dir)
    except LhtbError as exc:
        return _fail(exc)
    results = [r for p in sorted((job_dir / "trials").glob("*/result.json")) if (r := load_trial_result(p))]
    summaries, errors = summarise(results)
    job_result = JobResult(
        job_name=config.job_name,
        started_at=config.created_at,
        finished_at=config.created_at,
        n_trials=len(results),
        n_finished=len(results),
        errors_by_class=errors,
        agents=summaries,
        denominator_rule=DENOMINATOR_RULE,
    )
    _print_leaderboard(job_result, f"leaderboard — {config.job_name}")
    return 0


def trials_show_command(trial_dir: Path) -> int:
    from lhtb.jobs.runner import load_trial_result
    from lhtb.report.scorecard import render_trial

    result = load_trial_result(trial_dir / "result.json")
    if result is None:
        err_console.print(f"[red]error:[/red] {trial_dir / 'result.json'}: missing or not a valid trial result")
        return 2
    for renderable in render_trial(result):
        console.print(renderable)
    return 0


def gc_command(images: bool, dry_run: bool) -> int:
    from lhtb.environments.gc import collect

    try:
        report = collect(images=images, dry_run=dry_run)
    except LhtbError as exc:
        return _fail(exc)
    verb = "would remove" if dry_run else "removed"
    console.print(f"{verb} {len(report.containers)} container(s): {', '.join(report.containers) or '-'}")
    if images:
        console.print(f"{verb} {len(report.images)} task image(s): {', '.join(report.images) or '-'}")
    return 0


def bootstrap_command(force: bool) -> int:
    from lhtb.environments.images import bootstrap_base, bootstrap_python

    try:
        bootstrap_base(force=force, log=console.print)
        bootstrap_python(force=force, log=console.print)
    except LhtbError as exc:
        return _fail(exc)
    return 0
