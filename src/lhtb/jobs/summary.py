"""The job summary: per-agent mean reward and pass rates over the metrics layer's rows.

Which reward counts and the pass thresholds are :mod:`lhtb.results.scoring`'s, as in ``lhtb report``.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from lhtb.metrics.passk import solve_rate
from lhtb.metrics.rows import TrialRow, to_row
from lhtb.results.models import AgentSummary, TrialResult
from lhtb.results.scoring import FULL_PASS_THRESHOLD, PASS_THRESHOLD, scored_reward
from lhtb.textsafe import one_line, plain


def summarise(results: list[TrialResult]) -> tuple[list[AgentSummary], dict[str, int]]:
    """One summary per agent label, best mean first (agents with no scored trial last), and errors by class."""
    rows = [to_row(result, with_curve=False) for result in results]
    by_agent: dict[str, list[TrialRow]] = defaultdict(list)
    for row in rows:
        by_agent[row.agent].append(row)
    summaries = [_agent_summary(label, group) for label, group in sorted(by_agent.items())]
    summaries.sort(key=lambda s: -(s.mean_reward if s.mean_reward is not None else -1.0))
    return summaries, dict(Counter(row.error_class for row in rows if row.error_class is not None))


def _agent_summary(agent: str, rows: list[TrialRow]) -> AgentSummary:
    rewards = [row.reward for row in rows if row.reward is not None]
    return AgentSummary(
        agent=agent,
        n_trials=len(rows),
        n_scored=len(rewards),
        n_excluded=len(rows) - len(rewards),
        mean_reward=math.fsum(rewards) / len(rewards) if rewards else None,
        pass_rate_095=solve_rate(rewards, PASS_THRESHOLD),
        pass_rate_100=solve_rate(rewards, FULL_PASS_THRESHOLD),
    )


def render_leaderboard(
    summaries: list[AgentSummary], errors: dict[str, int], title: str, *, width: int = 120
) -> list[object]:
    """The leaderboard fitted to ``width`` terminal cells (stacked in parts, long agent names shortened and
    written out below), then the error counts; renderables for a rich console."""
    from lhtb.report.fit import FitColumn, fit_table

    rates = (f"pass ≥{PASS_THRESHOLD}", f"pass ={FULL_PASS_THRESHOLD}")
    headers = ("rank", "agent", "trials", "scored", "excluded", "mean reward", *rates)
    columns = [FitColumn(h, numeric=h != "agent", key=h == "agent") for h in headers]

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.1f}%"

    rows = [
        [
            str(rank),
            summary.agent,
            str(summary.n_trials),
            str(summary.n_scored),
            str(summary.n_excluded),
            "—" if summary.mean_reward is None else f"{summary.mean_reward:.3f}",
            pct(summary.pass_rate_095),
            pct(summary.pass_rate_100),
        ]
        for rank, summary in enumerate(summaries, start=1)
    ]
    caption = "errors: " + ", ".join(f"{k}={v}" for k, v in sorted(errors.items())) if errors else None
    fitted = fit_table(title, columns, rows, width, caption)
    out: list[object] = list(fitted.renderables)
    if fitted.full_names:
        out.append(plain("agents in full: " + "; ".join(fitted.full_names)))
    return out


def infrastructure_errors(results: list[TrialResult], *, limit: int = 8) -> list[str]:
    """Lines for people: each kind of infrastructure error that kept trials out of the denominators, with its
    one-line cause and the trials it hit; the same cause on many trials is one line."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for result in results:
        if result.error is None or scored_reward(result) is not None:
            continue
        groups[(result.error.error_class.value, cause(result.error.message))].append(result.trial_name)
    ranked = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    lines = []
    for (error_class, reason), trials in ranked[:limit]:
        shown = ", ".join(trials[:3]) + (f" and {len(trials) - 3} more" if len(trials) > 3 else "")
        lines.append(f"{error_class} ×{len(trials)}: {reason} ({shown})")
    if len(ranked) > limit:
        lines.append(f"… and {len(ranked) - limit} other causes (lhtb report JOB lists every trial)")
    return lines


def cause(message: str | None, limit: int = 160) -> str:
    """The first line of an error message that says something (tracebacks and blank lines skipped)."""
    for line in (message or "").splitlines():
        line = line.strip()
        if line and not line.startswith(("Traceback", "File ", "During handling")):
            return one_line(line, limit)
    return "no message"


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
