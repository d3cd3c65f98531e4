"""The reward curve as an inline SVG polyline: no JS library, no external file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from lhtb.metrics.rows import to_row
from lhtb.results.models import PhaseRecord, TrialResult
from lhtb.viewer.markup import esc


class Point(NamedTuple):
    agent_sec: float
    reward: float | None
    label: str


WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 36


def _axis_max(value: float) -> float:
    return value if value > 0 else 1.0


def curve_points(result: TrialResult) -> list[Point]:
    """The metrics' reward curve (checkpoints, the reward after each phase, the final scored reward) plus the
    checkpoints that could not be graded, as gaps."""
    points = [Point(sec, reward, f"reward {reward:.3f}") for sec, reward in to_row(result).curve]
    points += [
        Point(c.agent_sec, None, f"error: {c.error or 'no reward'}") for c in result.reward_curve if c.reward is None
    ]
    return sorted(points, key=lambda p: p.agent_sec)


def reward_curve_svg(points: Sequence[Point], phases: Sequence[PhaseRecord] = ()) -> str:
    """Reward (0..1) against agent minutes; points without a reward (grading errors) break the line."""
    if not points:
        return '<p class="muted">No reward observations on the agent clock for this trial.</p>'
    x_max = _axis_max(max(c.agent_sec for c in points))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    scale, unit = (60.0, "minutes") if x_max >= 120 else (1.0, "seconds")
    digits = 1 if x_max / scale >= 4 else 2

    def sx(sec: float) -> float:
        return LEFT + plot_w * min(max(sec / x_max, 0.0), 1.0)

    def sy(reward: float) -> float:
        return TOP + plot_h * (1.0 - min(max(reward, 0.0), 1.0))

    parts = [
        f'<svg class="curve" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        'aria-label="reward over agent time">',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#ccc"/>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = sy(tick)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#e5e5e5"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{tick:g}</text>')
    for tick in range(5):
        sec = x_max * tick / 4
        parts.append(
            f'<text x="{sx(sec):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="11">'
            f"{sec / scale:.{digits}f}</text>"
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle" font-size="12">agent {unit}</text>'
    )
    elapsed = 0.0
    for phase in phases[:-1]:  # a dashed line where each later phase began
        elapsed += phase.agent_sec
        if 0 < elapsed <= x_max:
            x = sx(elapsed)
            parts.append(
                f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#999" stroke-dasharray="4 3"/>'
            )
    runs: list[list[Point]] = [[]]
    for point in points:
        if point.reward is None:
            runs.append([])
        else:
            runs[-1].append(point)
    for run in runs:
        if len(run) > 1:
            coords = " ".join(f"{sx(p.agent_sec):.1f},{sy(p.reward or 0.0):.1f}" for p in run)
            parts.append(f'<polyline points="{coords}" fill="none" stroke="#2563eb" stroke-width="2"/>')
    for point in points:
        label = point.label
        y = sy(point.reward) if point.reward is not None else TOP + plot_h
        color = "#2563eb" if point.reward is not None else "#dc2626"
        parts.append(
            f'<circle cx="{sx(point.agent_sec):.1f}" cy="{y:.1f}" r="3" fill="{color}">'
            f"<title>{esc(f'{point.agent_sec / 60:.2f} min: {label}')}</title></circle>"
        )
    parts.append("</svg>")
    return "\n".join(parts)
