"""``reward.json`` is defined once: the grading SDK writes it, the harness's model reads it with the SDK's kinds,
visibilities and formula."""

from __future__ import annotations

from typing import get_args

from lhtb.grading.record import KINDS, REWARD_SCHEMA, VISIBILITIES, ScoredSubtask
from lhtb.grading.record import weighted_reward as sdk_weighted_reward
from lhtb.results.models import REWARD_SCHEMA as HARNESS_SCHEMA
from lhtb.results.models import RewardFile, Subtask, SubtaskKind, Visibility, weighted_reward


def test_the_model_types_are_the_sdk_lists() -> None:
    assert get_args(SubtaskKind) == KINDS and get_args(Visibility) == VISIBILITIES
    assert HARNESS_SCHEMA == REWARD_SCHEMA


def test_the_harness_recomputes_with_the_sdk_formula() -> None:
    rows = [("a", 3.0, 1 / 3), ("b", 0.1, 1.0), ("c", 7.0, 0.999999)]
    subtasks = [Subtask(name=n, weight=w, score=s, kind="continuous") for n, w, s in rows]
    scored = [ScoredSubtask(n, w, s, "continuous", "hidden", "") for n, w, s in rows]
    assert weighted_reward(subtasks) == sdk_weighted_reward(scored)
    document = {
        "schema": REWARD_SCHEMA,
        "reward": sdk_weighted_reward(scored),
        "subtasks": [s.as_dict() for s in scored],
    }
    assert RewardFile.model_validate(document).reward == weighted_reward(subtasks)
