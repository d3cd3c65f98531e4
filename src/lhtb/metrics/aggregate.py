"""Aggregate trial rows into per-agent and per-agent-per-category metrics.

Denominator: every mean and rate is over *scored* trials (a row's reward is not None: the rule of
:mod:`lhtb.results.scoring`). Infrastructure errors are excluded and counted by class; verifier errors count
as 0. Resource means (tokens, episodes, minutes, cost) use the same scored trials, so every per-agent number
shares one denominator.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from lhtb.metrics.bootstrap import bootstrap_mean_ci
from lhtb.metrics.failure_modes import FailureMode, classify, is_near_miss
from lhtb.metrics.models import GroupMetrics, MetricSettings, threshold_key
from lhtb.metrics.passk import mean_pass_at_k, solve_rate
from lhtb.metrics.rows import TrialRow
from lhtb.results.scoring import DENOMINATOR_RULE

FULL_DENOMINATOR_RULE = (
    DENOMINATOR_RULE + " Every mean, rate, token, episode, minute and cost figure of an agent uses the same "
    "denominator: its scored trials. A cost is unknown (—) when any scored trial has no price."
)

GroupKey = tuple[str, tuple[str, ...]]  # (agent label, flags)


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return math.fsum(items) / len(items) if items else None


def _cost(scored: Sequence[TrialRow], n_solved: int) -> tuple[float | None, int, float | None]:
    unknown = sum(1 for r in scored if r.cost_usd is None)
    if unknown or not scored:
        return None, unknown, None
    total = math.fsum(r.cost_usd for r in scored if r.cost_usd is not None)
    return total / len(scored), 0, (total / n_solved if n_solved else None)


def _resource_means(scored: Sequence[TrialRow]) -> dict[str, float | None]:
    """Mean tokens, episodes and agent minutes per scored trial, in one pass (this runs on every trial)."""
    n = len(scored)
    if not n:
        return dict.fromkeys(_RESOURCE_FIELDS)
    tokens_in = tokens_cached = tokens_out = episodes = 0
    seconds: list[float] = []
    for row in scored:
        tokens_in += row.input_tokens
        tokens_cached += row.cached_input_tokens
        tokens_out += row.output_tokens
        episodes += row.episodes
        if row.agent_sec is not None:
            seconds.append(row.agent_sec)
    minutes = math.fsum(seconds) / len(seconds) / 60 if seconds else None
    values = (tokens_in / n, tokens_cached / n, tokens_out / n, episodes / n, minutes)
    return dict(zip(_RESOURCE_FIELDS, values, strict=True))


_RESOURCE_FIELDS = (
    "mean_input_tokens",
    "mean_cached_input_tokens",
    "mean_output_tokens",
    "mean_episodes",
    "mean_agent_minutes",
)


def group_metrics(
    rows: Sequence[TrialRow], *, agent: str, flags: tuple[str, ...], category: str, settings: MetricSettings
) -> GroupMetrics:
    """All metrics of one group of trials (one agent, optionally one category)."""
    scored = [r for r in rows if r.reward is not None]
    rewards = [r.reward for r in scored if r.reward is not None]
    by_task: dict[str, list[float]] = defaultdict(list)
    for row in scored:
        by_task[row.task].append(row.reward)  # type: ignore[arg-type]
    threshold = settings.threshold
    ci = bootstrap_mean_ci(
        list(by_task.values()),
        key=f"{agent}|{','.join(flags)}|{category}",
        seed=settings.seed,
        resamples=settings.resamples,
        confidence=settings.confidence,
    )
    per_task = [(len(v), sum(1 for r in v if r >= threshold)) for v in by_task.values()]
    pass_at_k, pass_at_k_tasks = {}, {}
    for k in settings.ks:
        pass_at_k[str(k)], pass_at_k_tasks[str(k)] = mean_pass_at_k(per_task, k)
    n_solved = sum(1 for r in rewards if r >= threshold)
    cost_per_task, cost_unknown, cost_per_solved = _cost(scored, n_solved)
    modes = Counter([classify(r, threshold) for r in rows])
    return GroupMetrics(
        agent=agent,
        category=category,
        flags=list(flags),
        n_trials=len(rows),
        n_scored=len(scored),
        n_excluded=len(rows) - len(scored),
        n_tasks=len({r.task for r in rows}),
        errors_by_class=dict(sorted(Counter(r.error_class for r in rows if r.error_class).items())),
        mean_reward=_mean(rewards),
        ci_low=None if ci is None else ci[0],
        ci_high=None if ci is None else ci[1],
        pass_rates={threshold_key(t): solve_rate(rewards, t) for t in settings.thresholds},
        pass_at_k=pass_at_k,
        pass_at_k_tasks=pass_at_k_tasks,
        n_solved=n_solved,
        near_misses=sum(1 for r in rewards if is_near_miss(r, threshold)),
        **_resource_means(scored),
        cost_per_task=cost_per_task,
        cost_unknown_trials=cost_unknown,
        cost_per_solved=cost_per_solved,
        failure_modes={m.value: modes.get(m.value, 0) for m in FailureMode},
        usage_sources=dict(sorted(Counter(r.usage_source for r in scored).items())),
    )


def group_rows(rows: Iterable[TrialRow]) -> dict[GroupKey, list[TrialRow]]:
    groups: dict[GroupKey, list[TrialRow]] = defaultdict(list)
    for row in rows:
        groups[(row.agent, row.flags)].append(row)
    return dict(sorted(groups.items()))


def agent_metrics(rows: Iterable[TrialRow], settings: MetricSettings) -> list[GroupMetrics]:
    """One GroupMetrics per (agent, flags), over all categories, sorted by agent label."""
    return [
        group_metrics(group, agent=agent, flags=flags, category="all", settings=settings)
        for (agent, flags), group in group_rows(rows).items()
    ]


def category_metrics(rows: Iterable[TrialRow], settings: MetricSettings) -> list[GroupMetrics]:
    """One GroupMetrics per (category, agent, flags), sorted by category then agent."""
    by_category: dict[tuple[str, str, tuple[str, ...]], list[TrialRow]] = defaultdict(list)
    for row in rows:
        by_category[(row.category, row.agent, row.flags)].append(row)
    return [
        group_metrics(group, agent=agent, flags=flags, category=category, settings=settings)
        for (category, agent, flags), group in sorted(by_category.items())
    ]
