"""Build the static site: index.html, jobs/<job>/index.html, jobs/<job>/trials/<trial>.html and static/.

Pages link to each other relatively, so the directory works from file:// as well as over HTTP; every file is
written atomically.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from lhtb.fs import first_problem, write_text_atomic
from lhtb.jobs.layout import JobLayout
from lhtb.report.models import Report
from lhtb.results.models import JobConfig, TrialResult
from lhtb.viewer.compare import render_compare
from lhtb.viewer.markup import href
from lhtb.viewer.pages import JobEntry, TrialEntry, render_index, render_job
from lhtb.viewer.trial_page import render_trial

STATIC_FILES = ("viewer.css", "viewer.js", "cast.js", "compare.js", "live.js", "favicon.svg")


@dataclass(frozen=True)
class SiteSummary:
    out_dir: Path
    index: Path
    n_jobs: int
    n_trials: int
    problems: list[str]
    jobs: list[JobEntry]


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")[:100] or "x"
    slug, n = base, 1
    while slug.lower() in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug.lower())
    return slug


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return f"invalid trial result: {first_problem(exc)}"
    return f"{type(exc).__name__}: {exc}"


def _load_trial(trial_dir: Path, taken: set[str]) -> TrialEntry:
    entry = TrialEntry(dir=trial_dir, page=_slug(trial_dir.name, taken) + ".html")
    try:
        entry.result = TrialResult.model_validate_json((trial_dir / "result.json").read_bytes())
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:  # ValidationError is a ValueError
        entry.problem = _problem(exc)
    return entry


def _load_harbor_job(job_dir: Path, taken_slugs: set[str]) -> JobEntry:
    """A Harbor job's trials as lhtb results (lhtb.harbor.results_import), each unreadable one with its reason."""
    from lhtb.harbor.results_import import lhtb_job_config, load_harbor_job

    config, results, problems, _unfinished = load_harbor_job(job_dir)
    job = JobEntry(
        dir=job_dir, config=lhtb_job_config(config, results, job_dir), slug=_slug(config.job_name, taken_slugs)
    )
    taken: set[str] = set()
    job.trials = [
        TrialEntry(dir=job_dir / r.trial_name, page=_slug(r.trial_name, taken) + ".html", result=r) for r in results
    ]
    for problem in problems:
        path, _, reason = problem.partition(": ")
        trial_dir = Path(path).parent
        job.trials.append(TrialEntry(dir=trial_dir, page=_slug(trial_dir.name, taken) + ".html", problem=reason))
    return job


def load_job(job_dir: Path, taken_slugs: set[str]) -> JobEntry:
    """A job's config and every trial directory's result (or why it has none); Harbor jobs too."""
    from lhtb.harbor.results_import import is_harbor_job

    if is_harbor_job(job_dir):
        return _load_harbor_job(job_dir, taken_slugs)
    layout = JobLayout(job_dir)
    config = JobConfig.model_validate_json(layout.config.read_bytes())
    job = JobEntry(dir=job_dir, config=config, slug=_slug(config.job_name, taken_slugs))
    trial_dirs = sorted(p for p in layout.trials.iterdir() if p.is_dir()) if layout.trials.is_dir() else []
    taken: set[str] = set()
    job.trials = [_load_trial(d, taken) for d in trial_dirs]
    return job


def _copy_static(out_dir: Path) -> None:
    package = resources.files("lhtb.viewer") / "static"
    for name in STATIC_FILES:
        write_text_atomic(out_dir / "static" / name, (package / name).read_text(encoding="utf-8"))


def build_site(report: Report, job_dirs: Sequence[Path], out_dir: Path, *, live: bool = False) -> SiteSummary:
    """Write the site for ``job_dirs`` (``report`` is their report, built by lhtb.cli.report_commands.build).

    ``live``: for ``lhtb view --serve``, job and trial pages poll the server's ``/live/`` answers."""
    taken: set[str] = set()
    jobs: list[JobEntry] = []
    seen: set[Path] = set()
    for job_dir in job_dirs:
        if job_dir.resolve() in seen:
            continue
        seen.add(job_dir.resolve())
        jobs.append(load_job(job_dir, taken))
    _copy_static(out_dir)
    problems = []
    for job in jobs:
        job_out = out_dir / "jobs" / job.slug
        write_text_atomic(job_out / "index.html", render_job(job, live=live))
        for trial in job.trials:
            url = href("..", "..", "..", "live", job.slug, trial.page.removesuffix(".html") + ".json") if live else None
            html = render_trial(trial.dir, trial.result, trial.problem, job_name=job.config.job_name, live_url=url)
            write_text_atomic(job_out / "trials" / trial.page, html)
            if trial.problem:
                problems.append(f"{trial.dir / 'result.json'}: {trial.problem}")
    write_text_atomic(out_dir / "compare.html", render_compare(jobs))
    index = out_dir / "index.html"
    write_text_atomic(index, render_index(report, jobs))
    return SiteSummary(out_dir, index, len(jobs), sum(len(j.trials) for j in jobs), problems, jobs)
