"""The work behind each CLI command; returns the process exit code."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from lhtb.errors import ConfigError, LhtbError

if TYPE_CHECKING:
    from lhtb.results.models import AgentSpec, JobConfig, JobResult

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


@dataclass(frozen=True)
class RunOptions:
    path: Path
    agents: list[str]
    concurrency: int
    attempts: int
    tasks: list[str] | None
    output: Path
    job_name: str | None
    max_retries: int
    timeout_multiplier: float
    model: str | None = None
    model_api_base: str | None = None
    agent_kwargs: list[str] = field(default_factory=list)
    continue_until_timeout: bool | None = None
    pass_threshold: float | None = None
    feedback_mode: str = "binary"
    checkpoint_interval_sec: float | None = None


def _agent_specs(options: RunOptions) -> list[AgentSpec]:
    from lhtb.agents.registry import AGENT_FACTORIES, is_known_agent
    from lhtb.results.models import AgentSpec

    unknown = [a for a in options.agents if not is_known_agent(a)]
    if unknown:
        raise ConfigError(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(sorted(AGENT_FACTORIES))}")
    kwargs: dict[str, str] = {}
    for item in options.agent_kwargs:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--agent-kwarg {item!r}: expected KEY=VALUE")
        kwargs[key] = value
    if options.model_api_base:
        kwargs["api_base"] = options.model_api_base
    return [AgentSpec(name=a, model=options.model, kwargs=kwargs) for a in options.agents]


def _feedback_mode(value: str) -> str:
    if value not in ("binary", "diagnostic"):
        raise ConfigError(f"--feedback {value!r}: expected 'binary' or 'diagnostic'")
    return value


def run_command(options: RunOptions) -> int:
    from lhtb.jobs.runner import new_job_config

    try:
        config = new_job_config(
            options.path,
            options.tasks,
            _agent_specs(options),
            job_name=options.job_name,
            attempts=options.attempts,
            concurrency=options.concurrency,
            max_retries=options.max_retries,
            agent_timeout_multiplier=options.timeout_multiplier,
            continue_until_timeout=options.continue_until_timeout,
            pass_threshold=options.pass_threshold,
            feedback_mode=_feedback_mode(options.feedback_mode),
            checkpoint_interval_sec=options.checkpoint_interval_sec,
        )
        target = options.output / config.job_name
        if (target / "config.json").exists():
            raise ConfigError(f"{target} already exists; use `lhtb jobs resume {target}` or another --job-name")
        return _execute(config, options.output)
    except LhtbError as exc:
        return _fail(exc)


def resume_command(job_dir: Path) -> int:
    from lhtb.jobs.runner import load_job_config

    try:
        config = load_job_config(job_dir)
        return _execute(config, job_dir.resolve().parent)
    except LhtbError as exc:
        return _fail(exc)


def jobs_show_command(job_dir: Path, subtasks: bool = False) -> int:
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
    if subtasks:
        from lhtb.jobs.summary import render_subtask_means

        console.print(render_subtask_means(results))
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
