"""The plain-text scorecard table a verifier prints to stdout (its log) when it writes ``reward.json``."""

from __future__ import annotations

import math
from collections.abc import Sequence

from lhtb.grading.record import ScoredSubtask

_DETAIL_WIDTH = 60
_HEADER = ("subtask", "kind", "vis", "weight", "score", "w*s", "detail")


def _clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def format_scorecard(subtasks: Sequence[ScoredSubtask], reward: float) -> str:
    """A fixed-width table of every subtask, then the reward and the public/hidden weight split."""
    rows = [
        (
            s.name,
            s.kind,
            s.visibility,
            f"{s.weight:g}",
            f"{s.score:.3f}",
            f"{s.weight * s.score:.3f}",
            _clip(s.detail, _DETAIL_WIDTH),
        )
        for s in subtasks
    ]
    widths = [max(len(row[i]) for row in [_HEADER, *rows]) for i in range(len(_HEADER))]
    numeric = {3, 4, 5}

    def line(row: Sequence[str]) -> str:
        cells = [row[i].rjust(widths[i]) if i in numeric else row[i].ljust(widths[i]) for i in range(len(row))]
        return "  ".join(cells).rstrip()

    total_weight = math.fsum(s.weight for s in subtasks)
    hidden_weight = math.fsum(s.weight for s in subtasks if s.visibility == "hidden")
    hidden_share = hidden_weight / total_weight if total_weight > 0 else 0.0
    rule = "-" * (sum(widths) + 2 * (len(widths) - 1))
    lines = [
        "lhtb scorecard",
        line(_HEADER),
        rule,
        *(line(row) for row in rows),
        rule,
        f"reward = {reward:.4f}  (sum w*s / sum w over {len(rows)} subtasks; total weight {total_weight:g})",
        f"weight share: public {1 - hidden_share:.0%}, hidden {hidden_share:.0%}",
    ]
    return "\n".join(lines)
