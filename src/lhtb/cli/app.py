"""``lhtb`` entry point: sub-command groups are registered here, their work lives in lhtb.* modules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

import lhtb

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Long-Horizon Terminal-Bench.")
tasks_app = typer.Typer(no_args_is_help=True, help="Inspect and check tasks.")
jobs_app = typer.Typer(no_args_is_help=True, help="Inspect and resume jobs.")
trials_app = typer.Typer(no_args_is_help=True, help="Inspect trials.")
env_app = typer.Typer(no_args_is_help=True, help="Manage sandboxes.")
images_app = typer.Typer(no_args_is_help=True, help="Build or load the offline base images.")
app.add_typer(tasks_app, name="tasks")
app.add_typer(jobs_app, name="jobs")
app.add_typer(trials_app, name="trials")
app.add_typer(env_app, name="env")
app.add_typer(images_app, name="images")
export_app = typer.Typer(no_args_is_help=True, help="Write results in another harness's layout.")
app.add_typer(export_app, name="export")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"lhtb {lhtb.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Long-Horizon Terminal-Bench: run agents on long terminal tasks and grade them densely."""


@app.command()
def run(
    path: Annotated[Path, typer.Option("-p", "--path", help="A task directory or a dataset of tasks.")],
    agent: Annotated[list[str], typer.Option("-a", "--agent", help="Agent name; repeat for several.")],
    concurrency: Annotated[int, typer.Option("-n", "--concurrency", min=1)] = 1,
    attempts: Annotated[int, typer.Option("-k", "--attempts", min=1)] = 1,
    task: Annotated[list[str] | None, typer.Option("-t", "--task", help="Only these task names.")] = None,
    output: Annotated[Path, typer.Option("-o", "--output", help="Jobs directory.")] = Path("jobs"),
    job_name: Annotated[str | None, typer.Option("--job-name")] = None,
    max_retries: Annotated[int, typer.Option("--max-retries", min=0)] = 2,
    timeout_multiplier: Annotated[float, typer.Option("--timeout-multiplier", min=0.001)] = 1.0,
    model: Annotated[str | None, typer.Option("-m", "--model", help="Model for LLM agents (litellm name).")] = None,
    model_api_base: Annotated[
        str | None, typer.Option("--model-api-base", help="OpenAI-compatible base URL, e.g. a local server.")
    ] = None,
    agent_kwarg: Annotated[
        list[str] | None, typer.Option("--ak", "--agent-kwarg", help="KEY=VALUE passed to the agent; repeatable.")
    ] = None,
    continue_until_timeout: Annotated[
        bool | None,
        typer.Option("--continue-until-timeout/--single-shot", help="Override the tasks' continue_until_timeout."),
    ] = None,
    pass_threshold: Annotated[float | None, typer.Option("--pass-threshold", min=0, max=1)] = None,
    feedback: Annotated[
        str, typer.Option("--feedback", help="binary (comparable) or diagnostic (for task authors).")
    ] = "binary",
    checkpoint_interval: Annotated[
        float | None, typer.Option("--checkpoint-interval", help="Agent seconds between reward checkpoints.")
    ] = None,
    feedback_pause: Annotated[
        float | None,
        typer.Option(
            "--feedback-pause",
            min=0.001,
            help="Wall seconds from an interim verification's start to the agent's resumption (default: the "
            "task's verifier timeout + 15 s); longer gradings are told to the agent as not passed.",
        ),
    ] = None,
    verify_seed: Annotated[
        int | None,
        typer.Option(
            "--verify-seed",
            min=0,
            max=2**63 - 1,
            help="The job's seed for the hidden cases (default: drawn at random and recorded in config.json); "
            "each trial derives its own from it, its task and its attempt.",
        ),
    ] = None,
    base_image: Annotated[
        list[str] | None,
        typer.Option(
            "--base-image",
            help="FROM=TO: build the tasks' images from TO where their Dockerfile names FROM (a machine without "
            "a registry); recorded per trial, the job's rows are flagged. Repeatable.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run the trials on a Ray cluster: 'auto' (this machine's, or a private one on loopback) or its "
            "host:port; -n is how many trials are in flight (docs/distributed.md).",
        ),
    ] = None,
    ray_tasks: Annotated[
        str,
        typer.Option(
            "--ray-tasks",
            help="ship (task directories through Ray's object store) or shared (every "
            "node sees them at the same path).",
        ),
    ] = "ship",
) -> None:
    """Run agents on tasks and print a leaderboard.

    Exit status: 0 every trial graded (a reward or a counted failure), 1 some trials not graded (infrastructure
    errors), 2 usage or input error, 130 / 143 stopped by SIGINT / SIGTERM (resumable).
    """
    from lhtb.cli.commands import RunOptions, run_command

    options = RunOptions(
        path=path,
        agents=agent,
        concurrency=concurrency,
        attempts=attempts,
        tasks=task,
        output=output,
        job_name=job_name,
        max_retries=max_retries,
        timeout_multiplier=timeout_multiplier,
        model=model,
        model_api_base=model_api_base,
        agent_kwargs=agent_kwarg or [],
        continue_until_timeout=continue_until_timeout,
        pass_threshold=pass_threshold,
        feedback_mode=feedback,
        checkpoint_interval_sec=checkpoint_interval,
        feedback_pause_sec=feedback_pause,
        verify_seed=verify_seed,
        base_images=base_image or [],
        ray=ray,
        ray_tasks=ray_tasks,
    )
    raise typer.Exit(run_command(options))


