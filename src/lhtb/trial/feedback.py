"""What an agent is told after a failed interim verification.

In ``binary`` mode (the default, and the only comparable one) it is one fixed sentence: that verification
failed and roughly how much time is left (whole minutes). No reward, no test names, no output, no paths.
``diagnostic`` mode (for task authors) appends the scorecard; its results are marked not comparable.
"""

from __future__ import annotations

import math

from lhtb.results.models import Subtask

REJECTION_TEMPLATE = "Your solution did not pass verification. Time remaining: about {minutes} min. Keep working."


def rejection(remaining_sec: float) -> str:
    return REJECTION_TEMPLATE.format(minutes=max(1, math.floor(remaining_sec / 60)))


def diagnostic(remaining_sec: float, reward: float | None, subtasks: list[Subtask]) -> str:
    lines = [rejection(remaining_sec), f"Diagnostic scorecard (reward {reward}):"]
    lines += [f"- {s.name}: {s.score:.3f} (weight {s.weight:g}) {s.detail}" for s in subtasks]
    return "\n".join(lines)
