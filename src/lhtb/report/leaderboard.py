"""Build the report: rank agents two ways, correlate the rankings, break down by category and by task."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

from lhtb.metrics.aggregate import FULL_DENOMINATOR_RULE, agent_metrics, category_metrics
from lhtb.metrics.failure_modes import MODE_DEFINITIONS
from lhtb.metrics.models import GroupMetrics, MetricSettings
from lhtb.metrics.ranking import average_ranks, spearman
from lhtb.metrics.rows import TrialRow
from lhtb.report.loading import LoadedJobs
from lhtb.report.models import Report, TaskCell


def rank_groups(groups: Sequence[GroupMetrics]) -> tuple[list[GroupMetrics], float | None]:
    """Sort best-first, set both ranks, return (groups, Spearman rho); groups with no scored trial are unranked."""
    ranked = [g for g in groups if g.mean_reward is not None]
    unranked = [g for g in groups if g.mean_reward is None]
    means = [g.mean_reward or 0.0 for g in ranked]
    solve_rates = [g.solve_rate or 0.0 for g in ranked]
    for group, by_mean, by_solve in zip(ranked, average_ranks(means), average_ranks(solve_rates), strict=True):
        group.rank_by_mean, group.rank_by_solve_rate = by_mean, by_solve
    for group in unranked:
        group.rank_by_mean = group.rank_by_solve_rate = None
    ranked.sort(key=lambda g: (-(g.mean_reward or 0.0), -(g.solve_rate or 0.0), g.display_name))
    rho = spearman(means, solve_rates)
    return ranked + sorted(unranked, key=lambda g: g.display_name), rho


def _rank_by_category(groups: Iterable[GroupMetrics]) -> list[GroupMetrics]:
    by_category: dict[str, list[GroupMetrics]] = defaultdict(list)
    for group in groups:
        by_category[group.category].append(group)
    out: list[GroupMetrics] = []
    for category in sorted(by_category):
        out.extend(rank_groups(by_category[category])[0])
    return out


def task_matrix(rows: Iterable[TrialRow]) -> list[TaskCell]:
    """Mean scored reward per (task, agent) over its attempts; flagged variants are labelled as in the board."""
    cells: dict[tuple[str, str, str], list[TrialRow]] = defaultdict(list)
    for row in rows:
        agent = row.agent if not row.flags else f"{row.agent} [{', '.join(row.flags)}]"
        cells[(row.task, row.category, agent)].append(row)
    out = []
    for (task, category, agent), trials in sorted(cells.items()):
        rewards = [r.reward for r in trials if r.reward is not None]
        out.append(
            TaskCell(
                task=task,
                category=category,
                agent=agent,
                mean_reward=math.fsum(rewards) / len(rewards) if rewards else None,
                n_scored=len(rewards),
                n_trials=len(trials),
            )
        )
    return out


def build_report(loaded: LoadedJobs, settings: MetricSettings) -> Report:
    """The whole report from loaded rows; deterministic for given files and settings."""
    main_rows = [r for r in loaded.rows if settings.include_flagged or not r.flags]
    flagged_rows = [] if settings.include_flagged else [r for r in loaded.rows if r.flags]
    leaderboard, rho = rank_groups(agent_metrics(main_rows, settings))
    flagged = sorted(agent_metrics(flagged_rows, settings), key=lambda g: g.display_name)
    return Report(
        jobs=loaded.jobs,
        settings=settings,
        denominator_rule=FULL_DENOMINATOR_RULE,
        failure_mode_definitions={
            mode.value: text.replace("threshold", f"threshold ({settings.threshold:g})", 1)
            for mode, text in MODE_DEFINITIONS.items()
        },
        leaderboard=leaderboard,
        flagged=flagged,
        spearman_rho=rho,
        categories=_rank_by_category(category_metrics(main_rows, settings)),
        task_matrix=task_matrix(main_rows),
        problems=loaded.problems,
    )
