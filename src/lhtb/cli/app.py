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
images_app = typer.Typer(no_args_is_help=True, help="Build the offline base images.")
app.add_typer(tasks_app, name="tasks")
app.add_typer(jobs_app, name="jobs")
app.add_typer(trials_app, name="trials")
app.add_typer(env_app, name="env")
app.add_typer(images_app, name="images")


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
) -> None:
    """Run agents on tasks and print a leaderboard."""
    from lhtb.cli.commands import run_command

    raise typer.Exit(
        run_command(path, agent, concurrency, attempts, task, output, job_name, max_retries, timeout_multiplier)
    )


@tasks_app.command("list")
def tasks_list(path: Annotated[Path, typer.Option("-p", "--path")] = Path("tasks")) -> None:
    """List tasks with category, timeouts and validity (invalid tasks name the file and the field)."""
    from lhtb.cli.commands import tasks_list_command

    raise typer.Exit(tasks_list_command(path))


@jobs_app.command("resume")
def jobs_resume(job_dir: Path) -> None:
    """Re-run exactly the trials of JOB_DIR that have no final result."""
    from lhtb.cli.commands import resume_command

    raise typer.Exit(resume_command(job_dir))


@jobs_app.command("show")
def jobs_show(job_dir: Path) -> None:
    """Print a job's leaderboard from its result files."""
    from lhtb.cli.commands import jobs_show_command

    raise typer.Exit(jobs_show_command(job_dir))


@trials_app.command("show")
def trials_show(trial_dir: Path) -> None:
    """Print a trial's scorecard and phase history."""
    from lhtb.cli.commands import trials_show_command

    raise typer.Exit(trials_show_command(trial_dir))


@env_app.command("gc")
def env_gc(
    images: Annotated[bool, typer.Option("--images", help="Also remove cached task images.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
) -> None:
    """Remove containers (and optionally task images) left by lhtb processes that are gone."""
    from lhtb.cli.commands import gc_command

    raise typer.Exit(gc_command(images, dry_run))


@images_app.command("bootstrap")
def images_bootstrap(
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if up to date.")] = False,
) -> None:
    """Build lhtb/base:bookworm (debootstrap + docker import) and lhtb/python:bookworm."""
    from lhtb.cli.commands import bootstrap_command

    raise typer.Exit(bootstrap_command(force))


def main() -> None:
    app()
