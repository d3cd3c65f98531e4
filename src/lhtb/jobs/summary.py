"""The job summary: per-agent mean reward and pass rates, with an explicit rule for errored trials."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from lhtb.errors import ERROR_POLICY
from lhtb.results.models import AgentSummary, TrialResult
from lhtb.textsafe import plain

DENOMINATOR_RULE = (
    "Trials with an infrastructure error (build, start, agent setup, LLM transient/auth, harness, cancelled) are "
    "excluded from the denominator and counted separately; verifier errors and timeouts count as reward 0."
)


def scored_reward(result: TrialResult) -> float | None:
    """The reward that counts for metrics, or None when the trial is excluded (infrastructure failure)."""
    if result.reward is not None and (result.error is None or ERROR_POLICY[result.error.error_class].grade):
        return result.reward
    if result.error is not None and not ERROR_POLICY[result.error.error_class].counts_as_failure:
        return None
    return 0.0


def summarise(results: list[TrialResult]) -> tuple[list[AgentSummary], dict[str, int]]:
    by_agent: dict[str, list[TrialResult]] = defaultdict(list)
    errors: Counter[str] = Counter()
    for result in results:
        by_agent[result.agent.label].append(result)
        if result.error is not None:
            errors[result.error.error_class.value] += 1
    summaries = []
    for label, trials in sorted(by_agent.items()):
        rewards = [r for r in (scored_reward(t) for t in trials) if r is not None]
        n = len(rewards)
        summaries.append(
            AgentSummary(
                agent=label,
                n_trials=len(trials),
                n_scored=n,
                n_excluded=len(trials) - n,
                mean_reward=math.fsum(rewards) / n if n else None,
                pass_rate_095=sum(r >= 0.95 for r in rewards) / n if n else None,
                pass_rate_100=sum(r >= 1.0 for r in rewards) / n if n else None,
            )
        )
    summaries.sort(key=lambda s: -(s.mean_reward if s.mean_reward is not None else -1.0))
    return summaries, dict(errors)


def render_leaderboard(summaries: list[AgentSummary], errors: dict[str, int], title: str) -> object:
    from rich.table import Table

    table = Table(title=title)
    for column in ("rank", "agent", "trials", "scored", "excluded", "mean reward", "pass ≥0.95", "pass =1.0"):
        table.add_column(column, justify="left" if column == "agent" else "right")

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.1f}%"

    for rank, summary in enumerate(summaries, start=1):
        table.add_row(
            str(rank),
            plain(summary.agent),
            str(summary.n_trials),
            str(summary.n_scored),
            str(summary.n_excluded),
            "—" if summary.mean_reward is None else f"{summary.mean_reward:.3f}",
            pct(summary.pass_rate_095),
            pct(summary.pass_rate_100),
        )
    if errors:
        table.caption = plain("errors: " + ", ".join(f"{k}={v}" for k, v in sorted(errors.items())))
    return table


def subtask_means(results: list[TrialResult]) -> dict[tuple[str, str], dict[str, tuple[float, int]]]:
    """(task, agent) → subtask name → (mean score, number of attempts that graded it)."""
    scores: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for result in results:
        for subtask in result.subtasks:
            scores[(result.task_name, result.agent.label)][subtask.name].append(subtask.score)
    return {
        key: {name: (math.fsum(values) / len(values), len(values)) for name, values in by_name.items()}
        for key, by_name in sorted(scores.items())
    }


def render_subtask_means(results: list[TrialResult]) -> object:
    from rich.table import Table

    table = Table(title="per-subtask mean score across attempts")
    for column in ("task", "agent", "subtask", "mean score", "attempts"):
        table.add_column(column, justify="right" if column in ("mean score", "attempts") else "left")
    for (task, agent), by_name in subtask_means(results).items():
        for name, (mean, count) in by_name.items():
            table.add_row(plain(task), plain(agent), plain(name), f"{mean:.3f}", str(count))
    return table
