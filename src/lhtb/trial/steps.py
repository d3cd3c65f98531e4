"""A multi-step task's grade: when to stop after a step, and one trial reward from the steps' rewards.

Harbor's two strategies, with one deliberate difference (docs/task-format.md, multi-step tasks): a step that
never ran (an earlier step missed its ``min_reward``, or failed) counts 0 here, where Harbor leaves it out of the
mean (and ``final`` takes the last step that ran). Leaving it out would let an agent raise its reward by failing
a gate early (0.4 on step one and stop beats 0.6 then 0.0), and what an agent controls is always graded.
"""

from __future__ import annotations

import math

from lhtb.results.models import StepRecord, VerifierOutcome
from lhtb.tasks.config import Step
from lhtb.verifier.reward import harbor_rewards


def below_min_reward(step: Step, outcome: VerifierOutcome) -> str | None:
    """Why the remaining steps must not run after ``step`` scored ``outcome``; None when they may.

    A number gates the reward; a table gates each named reward (a subtask of that name, ``reward`` being the
    step's reward), a missing one counting as below."""
    if step.min_reward is None:
        return None
    thresholds = {"reward": step.min_reward} if isinstance(step.min_reward, float | int) else step.min_reward
    scores = {subtask.name: subtask.score for subtask in outcome.subtasks}
    if outcome.reward is not None:
        scores["reward"] = outcome.reward
    for key, threshold in thresholds.items():
        actual = scores.get(key)
        if actual is None or actual < threshold:
            shown = "missing" if actual is None else f"{actual:g}"
            return f"step {step.name!r}: {key} {shown} is below its min_reward {threshold:g}"
    return None


def aggregate(records: list[StepRecord], strategy: str | None) -> VerifierOutcome:
    """The trial's verdict from its steps', as Harbor computes it: each step's rewards mapping (its named
    rewards for a flat multi-key ``reward.json``, else ``{"reward": R}``), then ``mean`` (the default: per key,
    a key a step lacks counting 0) or ``final`` (the last step's), then the one headline reward lhtb takes
    from such a mapping (:func:`lhtb.verifier.reward.harbor_rewards`).

    A step whose verification failed makes the trial's verification fail with that error: its class then
    decides, as for a single-step trial."""
    failed = next((r.verifier for r in records if r.verifier is not None and r.verifier.error is not None), None)
    if failed is not None:
        return VerifierOutcome(phase="final", error=failed.error, duration_sec=_duration(records))
    mappings = [step_rewards(record) for record in records]
    if strategy == "final":
        combined = mappings[-1]
    else:
        keys = list(dict.fromkeys(key for mapping in mappings for key in mapping))
        combined = {key: math.fsum(m.get(key, 0.0) for m in mappings) / len(mappings) for key in keys}
    shown = "; ".join(
        f"{r.name}: " + (f"not run ({r.skipped})" if r.verifier is None else f"{_reward(r):.4g}") for r in records
    )
    reward, subtasks = harbor_rewards(combined or {"reward": 0.0}, f"{strategy or 'mean'} of steps ({shown})")
    graded = [r.verifier for r in records if r.verifier is not None]
    return VerifierOutcome(
        phase="final",
        reward=reward,
        subtasks=subtasks,
        source=graded[-1].source if graded else "none",
        duration_sec=_duration(records),
    )


def step_rewards(record: StepRecord) -> dict[str, float]:
    """A step's rewards as Harbor's result holds them; a step that never ran scores 0."""
    outcome = record.verifier
    if outcome is None or outcome.reward is None:
        return {"reward": 0.0}
    if outcome.source == "harbor-json":
        return {subtask.name: subtask.score for subtask in outcome.subtasks}
    return {"reward": outcome.reward}


def _reward(record: StepRecord) -> float:
    return 0.0 if record.verifier is None or record.verifier.reward is None else record.verifier.reward


def _duration(records: list[StepRecord]) -> float:
    return round(sum(r.verifier.duration_sec for r in records if r.verifier is not None), 3)
