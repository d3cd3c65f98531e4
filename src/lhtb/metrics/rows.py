"""``TrialRow``: the few fields of a TrialResult that metrics need, projected once per trial.

Projecting keeps aggregation and figures independent of the full model, and makes rows cheap to pass between
loader processes at 100,000 trials. The reward in a row is already the *scored* reward
(:func:`lhtb.results.scoring.counted_reward`).
"""

from __future__ import annotations

from typing import NamedTuple

from lhtb.results.models import JobConfig, TrialResult
from lhtb.results.scoring import counted_reward

DIAGNOSTIC_FLAG = "diagnostic-feedback"


class TrialRow(NamedTuple):
    job_name: str
    trial_name: str
    agent: str  # AgentSpec.label
    task: str
    category: str
    attempt: int
    flags: tuple[str, ...]  # why the trial is not comparable with the main ranking; () when it is
    reward: float | None  # scored reward; None = excluded from denominators (infrastructure error)
    error_class: str | None
    stop_reason: str  # how the last agent phase ended: completed / timeout / error / cancelled / not_started
    agent_sec: float | None  # agent clock, paused time excluded
    timeout_sec: float | None
    idle_sec: float | None  # agent seconds since last seen active, at the end; None: activity not monitored
    continue_until_timeout: bool
    input_tokens: int
    cached_input_tokens: int
    output_tokens: int
    cost_usd: float | None  # None = unknown price, never 0
    episodes: int
    curve: tuple[tuple[float, float], ...]  # (agent seconds, reward) observations, time-ordered
    usage_source: str = "none"  # Usage.source: measured / self-reported / mixed / unknown / none


def job_flags(config: JobConfig | None) -> tuple[str, ...]:
    """Flags every trial of a job inherits: non-default timeouts, and replaced base images (the tasks were
    changed), make results incomparable."""
    if config is None:
        return ()
    flags = () if config.agent_timeout_multiplier == 1.0 else (f"timeout-x{config.agent_timeout_multiplier:g}",)
    return (*flags, "base-image") if config.base_images else flags


def _agent_sec(result: TrialResult) -> float | None:
    phase_total = sum(p.agent_sec for p in result.phases)
    if phase_total > 0:
        return phase_total
    return result.timings.agent


def idle_at_end(agent_sec: float | None, last_active: float | None, samples: int, agent_steps: int) -> float | None:
    """Agent seconds between the last observed activity and the end (all of it when never seen active).

    None when activity was not monitored: no CPU reading and no agent step.
    """
    if (samples <= 0 and agent_steps <= 0) or agent_sec is None:
        return None
    return max(0.0, agent_sec - (last_active or 0.0))


def _curve(result: TrialResult, agent_sec: float | None, final: float | None) -> tuple[tuple[float, float], ...]:
    """Checkpoint rewards, the reward after each phase, and the final scored reward, on the agent clock."""
    points = [(c.agent_sec, c.reward) for c in result.reward_curve if c.reward is not None]
    elapsed = 0.0
    for phase in result.phases[:-1]:  # the last phase's reward is the final one, added below
        elapsed += phase.agent_sec
        if phase.reward is not None and phase.agent_sec > 0:
            points.append((elapsed, phase.reward))
    if final is not None and agent_sec is not None:
        points.append((agent_sec, final))
    points.sort(key=lambda point: point[0])
    return tuple(points)


def _idle_sec(result: TrialResult, agent_sec: float | None) -> float | None:
    activity = result.activity
    if activity is None:
        return None
    return idle_at_end(agent_sec, activity.last_active_sec, activity.samples, activity.agent_steps)


def to_row(result: TrialResult, inherited_flags: tuple[str, ...] = (), *, with_curve: bool = True) -> TrialRow:
    """Project one result; ``with_curve=False`` skips the reward curve, which only figures need."""
    flags = inherited_flags
    if result.feedback_mode == "diagnostic" or not result.comparable:
        flags = (*flags, DIAGNOSTIC_FLAG)
    stop_reason: str = result.agent_outcome.stop_reason
    if result.phases and result.phases[-1].stop_reason:
        stop_reason = result.phases[-1].stop_reason
    agent_sec = _agent_sec(result)
    usage = result.usage
    error_class = None if result.error is None else result.error.error_class
    reward = counted_reward(result.reward, error_class)
    # Positional on purpose: keyword construction of a NamedTuple is measurably slower at 100,000 trials.
    return TrialRow(
        result.job_name,
        result.trial_name,
        result.agent.label,
        result.task_name,
        result.category or "uncategorised",
        result.attempt,
        flags,
        reward,
        None if error_class is None else error_class.value,
        stop_reason,
        agent_sec,
        result.agent_timeout_sec,
        _idle_sec(result, agent_sec),
        result.continue_until_timeout,
        usage.input_tokens,
        usage.cached_input_tokens,
        usage.output_tokens,
        usage.cost_usd,
        usage.episodes,
        _curve(result, agent_sec, reward) if with_curve else (),
        usage.source,
    )
