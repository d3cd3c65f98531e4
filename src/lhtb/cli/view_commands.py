"""The work behind ``lhtb view``: build the static viewer site, and optionally serve it on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from lhtb.errors import LhtbError

err_console = Console(stderr=True)


def _fail(message: str) -> int:
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    return 2


def default_out_dir(job_dirs: list[Path]) -> Path | None:
    """``JOB_DIR/view`` for one job; several jobs need an explicit ``-o``."""
    unique = {d.resolve() for d in job_dirs}
    return job_dirs[0] / "view" if len(unique) == 1 else None


def view_command(job_dirs: list[Path], out_dir: Path | None, *, serve: bool = False, port: int = 8000) -> int:
    from pydantic import ValidationError

    from lhtb.cli.report_commands import ReportOptions, build
    from lhtb.viewer.site import SiteSummary, build_site

    out = out_dir or default_out_dir(job_dirs)
    if out is None:
        return _fail("several job directories: choose the site's directory with -o OUT_DIR")
    if not 0 <= port <= 65535:
        return _fail(f"--port {port}: choose 0-65535 (0 picks a free port)")

    def build_all() -> SiteSummary:
        # unreadable result files do not stop the viewer: the report lists them and each trial page says why
        report, _rows = build(ReportOptions(job_dirs, skip_unreadable=True))
        return build_site(report, job_dirs, out, live=serve)

    try:
        summary = build_all()
    except LhtbError as exc:
        return _fail(str(exc))
    except (ValidationError, ValueError, OSError) as exc:
        return _fail(f"{type(exc).__name__}: {exc}")
    for problem in summary.problems:
        err_console.print(f"[yellow]unreadable:[/yellow] {escape(problem)}", highlight=False)
    err_console.print(
        f"wrote {summary.n_jobs} job(s), {summary.n_trials} trial page(s): {summary.index}",
        highlight=False,
        markup=False,
    )
    if not serve:
        return 0
    from lhtb.viewer.live import LiveJob
    from lhtb.viewer.serve import LiveSite
    from lhtb.viewer.serve import serve as serve_site

    def live_jobs(built: SiteSummary) -> list[LiveJob]:
        return [
            LiveJob(job.slug, job.dir, job.config, {t.page.removesuffix(".html"): t.dir.name for t in job.trials})
            for job in built.jobs
        ]

    def rebuild() -> list[LiveJob]:
        return live_jobs(build_all())

    def ready(url: str) -> None:
        print(f"serving {out} at {url} (Ctrl-C to stop); pages update while jobs run", flush=True)

    try:
        serve_site(out, port, ready, LiveSite(job_dirs, rebuild, live_jobs(summary)))
    except OSError as exc:
        return _fail(f"cannot listen on 127.0.0.1:{port}: {exc}")
    return 0
