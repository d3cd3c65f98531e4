"""The work behind ``lhtb report`` and ``lhtb figures``; returns the process exit code."""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from lhtb.errors import LhtbError
from lhtb.results.scoring import PASS_THRESHOLD
from lhtb.textsafe import markup_block

if TYPE_CHECKING:
    from lhtb.metrics.rows import TrialRow
    from lhtb.report.models import Report

err_console = Console(stderr=True)


@dataclass(frozen=True)
class ReportOptions:
    job_dirs: list[Path]
    threshold: float = PASS_THRESHOLD
    thresholds: list[float] | None = None
    ks: list[int] | None = None
    seed: int = 0
    resamples: int = 2000
    include_flagged: bool = False
    skip_unreadable: bool = False


def _fail(message: str) -> int:
    err_console.print(f"[red]error:[/red] {markup_block(message)}", highlight=False)
    return 2


def build(options: ReportOptions, *, curves: bool = False) -> tuple[Report, list[TrialRow]]:
    """Load the jobs and compute the report; raises LhtbError or ValueError with a message a user can act on."""
    from lhtb.metrics.models import DEFAULT_THRESHOLDS, MetricSettings
    from lhtb.report.leaderboard import build_report
    from lhtb.report.loading import load_jobs

    loaded = load_jobs(options.job_dirs, skip_unreadable=options.skip_unreadable, curves=curves)
    # default: pass@1, plus pass@k at the largest attempt number present
    ks = tuple(options.ks) if options.ks else (1, max((row.attempt for row in loaded.rows), default=1))
    thresholds = tuple(options.thresholds) if options.thresholds else DEFAULT_THRESHOLDS
    settings = MetricSettings(
        threshold=options.threshold,
        thresholds=tuple(sorted({*thresholds, options.threshold})),
        ks=ks,
        seed=options.seed,
        resamples=options.resamples,
        include_flagged=options.include_flagged,
    )
    return build_report(loaded, settings), list(loaded.rows)


def report_command(options: ReportOptions, fmt: str, output: Path | None) -> int:
    from pydantic import ValidationError

    from lhtb.report.render import FORMATS, render

    if fmt not in FORMATS:
        return _fail(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    try:
        report, _rows = build(options)
    except LhtbError as exc:
        return _fail(str(exc))
    except ValidationError as exc:
        return _fail(f"invalid report settings: {exc}")
    # The terminal's own width (tables stack to fit it); a file gets a wide page.
    width = max(60, shutil.get_terminal_size((200, 24)).columns) if output is None else 200
    text = render(report, fmt, width=width)  # fmt was narrowed by the FORMATS check
    if output is None:
        sys.stdout.write(text)
    else:
        from lhtb.fs import write_text_atomic

        write_text_atomic(output, text)
        err_console.print(f"wrote {output}")
    return 0


def figures_command(options: ReportOptions, out_dir: Path, formats: list[str]) -> int:
    from pydantic import ValidationError

    from lhtb.figures.render import render_figures

    unknown = sorted(set(formats) - {"png", "svg", "pdf"})
    if unknown:
        return _fail(f"--image-format {', '.join(unknown)}: choose png, svg or pdf")
    try:
        report, rows = build(options, curves=True)
    except LhtbError as exc:
        return _fail(str(exc))
    except ValidationError as exc:
        return _fail(f"invalid report settings: {exc}")
    manifest = render_figures(report, rows, out_dir, formats)
    for name, entry in manifest.items():
        err_console.print(f"{name}: {', '.join(str(out_dir / f) for f in entry['files'])}", highlight=False)
    return 0
