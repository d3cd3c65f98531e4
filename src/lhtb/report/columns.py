"""What the human-readable formats show: sections of columns, shared by the table, Markdown and HTML renderers.

Keeping the column definitions in one place means the three formats cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lhtb.metrics.failure_modes import NEAR_MISS_FLOOR, FailureMode
from lhtb.metrics.models import GroupMetrics, threshold_key
from lhtb.report.models import Report

DASH = "—"


@dataclass(frozen=True)
class Column:
    header: str
    cell: Callable[[GroupMetrics], str]
    numeric: bool = True
    key: bool = False  # names the row: repeated in every part of a table stacked to fit the terminal


@dataclass(frozen=True)
class Section:
    title: str
    columns: list[Column]
    rows: list[GroupMetrics]
    caption: str = ""


def pct(value: float | None) -> str:
    return DASH if value is None else f"{100 * value:.1f}%"


def num(value: float | None, digits: int = 3) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def count(value: float | None) -> str:
    return DASH if value is None else f"{value:,.0f}"


def usd(value: float | None) -> str:
    return DASH if value is None else f"${value:.4f}"


def rank(value: float | None) -> str:
    return DASH if value is None else f"{value:g}"


def _ci(group: GroupMetrics) -> str:
    if group.ci_low is None or group.ci_high is None:
        return DASH
    return f"[{group.ci_low:.3f}, {group.ci_high:.3f}]"


def _errors(group: GroupMetrics) -> str:
    return ", ".join(f"{name}={n}" for name, n in group.errors_by_class.items()) or DASH


def _agent() -> Column:
    return Column("agent", lambda g: g.display_name, numeric=False, key=True)


def _pass_rate(key: str) -> Column:
    return Column(f"pass@1 ≥{key}", lambda g: pct(g.pass_rates.get(key)))


def _pass_at(k: int) -> Column:
    def cell(group: GroupMetrics) -> str:
        text = pct(group.pass_at_k.get(str(k)))
        used = group.pass_at_k_tasks.get(str(k), 0)
        return text if used == group.n_tasks else f"{text} ({used}/{group.n_tasks} tasks)"

    return Column(f"pass@{k}", cell)


def _mode(mode: FailureMode) -> Column:
    return Column(mode.value.replace("_", " "), lambda g: str(g.failure_modes.get(mode.value, 0)))


def leaderboard_columns(report: Report) -> list[Column]:
    settings = report.settings
    confidence = f"{100 * settings.confidence:g}% CI"
    columns = [
        Column("#mean", lambda g: rank(g.rank_by_mean)),
        Column(f"#solve≥{settings.threshold:g}", lambda g: rank(g.rank_by_solve_rate)),
        _agent(),
        Column("trials", lambda g: str(g.n_trials)),
        Column("scored", lambda g: str(g.n_scored)),
        Column("excluded", lambda g: str(g.n_excluded)),
        Column("mean reward", lambda g: num(g.mean_reward)),
        Column(confidence, _ci),
    ]
    columns += [_pass_rate(threshold_key(t)) for t in settings.thresholds]
    columns += [_pass_at(k) for k in settings.ks if k > 1]
    columns.append(Column(f"near miss [{NEAR_MISS_FLOOR:g},{settings.threshold:g})", lambda g: str(g.near_misses)))
    columns.append(Column("errors", _errors, numeric=False))
    return columns


SELF_REPORTED_MARK = "*"
SELF_REPORTED_NOTE = (
    f"Usage source: a {SELF_REPORTED_MARK} after a token, episode or cost figure means some of it is "
    "self-reported by the agent (an installed CLI's own output, which anything in its container can write), not "
    "measured by lhtb's "
    "model layer; the usage column counts scored trials per source. Negative, non-finite or absurd "
    "reported figures are refused (stored as 0, cost unknown) with a note in the trial's usage.refused."
)


def usage_source(group: GroupMetrics) -> str:
    """Who counted the usage of a group's scored trials: one source, or the count per source."""
    sources = {source: n for source, n in group.usage_sources.items() if source != "none"}
    if not sources:
        return DASH
    if len(sources) == 1:
        return next(iter(sources))
    return ", ".join(f"{n} {source}" for source, n in sources.items())


