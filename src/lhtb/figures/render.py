"""Draw every figure to PNG and SVG and write ``figures.json``, a manifest of files and series."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from lhtb.figures import plots
from lhtb.metrics.rows import TrialRow
from lhtb.report.models import Report

FIGURE_NAMES = ("reward_distribution", "pass_rates", "cost_vs_reward", "reward_over_time", "task_agent_heatmap")
DEFAULT_FORMATS = ("png", "svg")


def _colors(report: Report) -> dict[str, str]:
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    palette = colormaps["tab10"]
    return {g.display_name: to_hex(palette(i % 10)) for i, g in enumerate(report.leaderboard)}


def render_figures(
    report: Report, rows: Sequence[TrialRow], out_dir: Path, formats: Sequence[str] = DEFAULT_FORMATS
) -> dict[str, dict[str, list[str]]]:
    """Write each figure in each format to ``out_dir``; returns (and saves) {figure: {files, series}}."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "lhtb"  # stable SVG ids: same inputs, same files
    shown = [r for r in rows if report.settings.include_flagged or not r.flags]
    colors = _colors(report)
    drawn = {
        "reward_distribution": plots.reward_distribution(report, shown, colors),
        "pass_rates": plots.pass_rates(report, colors),
        "cost_vs_reward": plots.cost_vs_reward(report, colors),
        "reward_over_time": plots.reward_over_time(report, shown, colors),
        "task_agent_heatmap": plots.task_agent_heatmap(report),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, dict[str, list[str]]] = {}
    for name, (figure, series) in drawn.items():
        files = []
        for fmt in formats:
            path = out_dir / f"{name}.{fmt}"
            metadata = {"Date": None} if fmt == "svg" else {"Software": None}
            figure.savefig(path, format=fmt, metadata=metadata)
            files.append(path.name)
        manifest[name] = {"files": files, "series": series}
    (out_dir / "figures.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
