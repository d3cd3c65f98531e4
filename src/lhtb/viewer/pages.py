"""The index (jobs + the report's leaderboard tables) and one page per job (a sortable table of its trials)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.metrics.rows import TrialRow, job_flags, to_row
from lhtb.report.columns import Section, notes, sections
from lhtb.report.models import Report
from lhtb.results.models import JobConfig, TrialResult
from lhtb.viewer.markup import (
    Cell,
    count,
    definition_list,
    esc,
    href,
    minutes,
    num,
    num_cell,
    page,
    section,
    table,
    text_cell,
    usd,
)


@dataclass
class TrialEntry:
    dir: Path
    page: str  # file name under the job's trials/
    result: TrialResult | None = None
    problem: str | None = None  # why result.json could not be read


@dataclass
class JobEntry:
    dir: Path
    config: JobConfig
    slug: str  # directory name under the site's jobs/
    trials: list[TrialEntry] = field(default_factory=list)


def _report_section(part: Section) -> str:
    rows = [[Cell(esc(c.cell(g)), sort=c.cell(g), numeric=c.numeric) for c in part.columns] for g in part.rows]
    body = table([c.header for c in part.columns], rows, sortable=True)
    caption = f'<p class="muted">{esc(part.caption)}</p>' if part.caption else ""
    return section(part.title, body + caption)


def _task_matrix(report: Report) -> str:
    agents = sorted({cell.agent for cell in report.task_matrix})
    tasks = sorted({(cell.category, cell.task) for cell in report.task_matrix})
    if not agents:
        return ""
    lookup = {(cell.task, cell.agent): cell for cell in report.task_matrix}
    rows = []
    for category, task in tasks:
        row = [text_cell(task), text_cell(category)]
        for agent in agents:
            cell = lookup.get((task, agent))
            value = cell.mean_reward if cell else None
            shown = num(value) + (f" ({cell.n_scored}/{cell.n_trials})" if cell else "")
            row.append(num_cell(value, shown))
        rows.append(row)
    body = table(["task", "category", *agents], rows, sortable=True)
    return section("Mean reward per task (scored / trials)", body)


def render_index(report: Report, jobs: Sequence[JobEntry]) -> str:
    job_rows = [
        [
            Cell(
                f'<a href="{href("jobs", job.slug, "index.html")}">{esc(job.config.job_name)}</a>',
                sort=job.config.job_name,
            ),
            text_cell(job.config.created_at.isoformat(timespec="seconds")),
            text_cell(", ".join(a.label for a in job.config.agents)),
            num_cell(len(job.config.task_names), str(len(job.config.task_names))),
            num_cell(len(job.trials), str(len(job.trials))),
            num_cell(sum(1 for t in job.trials if t.result), str(sum(1 for t in job.trials if t.result))),
            text_cell(", ".join(job_flags(job.config))),
            text_cell(str(job.dir)),
        ]
        for job in jobs
    ]
    headers = ["job", "created", "agents", "tasks", "trials", "results", "flags", "path"]
    compare = '<p><a href="compare.html" id="compare-link">Compare two agents or jobs →</a></p>'
    parts = ["<h1>lhtb jobs</h1>", compare, section("Jobs", table(headers, job_rows, sortable=True))]
    parts += [_report_section(part) for part in sections(report)]
    parts.append(_task_matrix(report))
    parts.append(section("Notes", "<ul>" + "".join(f"<li>{esc(line)}</li>" for line in notes(report)) + "</ul>"))
    return page("lhtb view", "\n".join(parts), root="", crumbs=[("jobs", None)])


def _trial_row(job: JobEntry, trial: TrialEntry, flags: tuple[str, ...]) -> list[Cell]:
    link = Cell(f'<a href="{href("trials", trial.page)}">{esc(trial.dir.name)}</a>', sort=trial.dir.name)
    if trial.result is None:
        status = f"unreadable: {trial.problem}" if trial.problem else "no result yet"
        return [link, text_cell(status), *[text_cell(None) for _ in range(10)]]
    row: TrialRow = to_row(trial.result, flags, with_curve=False)
    tokens = row.input_tokens + row.output_tokens
    mark = "*" if row.usage_source not in ("measured", "none") else ""  # not lhtb's own measurement
    phases = len(trial.result.phases)
    reward_cls = "ok" if (row.reward or 0) >= 1 else "bad" if row.reward in (None, 0) else "part"
    return [
        link,
        text_cell(row.task),
        text_cell(row.agent),
        num_cell(row.attempt, str(row.attempt)),
        Cell(f'<span class="{reward_cls}">{esc(num(row.reward))}</span>', sort=row.reward, numeric=True),
        text_cell(row.error_class),
        text_cell(row.stop_reason),
        num_cell(phases, str(phases)),
        num_cell(row.agent_sec, minutes(row.agent_sec)),
        num_cell(tokens, count(tokens) + mark),
        num_cell(row.cost_usd, usd(row.cost_usd) + mark),
        text_cell(row.usage_source),
    ]


LIVE_JOB = (
    '<section id="live" data-live="{url}"><h2>Live</h2><p id="live-progress" class="muted">waiting for the '
    'first answer…</p><table id="live-running"><thead><tr><th>trial</th><th>phase</th><th>agent time</th>'
    "<th>last seen working</th><th>interim rewards</th><th>checkpoints</th><th>episodes</th><th>tokens</th>"
    "</tr></thead><tbody></tbody></table></section>"
)


def render_job(job: JobEntry, *, live: bool = False) -> str:
    config = job.config
    flags = job_flags(config)
    facts = definition_list(
        [
            ("job", config.job_name),
            ("path", str(job.dir)),
            ("created", config.created_at.isoformat(timespec="seconds")),
            ("dataset", config.dataset_path),
            ("tasks", ", ".join(config.task_names)),
            ("agents", ", ".join(a.label for a in config.agents)),
            ("attempts", config.attempts),
            ("concurrency", config.concurrency),
            ("max retries", config.max_retries),
            ("timeout multiplier", f"{config.agent_timeout_multiplier:g}"),
            (
                "continue until timeout",
                "per task" if config.continue_until_timeout is None else config.continue_until_timeout,
            ),
            ("feedback mode", config.feedback_mode),
            ("lhtb version", config.lhtb_version),
        ]
    )
    headers = [
        "trial",
        "task",
        "agent",
        "attempt",
        "reward",
        "error class",
        "stop reason",
        "phases",
        "agent min",
        "tokens",
        "cost",
        "usage source",
    ]
    rows = [_trial_row(job, trial, flags) for trial in job.trials]
    keys = [trial.dir.name for trial in job.trials]
    problems = [t for t in job.trials if t.problem]
    warn = f'<p class="warn">{len(problems)} result file(s) could not be read.</p>' if problems else ""
    filter_box = '<p><input type="search" class="filter" placeholder="filter trials…" aria-label="filter trials"></p>'
    trials = table(headers, rows, sortable=True, cls="trials", keys=keys)
    body = [
        f"<h1>{esc(config.job_name)}</h1>",
        *([LIVE_JOB.format(url=href("..", "..", "live", job.slug + ".json"))] if live else []),
        section("Configuration", facts),
        section(f"Trials ({len(job.trials)})", warn + filter_box + trials),
    ]
    crumbs = [("jobs", "../../index.html"), (config.job_name, None)]
    scripts = ("live.js",) if live else ()
    return page(f"{config.job_name} · lhtb view", "\n".join(body), root="../../", crumbs=crumbs, scripts=scripts)