def _usage_figure(text: Callable[[GroupMetrics], str]) -> Callable[[GroupMetrics], str]:
    """A usage cell, marked when any of its figures is not lhtb's own measurement."""

    def cell(group: GroupMetrics) -> str:
        shown = text(group)
        return shown + SELF_REPORTED_MARK if group.unmeasured_usage and shown != DASH else shown

    return cell


def effort_columns() -> list[Column]:
    return [
        _agent(),
        Column("input tok", _usage_figure(lambda g: count(g.mean_input_tokens))),
        Column("cached tok", _usage_figure(lambda g: count(g.mean_cached_input_tokens))),
        Column("output tok", _usage_figure(lambda g: count(g.mean_output_tokens))),
        Column("episodes", _usage_figure(lambda g: num(g.mean_episodes, 1))),
        Column("agent min", lambda g: num(g.mean_agent_minutes, 2)),
        Column("$ / task", _usage_figure(lambda g: usd(g.cost_per_task))),
        Column("$ / solved", _usage_figure(lambda g: usd(g.cost_per_solved))),
        Column("unpriced", lambda g: str(g.cost_unknown_trials)),
        Column("usage source", usage_source, numeric=False),
    ]


def failure_columns() -> list[Column]:
    return [_agent(), *(_mode(mode) for mode in FailureMode)]


def category_columns(report: Report) -> list[Column]:
    threshold = report.settings.threshold
    return [
        Column("#mean", lambda g: rank(g.rank_by_mean)),
        _agent(),
        Column("tasks", lambda g: str(g.n_tasks)),
        Column("scored", lambda g: str(g.n_scored)),
        Column("excluded", lambda g: str(g.n_excluded)),
        Column("mean reward", lambda g: num(g.mean_reward)),
        Column(f"{100 * report.settings.confidence:g}% CI", _ci),
        Column(f"pass@1 ≥{threshold:g}", lambda g: pct(g.solve_rate)),
        Column("near miss", lambda g: str(g.near_misses)),
    ]


def spearman_caption(report: Report) -> str:
    n = sum(1 for g in report.leaderboard if g.rank_by_mean is not None)
    rho = DASH if report.spearman_rho is None else f"{report.spearman_rho:.3f}"
    return f"Spearman ρ between the two rankings: {rho} over {n} ranked agent(s)"


def sections(report: Report) -> list[Section]:
    """The report's tables in display order."""
    out = [
        Section("Leaderboard", leaderboard_columns(report), report.leaderboard, spearman_caption(report)),
        Section("Cost and effort per task (means over scored trials)", effort_columns(), report.leaderboard),
        Section("Failure modes (trials)", failure_columns(), report.leaderboard),
    ]
    if report.flagged:
        out.append(
            Section(
                "Flagged: diagnostic feedback or non-default timeouts (not ranked; --include-flagged ranks them)",
                leaderboard_columns(report),
                report.flagged,
            )
        )
    categories = sorted({g.category for g in report.categories})
    for category in categories:
        rows = [g for g in report.categories if g.category == category]
        out.append(Section(f"Category: {category}", category_columns(report), rows))
    return out


def notes(report: Report) -> list[str]:
    """Rules and settings a reader needs to interpret the numbers; printed under every human format."""
    settings = report.settings
    lines = [
        f"Denominator: {report.denominator_rule}",
        f"Solved means reward ≥ {settings.threshold:g}; pass@1 is reported at "
        f"{', '.join(f'{t:g}' for t in settings.thresholds)}.",
        f"Mean-reward CI: percentile bootstrap over tasks, {settings.resamples} resamples, seed {settings.seed}.",
        "pass@k: unbiased estimator 1 − C(n−c, k)/C(n, k) per task, averaged over tasks with ≥ k scored attempts.",
        "Ranks: #mean ranks by mean reward, #solve by solve rate; 1 = best; ties share the average rank.",
    ]
    lines.append(SELF_REPORTED_NOTE)
    lines += [f"Failure mode {name}: {text}" for name, text in report.failure_mode_definitions.items()]
    for job in report.jobs:
        flags = f" flags: {', '.join(job.flags)}" if job.flags else ""
        lines.append(f"Job {job.job_name} ({job.path}): {job.n_results} results, {job.n_unfinished} unfinished.{flags}")
    lines += [f"UNREADABLE (left out): {problem}" for problem in report.problems]
    return lines