@tasks_app.command("list")
def tasks_list(
    path: Annotated[Path, typer.Option("-p", "--path")] = Path("tasks"),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print lhtb.task-list/1 JSON (name, valid, errors, notes) for scripts.")
    ] = False,
) -> None:
    """List tasks with category, timeouts and validity (invalid tasks name the file and the field); exit 1 if any
    is invalid."""
    from lhtb.cli.commands import tasks_list_command

    raise typer.Exit(tasks_list_command(path, as_json=as_json))


# The QA lock's options, shared by `tasks check` and `tasks audit` (docs/authoring.md, "The QA lock").
LockOption = Annotated[
    Path | None, typer.Option("--lock", help="The QA lock (e.g. tasks/qa-lock.json): hold results to it.")
]
UpdateLockOption = Annotated[
    bool,
    typer.Option("--update-lock", help="Record in the lock what passed (check: entries; audit: audits that held)."),
]
RotateOption = Annotated[
    int | None,
    typer.Option(
        "--rotate",
        min=0,
        help="With --lock: only tasks the lock does not stand for, sample-* tasks and this many others chosen by "
        "the commit.",
    ),
]


@tasks_app.command("check")
def tasks_check(
    paths: Annotated[list[Path], typer.Argument(help="Task directories or datasets.")],
    report: Annotated[Path, typer.Option("--report", help="Where to write the JSON report.")] = Path("qa-report.json"),
    concurrency: Annotated[int, typer.Option("-n", "--concurrency", min=1)] = 1,
    scan_layers: Annotated[bool, typer.Option("--scan-layers/--no-scan-layers")] = True,
    markdown: Annotated[
        Path | None,
        typer.Option("--markdown", help="Also rewrite the checked tasks' entries of a task catalogue (docs/tasks.md)."),
    ] = None,
    audit: Annotated[bool, typer.Option("--audit/--no-audit", help="Run the integrity audit as gates.")] = True,
    basic: Annotated[
        bool, typer.Option("--basic", help="Leave out the validity gates (seeds, load, inputs, shortcuts).")
    ] = False,
    lock: LockOption = None,
    update_lock: UpdateLockOption = False,
    rotate: RotateOption = None,
) -> None:
    """Run every QA gate on tasks: oracle = 1.0 on several seeds and under load, nop <= 0.05, baseline band,
    determinism, inputs, shortcuts, self-report, leaks, exploits."""
    from lhtb.cli.commands import require_tasks
    from lhtb.cli.qa_commands import check_command

    if (code := require_tasks(paths)) is not None:
        raise typer.Exit(code)

    raise typer.Exit(
        check_command(
            paths,
            report,
            concurrency,
            scan_layers,
            markdown,
            audit,
            full=not basic,
            lock_path=lock,
            update_lock=update_lock,
            rotate=rotate,
        )
    )


@tasks_app.command("markdown")
def tasks_markdown(
    reports: Annotated[list[Path], typer.Argument(help="Reports of `lhtb tasks check` (later ones win per task).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The catalogue to update.")] = Path("docs/tasks.md"),
) -> None:
    """Update the task catalogue from saved check reports: the measured tasks' rows and sections are rewritten,
    every other task's kept."""
    from lhtb.cli.qa_commands import markdown_command

    raise typer.Exit(markdown_command(reports, out))


@tasks_app.command("export")
def tasks_export(
    paths: Annotated[list[Path], typer.Argument(help="Task directories or datasets.")],
    harbor: Annotated[
        Path, typer.Option("--harbor", help="Write Harbor tasks (stock Harbor 0.26) into this directory.")
    ],
    org: Annotated[str, typer.Option("--org", help="The organisation in Harbor's org/name task names.")] = "lhtb",
) -> None:
    """Export tasks for stock Harbor: org/name names, lhtb's choices written out, the grading SDK vendored."""
    from lhtb.cli.commands import tasks_export_command

    raise typer.Exit(tasks_export_command(paths, harbor, org))


