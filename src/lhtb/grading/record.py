"""What a scorecard holds: scored subtasks, the allowed kinds and visibilities, and the weighted reward."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

REWARD_SCHEMA = "lhtb.reward/1"
KINDS = ("binary", "continuous", "banded", "fraction", "episodes")
VISIBILITIES = ("public", "hidden")


@dataclass(frozen=True)
class ScoredSubtask:
    """One row of ``reward.json``'s ``subtasks`` list."""

    name: str
    weight: float
    score: float
    kind: str
    visibility: str
    detail: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def weighted_reward(subtasks: Sequence[ScoredSubtask]) -> float:
    """R = sum(w*s) / sum(w), computed with fsum exactly as the harness recomputes it."""
    total_weight = math.fsum(s.weight for s in subtasks)
    reward = math.fsum(s.weight * s.score for s in subtasks) / total_weight
    return min(1.0, max(0.0, reward))
