"""The one scoring rule: which reward of a trial counts, and what counts as a pass.

It applies :data:`lhtb.errors.ERROR_POLICY` to plain values, so the pydantic ``TrialResult`` path
(:func:`lhtb.metrics.rows.to_row`) and the fast JSON loader (:mod:`lhtb.report.rows_fast`) call the same code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lhtb.errors import ERROR_POLICY, ErrorClass

if TYPE_CHECKING:
    from lhtb.results.models import TrialResult

# Rewards are partial credit over many checks, so a pass tolerates a small shortfall; the strict bar is
# reported beside it.
PASS_THRESHOLD = 0.95
FULL_PASS_THRESHOLD = 1.0

DENOMINATOR_RULE = (
    "Trials with an infrastructure error (build, start, agent setup, LLM transient/auth, harness, cancelled) are "
    "excluded from the denominator and counted separately; verifier errors and timeouts count as reward 0."
)


def counted_reward(reward: float | None, error_class: ErrorClass | None) -> float | None:
    """The reward metrics count: None excludes the trial (not the agent's fault), 0.0 a failure it must keep.

    A reward counts when there is no error or the error class is still graded (the agent's work was verified).
    """
    if error_class is None:
        return 0.0 if reward is None else reward
    policy = ERROR_POLICY[error_class]
    if reward is not None and policy.grade:
        return reward
    return 0.0 if policy.counts_as_failure else None


def scored_reward(result: TrialResult) -> float | None:
    """:func:`counted_reward` of a whole result."""
    return counted_reward(result.reward, None if result.error is None else result.error.error_class)