@tasks_app.command("init")
def tasks_init(
    name: str,
    directory: Annotated[Path, typer.Option("-p", "--path", help="Dataset directory.")] = Path("tasks"),
    category: Annotated[str, typer.Option("--category")] = "software-engineering",
) -> None:
    """Scaffold a new task that follows every convention (canary, SDK verifier, baseline, solution)."""
    from lhtb.cli.qa_commands import init_command

    raise typer.Exit(init_command(name, directory, category))


@tasks_app.command("audit")
def tasks_audit(
    paths: Annotated[list[Path], typer.Argument(help="Task directories or datasets.")],
    report: Annotated[Path, typer.Option("--report", help="Where to write the JSON report.")] = Path(
        "audit-report.json"
    ),
    concurrency: Annotated[int, typer.Option("-n", "--concurrency", min=1)] = 2,
    budget: Annotated[float, typer.Option("--budget", help="Agent seconds per exploit trial.")] = 12.0,
    checkpoint_interval: Annotated[
        float | None, typer.Option("--checkpoint-interval", help="Agent seconds between checkpoints (default: none).")
    ] = None,
    exploit: Annotated[list[str] | None, typer.Option("--exploit", help="Only these exploits (repeat).")] = None,
    mode: Annotated[list[str] | None, typer.Option("--mode", help="separate and/or shared (repeat).")] = None,
    task_specific: Annotated[
        bool,
        typer.Option(
            "--task-specific",
            help="Only the exploits whose outcome depends on the task (not only on the harness), in the tasks' own "
            "verifier modes unless --mode is given.",
        ),
    ] = False,
    keep: Annotated[Path | None, typer.Option("--keep", help="Keep the audit's jobs in this directory.")] = None,
    lock: LockOption = None,
    update_lock: UpdateLockOption = False,
    rotate: RotateOption = None,
) -> None:
    """Run the exploit agents against tasks: every exploit must score at most nop and find nothing."""
    from lhtb.cli.audit_commands import audit_command
    from lhtb.cli.commands import require_tasks

    if (code := require_tasks(paths)) is not None:
        raise typer.Exit(code)

    raise typer.Exit(
        audit_command(
            paths,
            report,
            concurrency=concurrency,
            budget_sec=budget,
            checkpoint_sec=checkpoint_interval,
            exploits=exploit or [],
            modes=mode or [],
            task_specific=task_specific,
            work_dir=keep,
            lock_path=lock,
            update_lock=update_lock,
            rotate=rotate,
        )
    )


@jobs_app.command("resume")
def jobs_resume(
    job_dir: Path,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Resume on this Ray cluster ('auto' or host:port) instead.")
    ] = None,
    local: Annotated[bool, typer.Option("--local", help="Resume on this machine's Docker engine instead.")] = False,
) -> None:
    """Re-run exactly the trials of JOB_DIR that have no final result (exit status as for `lhtb run`), where
    the job ran (its config.json says: this machine or a Ray cluster) unless --ray / --local says otherwise.

    A trial whose result.json cannot be read runs again; its old directory is kept under JOB_DIR/set-aside/.
    """
    from lhtb.cli.commands import resume_command

    raise typer.Exit(resume_command(job_dir, ray, local))


@jobs_app.command("show")
def jobs_show(
    job_dir: Path,
    subtasks: Annotated[bool, typer.Option("--subtasks", help="Also the per-subtask means across attempts.")] = False,
) -> None:
    """Print a job's leaderboard from its result files (exit status 1 when some cannot be read: they are named)."""
    from lhtb.cli.commands import jobs_show_command

    raise typer.Exit(jobs_show_command(job_dir, subtasks))


@trials_app.command("show")
def trials_show(trial_dir: Path) -> None:
    """Print a trial's scorecard and phase history."""
    from lhtb.cli.commands import trials_show_command

    raise typer.Exit(trials_show_command(trial_dir))


