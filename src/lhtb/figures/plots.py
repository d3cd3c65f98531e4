"""The five figures. Each returns (figure, series names); every series' artists carry an SVG id
``series:NAME`` (bars: ``series:NAME:THRESHOLD``), so a test or a reader of the SVG can check that a figure
really contains what it claims."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lhtb.figures.data import curve_end, heat_matrix, mean_curve, rewards_by_label, row_label
from lhtb.metrics.models import GroupMetrics, threshold_key
from lhtb.metrics.rows import TrialRow
from lhtb.report.models import Report

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MAX_DOTS = 1500  # per agent in the distribution plot; a seeded sample beyond that keeps files small
FigureResult = tuple["Figure", list[str]]


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _horizontal() -> dict[str, Any]:
    """boxplot's ``vert`` became ``orientation`` in matplotlib 3.10; support both."""
    import matplotlib

    major, minor = (int(part) for part in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}


def _gid(name: str) -> str:
    return f"series:{name}"


def board(report: Report) -> list[GroupMetrics]:
    """The agents drawn: the ranked leaderboard (already includes flagged rows when asked), best first."""
    return [g for g in report.leaderboard if g.n_scored > 0]


def reward_distribution(report: Report, rows: Sequence[TrialRow], colors: dict[str, str]) -> FigureResult:
    groups = board(report)
    rewards = rewards_by_label(rows)
    names = [g.display_name for g in groups]
    fig = _figure(7.5, 1.2 + 0.55 * len(names))
    ax = fig.add_subplot()
    rng = np.random.default_rng(report.settings.seed)
    for i, name in enumerate(reversed(names)):
        values = np.array(rewards.get(name, []))
        shown = values if values.size <= MAX_DOTS else rng.choice(values, MAX_DOTS, replace=False)
        jitter = rng.uniform(-0.18, 0.18, shown.size)
        ax.scatter(shown, i + jitter, s=10, alpha=0.45, color=colors[name], gid=_gid(name), linewidths=0)
        ax.boxplot([values], positions=[i], widths=0.5, showfliers=False, manage_ticks=False, **_horizontal())
    ax.set_yticks(range(len(names)), list(reversed(names)))
    ax.axvline(report.settings.threshold, color="0.4", linestyle="--", linewidth=1)
    ax.set_xlim(-0.03, 1.03)
    ax.set_xlabel(f"scored reward per trial (dashed: pass threshold {report.settings.threshold:g})")
    ax.set_title("Reward distribution per agent")
    return fig, names


def pass_rates(report: Report, colors: dict[str, str]) -> FigureResult:
    groups = board(report)
    thresholds = report.settings.thresholds
    fig = _figure(7.5, 4.2)
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(groups))
    for i, group in enumerate(groups):
        heights = [100 * (group.pass_rates.get(threshold_key(t)) or 0.0) for t in thresholds]
        offsets = np.arange(len(thresholds)) + (i - (len(groups) - 1) / 2) * width
        bars = ax.bar(offsets, heights, width, label=group.display_name, color=colors[group.display_name])
        for j, bar in enumerate(bars):
            bar.set_gid(f"{_gid(group.display_name)}:{thresholds[j]:g}")  # SVG ids must be unique
    ax.set_xticks(range(len(thresholds)), [f"reward ≥ {t:g}" for t in thresholds])
    ax.set_ylim(0, 105)
    ax.set_ylabel("pass@1 (% of scored trials)")
    ax.set_title("Pass rate at each threshold")
    ax.legend(loc="upper right", fontsize="small")
    return fig, [g.display_name for g in groups]


def cost_vs_reward(report: Report, colors: dict[str, str]) -> FigureResult:
    groups = board(report)
    priced = [g for g in groups if g.cost_per_task is not None]
    unpriced = [g.display_name for g in groups if g.cost_per_task is None]
    fig = _figure(7.5, 4.5)
    ax = fig.add_subplot()
    for group in priced:
        low, high = group.ci_low or 0.0, group.ci_high or 0.0
        mean, cost = group.mean_reward or 0.0, group.cost_per_task or 0.0
        marker = ax.errorbar(
            [cost],
            [mean],
            yerr=[[mean - low], [high - mean]],
            fmt="o",
            color=colors[group.display_name],
            capsize=3,
        )
        marker.lines[0].set_gid(_gid(group.display_name))
        ax.annotate(group.display_name, (cost, mean), xytext=(5, 5), textcoords="offset points")
    ax.set_xlim(0, 1.15 * max([g.cost_per_task or 0.0 for g in priced], default=0.0) or 1.0)
    if unpriced:
        ax.text(0.01, 0.01, "cost unknown: " + ", ".join(unpriced), transform=ax.transAxes, fontsize="small")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("mean cost per task (USD)")
    ax.set_ylabel(f"mean reward ({100 * report.settings.confidence:g}% CI)")
    ax.set_title("Cost versus mean reward")
    return fig, [g.display_name for g in priced]


def reward_over_time(report: Report, rows: Sequence[TrialRow], colors: dict[str, str]) -> FigureResult:
    fig = _figure(7.5, 4.5)
    ax = fig.add_subplot()
    drawn = []
    end_sec = curve_end(rows)
    for group in board(report):
        name = group.display_name
        curve = mean_curve([r for r in rows if row_label(r) == name], end_sec)
        if curve is None:
            continue
        ax.step(curve.minutes, curve.mean_reward, where="post", color=colors[name], label=name, gid=_gid(name))
        drawn.append(name)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("agent time (minutes; paused time excluded)")
    ax.set_ylabel("mean reward (0 until first verified)")
    ax.set_title("Reward over time (checkpoints, phase ends, final reward)")
    if drawn:
        ax.legend(loc="lower right", fontsize="small")
    else:
        ax.text(0.5, 0.5, "no reward observations", ha="center", transform=ax.transAxes)
    return fig, drawn


def task_agent_heatmap(report: Report) -> FigureResult:
    agents = [g.display_name for g in board(report)]
    cells = [(c.task, c.agent, c.mean_reward) for c in report.task_matrix]
    tasks, matrix = heat_matrix(cells, agents)
    fig = _figure(2.5 + 1.1 * len(agents), 1.5 + 0.3 * len(tasks))
    ax = fig.add_subplot()
    from matplotlib import colormaps

    cmap = colormaps["viridis"].with_extremes(bad="0.85")  # grey: no scored trial
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    image.set_gid(_gid("matrix"))
    ax.set_xticks(range(len(agents)), agents, rotation=30, ha="right")
    ax.set_yticks(range(len(tasks)), tasks)
    for label, name in zip(ax.get_xticklabels(), agents, strict=True):
        label.set_gid(_gid(name))
    if matrix.size <= 600:
        for (i, j), value in np.ndenumerate(matrix):
            text = "—" if np.isnan(value) else f"{value:.2f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="w" if value < 0.6 else "k")
    fig.colorbar(image, ax=ax, label="mean reward")
    ax.set_title("Mean reward per task and agent")
    return fig, agents
