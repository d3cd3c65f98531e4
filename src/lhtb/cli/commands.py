"""The work behind each CLI command; returns the process exit code (docs/errors.md#exit-codes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.table import Table

from lhtb.errors import ConfigError, LhtbError
from lhtb.textsafe import markup_block, markup_safe, plain

if TYPE_CHECKING:
    from lhtb.jobs.job_runner import UnreadableResult
    from lhtb.results.models import AgentSpec, ExecutorConfig, FeedbackMode, JobConfig, JobResult, TrialResult

console = Console()
err_console = Console(stderr=True)

# Exit codes (docs/errors.md#exit-codes); a signal that stops a job exits with 128 + its number (130, 143).
EXIT_GRADED = 0  # every planned trial graded: a reward, or a failure that counts as 0
EXIT_NOT_GRADED = 1  # some trials not graded after retries (infrastructure errors, excluded from the metrics)
EXIT_USAGE = 2  # bad flags or input: empty dataset, unknown agent or task, invalid tasks
EXIT_SIGINT = 130
_MAX_NAMED = 10  # trials named in a message before "and N more"


def _fail(exc: LhtbError) -> int:
    err_console.print(f"[red]error:[/red] {markup_block(exc)}")
    return EXIT_USAGE


def _names(items: list[str]) -> str:
    more = len(items) - _MAX_NAMED
    return ", ".join(items[:_MAX_NAMED]) + (f" and {more} more" if more > 0 else "")


def tasks_list_command(path: Path, *, as_json: bool = False) -> int:
    from lhtb.tasks.listing import TaskList, listed
    from lhtb.tasks.loader import scan_dataset

    try:
        loads = scan_dataset(path)
    except LhtbError as exc:
        return _fail(exc)
    if not loads and not as_json:
        return _fail(ConfigError(f"{path}: no task directories found (a task directory holds task.toml)"))
    invalid = sum(load.task is None for load in loads)
    if as_json:
        print(TaskList(tasks=[listed(load) for load in loads]).to_json(), end="")
        return EXIT_USAGE if not loads else 1 if invalid else 0
    # Names, levels and timeouts never wrap or get cut (users copy names); categories fold when the terminal is
    # narrow; errors and notes follow the table, each on its own lines, whole.
    table = Table(title=f"tasks in {markup_safe(path)}", box=box.SIMPLE_HEAD)
    table.add_column("task", no_wrap=True)
    table.add_column("category", overflow="fold")
    table.add_column("difficulty", no_wrap=True)
    table.add_column("timeouts", no_wrap=True, justify="right", header_style="bold")
    table.add_column("valid", no_wrap=True)
    remarks: list[str] = []
    for load in loads:
        name = plain(load.name)
        if load.task is None:
            table.add_row(name, "", "", "", "[red]no[/red]")
            remarks.append(f"[red]{markup_safe(load.name)}:[/red] {markup_safe(load.error)}")
            continue
        config = load.task.config
        table.add_row(
            name,
            plain(config.metadata.category),
            plain(config.metadata.difficulty),
            f"{config.agent.timeout_sec:.0f}s/{config.verifier.timeout_sec:.0f}s",
            "[green]yes[/green]",
        )
        remarks.extend(f"[yellow]{markup_safe(load.name)} (note):[/yellow] {markup_safe(n)}" for n in load.task.notes)
    console.print(table)
    console.print("timeouts: the agent's / the verifier's")
    for remark in remarks:
        console.print(remark, soft_wrap=True)
    return 1 if invalid else 0


def tasks_export_command(paths: list[Path], out_dir: Path, org: str) -> int:
    """Export every valid task under ``paths``; an invalid one is named and fails the command (exit 2)."""
    from lhtb.harbor.task_export import export_task, harbor_name
    from lhtb.tasks.loader import refuse_duplicate_names, scan_dataset

    try:
        loads = refuse_duplicate_names([load for path in paths for load in scan_dataset(path)])
    except LhtbError as exc:
        return _fail(exc)
    if not loads:
        return _fail(ConfigError(f"{', '.join(map(str, paths))}: no task directories found"))
    invalid = [load for load in loads if load.task is None]
    for load in invalid:
        err_console.print(f"[red]not exported:[/red] {markup_safe(load.path)}: {markup_block(load.error)}")
    seen: dict[str, Path] = {}
    for load in loads:
        if load.task is not None and seen.setdefault(load.task.path.name, load.task.path) != load.task.path:
            other = seen[load.task.path.name]
            return _fail(ConfigError(f"{load.task.path} and {other}: both would be exported as {load.task.path.name}/"))
    out_dir.mkdir(parents=True, exist_ok=True)
    for load in loads:
        if load.task is None:
            continue
        try:
            dest = export_task(load.task, out_dir, org=org)
        except LhtbError as exc:
            return _fail(exc)
        console.print(f"{markup_safe(harbor_name(load.task, org))} -> {markup_safe(dest)}", soft_wrap=True)
    return EXIT_USAGE if invalid else 0


def require_tasks(paths: list[Path]) -> int | None:
    """For commands over datasets: exit 2 with a message when the paths hold no task directory at all."""
    from lhtb.tasks.loader import scan_dataset

    try:
        if any(scan_dataset(path) for path in paths):
            return None
    except LhtbError:
        return None  # the command itself reports a path that cannot be read, with exit code 2
    where = ", ".join(str(path) for path in paths)
    return _fail(ConfigError(f"{where}: no task directories found (a task directory holds task.toml)"))


def _print_leaderboard(job_result: JobResult, title: str, results: list[TrialResult]) -> None:
    from rich.text import Text

    from lhtb.jobs.summary import infrastructure_errors, render_leaderboard

    # Agent labels and error messages come from flags and result files: rich Text, never parsed as markup.
    for renderable in render_leaderboard(job_result.agents, job_result.errors_by_class, title, width=console.width):
        console.print(renderable)
    causes = infrastructure_errors(results)
    if causes:
        console.print(Text("infrastructure errors (excluded, not scored):", style="yellow"))
        for line in causes:
            console.print(Text("  " + line), highlight=False)
    console.print(Text(job_result.denominator_rule, style="dim"))


def job_exit_code(results: list[TrialResult], n_planned: int) -> tuple[int, str]:
    """The exit code of a job that ran to its end, and the message explaining a non-zero one."""
    from lhtb.errors import ErrorClass
    from lhtb.results.scoring import scored_reward

    invalid = [r.trial_name for r in results if r.error and r.error.error_class == ErrorClass.TASK_INVALID]
    if invalid:
        return EXIT_USAGE, (
            f"{len(invalid)} trial(s) not run because their task or agent is invalid: {_names(invalid)} "
            "(the message of each is above; `lhtb tasks list` shows invalid tasks)"
        )
    excluded = [
        f"{r.trial_name} ({r.error.error_class.value})" for r in results if r.error and scored_reward(r) is None
    ]
    missing = n_planned - len(results)
    if excluded or missing > 0:
        missing_note = f"; {missing} without a result" if missing > 0 else ""
        return EXIT_NOT_GRADED, (
            f"{len(excluded)} of {n_planned} trial(s) not graded after retries (infrastructure errors, excluded "
            f"from the metrics): {_names(excluded)}{missing_note}; see docs/errors.md"
        )
    return EXIT_GRADED, ""


def _execute(config: JobConfig, jobs_dir: Path) -> int:
    from lhtb.cli.live import LiveView
    from lhtb.jobs.job_runner import JobInterrupted, make_executor, plan_trials, run_job

    total = len(plan_trials(config))
    job_dir = jobs_dir / config.job_name
    console.print(
        f"job [bold]{markup_safe(config.job_name)}[/bold]: {total} trials → {markup_safe(job_dir)}", highlight=False
    )
    finished: dict[str, TrialResult] = {}
    try:
        with LiveView(console, total) as view:

            def on_event(name: str, phase: str, result: TrialResult | None) -> None:
                if phase == "done" and result is not None:
                    finished[name] = result
                view.event(name, phase, result)

            job_result = run_job(config, jobs_dir, on_event, view.notice, executor=make_executor(config, view.notice))
    except JobInterrupted as exc:
        _interrupted(job_dir, str(exc), len(finished), total)
        return exc.exit_code
    except KeyboardInterrupt:
        _interrupted(job_dir, "interrupted", len(finished), total)
        return EXIT_SIGINT
    _print_leaderboard(job_result, f"leaderboard — {config.job_name}", list(finished.values()))
    code, message = job_exit_code(list(finished.values()), total)
    if code != EXIT_GRADED:
        err_console.print(f"[red]{markup_safe(message)}[/red]")
    return code


def _interrupted(job_dir: Path, what: str, n_finished: int, total: int) -> None:
    result = job_dir / "result.json"
    partial = f" (partial result: {markup_safe(result)})" if result.exists() else ""
    err_console.print(
        f"[yellow]{markup_safe(what)}: containers removed; {n_finished} of {total} trial(s) finished{partial}; "
        f"resume with `lhtb jobs resume {markup_safe(job_dir)}`[/yellow]",
        highlight=False,
    )


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
    feedback_pause_sec: float | None = None
    verify_seed: int | None = None
    base_images: list[str] = field(default_factory=list)
    ray: str | None = None
    ray_tasks: str = "ship"


def _executor_config(ray: str | None, tasks: str) -> ExecutorConfig | None:
    from lhtb.results.models import ExecutorConfig

    if ray is None:
        return None
    if tasks not in ("ship", "shared"):
        raise ConfigError(f"--ray-tasks {tasks!r}: expected 'ship' (through Ray's object store) or 'shared'")
    if not ray.strip():
        raise ConfigError("--ray: expected 'auto' or a cluster address host:port")
    return ExecutorConfig(address=ray.strip(), tasks="ship" if tasks == "ship" else "shared")


def _base_images(pairs: list[str]) -> dict[str, str]:
    """``FROM=TO`` pairs; the substitute must be on this machine (that is the point of substituting)."""
    from lhtb.environments.images import missing_images

    mapping: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip() or old.strip() == new.strip():
            raise ConfigError(f"--base-image {pair!r}: expected FROM=TO, two different image references")
        mapping[old.strip()] = new.strip()
    absent = missing_images(sorted(set(mapping.values())))
    if absent:
        raise ConfigError(f"--base-image: {', '.join(absent)} is not on this machine (`lhtb images load FILE.tar`)")
    return mapping


def _agent_specs(options: RunOptions) -> list[AgentSpec]:
    from lhtb.agents.registry import AGENT_FACTORIES, is_known_agent
    from lhtb.results.models import AgentSpec

    repeated = sorted({a for a in options.agents if options.agents.count(a) > 1})
    if repeated:  # one agent twice would plan the same trials twice; attempts are what -k is for
        raise ConfigError(f"agent(s) given more than once: {', '.join(repeated)}; use -k for more attempts")
    unknown = [a for a in options.agents if not is_known_agent(a)]
    if unknown:
        raise ConfigError(
            f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(sorted(AGENT_FACTORIES))}, or module:Class"
        )
    for name in options.agents:
        if name not in AGENT_FACTORIES:
            _check_importable(name)
    kwargs: dict[str, str] = {}
    for item in options.agent_kwargs:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--agent-kwarg {item!r}: expected KEY=VALUE")
        kwargs[key] = value
    if options.model_api_base:
        kwargs["api_base"] = options.model_api_base
    return [AgentSpec(name=a, model=options.model, kwargs=kwargs) for a in options.agents]


def _check_importable(name: str) -> None:
    """A ``module:Class`` agent that cannot be imported is a usage error now, not an error in every trial."""
    import importlib

    module_name, _, attr = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"agent {name!r}: cannot import module {module_name!r}: {exc}") from exc
    if not hasattr(module, attr):
        raise ConfigError(f"agent {name!r}: module {module_name!r} has no attribute {attr!r}")


def _feedback_mode(value: str) -> FeedbackMode:
    if value == "binary":
        return "binary"
    if value == "diagnostic":
        return "diagnostic"
    raise ConfigError(f"--feedback {value!r}: expected 'binary' or 'diagnostic'")


def run_command(options: RunOptions) -> int:
    from lhtb.jobs.job_runner import new_job_config

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
            feedback_pause_sec=options.feedback_pause_sec,
            verify_seed=options.verify_seed,
            base_images=_base_images(options.base_images),
            executor=_executor_config(options.ray, options.ray_tasks),
        )
        target = options.output / config.job_name
        if (target / "config.json").exists():
            raise ConfigError(f"{target} already exists; use `lhtb jobs resume {target}` or another --job-name")
        return _execute(config, options.output)
    except LhtbError as exc:
        return _fail(exc)


def resume_command(job_dir: Path, ray: str | None = None, local: bool = False) -> int:
    """Resume where the job ran (its config says), or on the cluster at ``ray`` / this machine (``local``):
    the cluster that ran a job may be gone, its head with it."""
    from lhtb.jobs.job_runner import load_job_config

    try:
        config = load_job_config(job_dir)
        if ray is not None and local:
            raise ConfigError("--ray and --local: give one")
        if local:
            config = config.model_copy(update={"executor": None})
        elif ray is not None:
            tasks = config.executor.tasks if config.executor else "ship"
            config = config.model_copy(update={"executor": _executor_config(ray, tasks)})
        if local or ray is not None:  # the job now runs there: a later plain resume goes back there too
            from lhtb.fs import write_model_atomic

            write_model_atomic(job_dir / "config.json", config)
        return _execute(config, job_dir.resolve().parent)
    except LhtbError as exc:
        return _fail(exc)


def jobs_show_command(job_dir: Path, subtasks: bool = False) -> int:
    """The leaderboard from the result files; unreadable ones are named and counted, never dropped silently."""
    from lhtb.jobs.job_runner import load_job_config, read_trial_results
    from lhtb.jobs.layout import trial_name
    from lhtb.jobs.summary import summarise
    from lhtb.results.models import JobResult
    from lhtb.results.scoring import DENOMINATOR_RULE

    try:
        config = load_job_config(job_dir)
    except LhtbError as exc:
        return _fail(exc)
    results, unreadable = read_trial_results(job_dir / "trials")
    planned = {
        trial_name(task, agent, attempt)
        for task in config.task_names
        for agent in config.agents
        for attempt in range(1, config.attempts + 1)
    }
    summaries, errors = summarise(results)
    job_result = JobResult(
        job_name=config.job_name,
        started_at=config.created_at,
        finished_at=config.created_at,
        n_trials=len(planned),
        n_finished=len(results),
        errors_by_class=errors,
        agents=summaries,
        denominator_rule=DENOMINATOR_RULE,
    )
    _print_leaderboard(job_result, f"leaderboard — {config.job_name}", results)
    if subtasks:
        from lhtb.jobs.summary import render_subtask_means

        console.print(render_subtask_means(results))
    missing = planned - {r.trial_name for r in results} - {u.path.parent.name for u in unreadable}
    if missing:
        console.print(
            f"[dim]{len(missing)} of {len(planned)} planned trial(s) have no result yet (not run or interrupted): "
            f"`lhtb jobs resume {markup_safe(job_dir)}` runs them[/dim]",
            highlight=False,
        )
    if unreadable:
        _warn_unreadable(job_dir, unreadable)
        return EXIT_NOT_GRADED
    return EXIT_GRADED


def _warn_unreadable(job_dir: Path, unreadable: list[UnreadableResult]) -> None:
    lines = [
        f"[yellow]warning:[/yellow] {len(unreadable)} trial result file(s) cannot be read and are not counted "
        "in the leaderboard:"
    ]
    lines += [f"  {markup_safe(u.path)}: {markup_safe(u.reason)}" for u in unreadable]
    lines.append(
        f"`lhtb jobs resume {markup_safe(job_dir)}` runs these trials again and keeps their old directories "
        f"under {markup_safe(job_dir / 'set-aside')}/"
    )
    err_console.print("\n".join(lines), highlight=False)


def trials_show_command(trial_dir: Path) -> int:
    from lhtb.jobs.job_runner import UnreadableResult, read_trial_result
    from lhtb.report.trial_card import render_trial

    path = trial_dir / "result.json"
    result = read_trial_result(path)
    if result is None or isinstance(result, UnreadableResult):
        reason = "missing (the trial has not finished)" if result is None else result.reason
        err_console.print(f"[red]error:[/red] {markup_safe(path)}: {markup_safe(reason)}")
        return EXIT_USAGE
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
    if report.networks:
        console.print(f"{verb} {len(report.networks)} sandbox network(s): {', '.join(report.networks)}")
    if images:
        console.print(f"{verb} {len(report.images)} task image(s): {', '.join(report.images) or '-'}")
    return 0


def ray_gc_command(address: str, *, images: bool = False, dry_run: bool = False) -> int:
    """`lhtb env gc` on every node of a Ray cluster that runs trials (a lost node's leftovers, once it is back)."""
    import asyncio

    from lhtb.jobs.ray_executor import RayExecutor

    executor = RayExecutor(address, log=lambda message: console.print(markup_safe(message), highlight=False))
    try:
        asyncio.run(executor.start())
        reports = executor.gc_every_node(None, images=images, dry_run=dry_run)
    except LhtbError as exc:
        return _fail(exc)
    finally:
        asyncio.run(executor.close())
    verb = "would remove" if dry_run else "removed"
    for report in reports:
        line = f"node {report.node_id[:12]}: {verb} {len(report.removed)}: {', '.join(report.removed) or '-'}"
        if images:
            line += f"; task image(s): {', '.join(report.images) or '-'}"
        console.print(markup_safe(line), highlight=False)
    return 0


def export_harbor_command(job_dir: Path, out_dir: Path) -> int:
    from lhtb.harbor.results_export import export_job

    try:
        dest = export_job(job_dir, out_dir)
    except LhtbError as exc:
        return _fail(exc)
    console.print(f"{markup_safe(job_dir)} -> {markup_safe(dest)} (Harbor's job layout)", soft_wrap=True)
    return 0


def images_load_command(archives: list[Path]) -> int:
    from lhtb.environments.images import load_images

    for archive in archives:
        try:
            loaded = load_images(archive)
        except LhtbError as exc:
            return _fail(exc)
        console.print(f"{markup_safe(archive)}: loaded {markup_safe(', '.join(loaded) or 'nothing')}", soft_wrap=True)
    return 0


def bootstrap_command(force: bool) -> int:
    from lhtb.environments.images import bootstrap_base, bootstrap_python

    try:
        bootstrap_base(force=force, log=console.print)
        bootstrap_python(force=force, log=console.print)
    except LhtbError as exc:
        return _fail(exc)
    return 0