@env_app.command("gc")
def env_gc(
    images: Annotated[bool, typer.Option("--images", help="Also remove cached task images.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="On every node of this Ray cluster ('auto' or host:port) that runs trials."),
    ] = None,
) -> None:
    """Remove containers (and optionally task images) left by lhtb processes that are gone."""
    from lhtb.cli.commands import gc_command, ray_gc_command

    if ray is not None:
        raise typer.Exit(ray_gc_command(ray, images=images, dry_run=dry_run))
    raise typer.Exit(gc_command(images, dry_run))


@images_app.command("bootstrap")
def images_bootstrap(
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if up to date.")] = False,
) -> None:
    """Build lhtb/base:bookworm (debootstrap + docker import) and lhtb/python:bookworm."""
    from lhtb.cli.commands import bootstrap_command

    raise typer.Exit(bootstrap_command(force))


@images_app.command("load")
def images_load(
    archives: Annotated[list[Path], typer.Argument(help="Image archives made by `docker save IMAGE -o FILE.tar`.")],
) -> None:
    """Load base images from archives, for machines without a registry (a task's FROM image must be present)."""
    from lhtb.cli.commands import images_load_command

    raise typer.Exit(images_load_command(archives))


@export_app.command("harbor")
def export_harbor(
    job_dir: Annotated[Path, typer.Argument(help="An lhtb job directory (jobs/<job>).")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Where Harbor's layout goes: OUT/<job>/.")] = Path(
        "harbor-jobs"
    ),
) -> None:
    """Write an lhtb job in Harbor's job layout (Harbor's JobResult and TrialResult models validate it)."""
    from lhtb.cli.commands import export_harbor_command

    raise typer.Exit(export_harbor_command(job_dir, out))


_JOB_DIRS_HELP = "Job directories (jobs/<job>); their trials are pooled per agent."


@app.command()
def report(
    job_dirs: Annotated[list[Path], typer.Argument(help=_JOB_DIRS_HELP)],
    fmt: Annotated[str, typer.Option("-f", "--format", help="table, md, html, csv or json.")] = "table",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write here instead of stdout.")] = None,
    threshold: Annotated[float, typer.Option(help="Pass threshold: solve rate, pass@k, failure modes.")] = 0.95,
    pass_at: Annotated[list[float] | None, typer.Option(help="pass@1 thresholds [0.9 0.95 1.0].")] = None,
    k: Annotated[list[int] | None, typer.Option("-k", help="pass@k values [1 and max attempts].")] = None,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 2000,
    include_flagged: Annotated[bool, typer.Option(help="Rank diagnostic/non-default-timeout jobs too.")] = False,
    skip_unreadable: Annotated[bool, typer.Option(help="List unreadable result files instead of failing.")] = False,
) -> None:
    """Leaderboard, pass rates, CIs, costs, failure modes and per-category tables from job results."""
    from lhtb.cli.report_commands import ReportOptions, report_command

    options = ReportOptions(job_dirs, threshold, pass_at, k, seed, resamples, include_flagged, skip_unreadable)
    raise typer.Exit(report_command(options, fmt, output))


@app.command()
def figures(
    job_dirs: Annotated[list[Path], typer.Argument(help=_JOB_DIRS_HELP)],
    output: Annotated[Path, typer.Option("-o", "--output", help="Directory for the figures.")] = Path("figures"),
    image_format: Annotated[list[str] | None, typer.Option(help="png, svg, pdf [png svg].")] = None,
    threshold: Annotated[float, typer.Option(help="Pass threshold.")] = 0.95,
    seed: Annotated[int, typer.Option(help="Bootstrap and jitter seed.")] = 0,
    include_flagged: Annotated[bool, typer.Option(help="Draw diagnostic/non-default-timeout jobs too.")] = False,
    skip_unreadable: Annotated[bool, typer.Option(help="List unreadable result files instead of failing.")] = False,
) -> None:
    """Reward distributions, pass rates, cost vs reward, reward over time and a task x agent heat map."""
    from lhtb.cli.report_commands import ReportOptions, figures_command

    options = ReportOptions(
        job_dirs, threshold, seed=seed, include_flagged=include_flagged, skip_unreadable=skip_unreadable
    )
    raise typer.Exit(figures_command(options, output, image_format or ["png", "svg"]))


@app.command("serve-local-model")
def serve_local_model(
    port: Annotated[int, typer.Option("--port", help="Loopback port to listen on.")] = 8089,
    model: Annotated[str, typer.Option("--model", help="qwen2.5-coder-0.5b or qwen2.5-coder-1.5b.")] = (
        "qwen2.5-coder-0.5b"
    ),
    n_ctx: Annotated[int, typer.Option("--n-ctx", help="Context window in tokens.")] = 8192,
    threads: Annotated[int | None, typer.Option("--threads")] = None,
    prepare_only: Annotated[bool, typer.Option("--prepare-only", help="Fetch and verify only.")] = False,
) -> None:
    """Serve a small real LLM offline on 127.0.0.1 (OpenAI-compatible; use -m openai/<model>)."""
    from lhtb.cli.llm_commands import serve_local_model_command

    raise typer.Exit(serve_local_model_command(port, model, n_ctx, threads, prepare_only))


@app.command()
def view(
    job_dirs: Annotated[list[Path], typer.Argument(help="Job directories (jobs/<job>).")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Site directory [JOB_DIR/view for one job].")
    ] = None,
    serve: Annotated[bool, typer.Option("--serve", help="Then serve it on 127.0.0.1 until Ctrl-C.")] = False,
    port: Annotated[int, typer.Option("--port", help="Port for --serve (0: any free port).")] = 8000,
) -> None:
    """Write a static web viewer (index, job and trial pages, trajectories, recordings) for job results."""
    from lhtb.cli.view_commands import view_command

    raise typer.Exit(view_command(job_dirs, output, serve=serve, port=port))


def main() -> None:
    app()
