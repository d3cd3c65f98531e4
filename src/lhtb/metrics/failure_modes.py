"""Classify every trial into exactly one outcome, so a leaderboard says *how* agents fail, not only how often.

The rules are checked in the order of ``FailureMode``; the first that matches wins. Thresholds are constants
here and are printed with every report.
"""

from __future__ import annotations

from enum import StrEnum

from lhtb.errors import ErrorClass
from lhtb.metrics.rows import TrialRow
from lhtb.trial.activity import STALL_WINDOW_FRACTION, STALL_WINDOW_SEC, stall_window_sec

NEAR_MISS_FLOOR = 0.75  # a reward in [NEAR_MISS_FLOOR, threshold) is a near miss
EARLY_EXIT_FRACTION = 0.5  # stopping before this share of the agent timeout is "well before its time"
_VERIFIER_ERRORS = frozenset({ErrorClass.VERIFIER_ERROR.value, ErrorClass.VERIFIER_TIMEOUT.value})
_AGENT_ERROR = ErrorClass.AGENT_ERROR.value


class FailureMode(StrEnum):
    INFRASTRUCTURE_ERROR = "infrastructure_error"
    VERIFIER_ERROR = "verifier_error"
    SOLVED = "solved"
    TIMEOUT_WORKING = "timeout_working"
    TIMEOUT_STALLED = "timeout_stalled"
    AGENT_ERROR = "agent_error"
    FALSE_FINISH = "false_finish"
    EARLY_EXIT = "early_exit"
    FINISHED_LOW = "finished_low"
    OTHER = "other"


MODE_DEFINITIONS: dict[FailureMode, str] = {
    FailureMode.INFRASTRUCTURE_ERROR: "harness or infrastructure error; excluded from denominators, not the agent's 0",
    FailureMode.VERIFIER_ERROR: "the verifier crashed or timed out on the agent's work; counts as reward 0",
    FailureMode.SOLVED: "reward >= threshold",
    FailureMode.TIMEOUT_WORKING: (
        "stopped by the timeout with reward < threshold, and seen working in its last "
        f"{STALL_WINDOW_SEC / 60:g} minutes ({STALL_WINDOW_FRACTION:.0%} of a shorter timeout), or not monitored"
    ),
    FailureMode.TIMEOUT_STALLED: (
        "stopped by the timeout with reward < threshold, idle (no agent step, no CPU use) for its last "
        f"{STALL_WINDOW_SEC / 60:g} minutes ({STALL_WINDOW_FRACTION:.0%} of a shorter timeout): hung or waiting"
    ),
    FailureMode.AGENT_ERROR: "the agent crashed or reported an error, reward < threshold",
    FailureMode.FALSE_FINISH: (
        f"declared done and stopped with {NEAR_MISS_FLOOR} <= reward < threshold "
        "(continue-until-timeout off, or no time left to resume)"
    ),
    FailureMode.EARLY_EXIT: (
        f"declared done with reward < {NEAR_MISS_FLOOR} after less than {EARLY_EXIT_FRACTION:.0%} of its time"
    ),
    FailureMode.FINISHED_LOW: (
        f"declared done with reward < {NEAR_MISS_FLOOR} after at least {EARLY_EXIT_FRACTION:.0%} of its time, "
        "or with an unknown time limit"
    ),
    FailureMode.OTHER: "scored, but the agent never ran or was cancelled without an error class",
}


def classify(row: TrialRow, threshold: float) -> str:
    """The one failure mode (a ``FailureMode`` value) of a trial at pass threshold ``threshold``."""
    reward, error_class, stop_reason = row.reward, row.error_class, row.stop_reason
    if reward is None:
        return _INFRASTRUCTURE_ERROR
    if error_class in _VERIFIER_ERRORS:
        return _VERIFIER_ERROR
    if reward >= threshold:
        return _SOLVED
    if stop_reason == "timeout":
        idle = row.idle_sec
        if idle is not None and idle > stall_window_sec(row.timeout_sec):
            return _TIMEOUT_STALLED
        return _TIMEOUT_WORKING
    if stop_reason == "error" or error_class == _AGENT_ERROR:
        return _AGENT_ERROR_MODE
    if stop_reason != "completed":
        return _OTHER
    if reward >= NEAR_MISS_FLOOR:
        return _FALSE_FINISH
    if row.timeout_sec and row.agent_sec is not None and row.agent_sec < EARLY_EXIT_FRACTION * row.timeout_sec:
        return _EARLY_EXIT
    return _FINISHED_LOW


# Plain strings: classify runs on every trial, and enum attribute access is slow at 100,000 trials.
_INFRASTRUCTURE_ERROR = FailureMode.INFRASTRUCTURE_ERROR.value
_VERIFIER_ERROR = FailureMode.VERIFIER_ERROR.value
_SOLVED = FailureMode.SOLVED.value
_TIMEOUT_WORKING = FailureMode.TIMEOUT_WORKING.value
_TIMEOUT_STALLED = FailureMode.TIMEOUT_STALLED.value
_AGENT_ERROR_MODE = FailureMode.AGENT_ERROR.value
_OTHER = FailureMode.OTHER.value
_FALSE_FINISH = FailureMode.FALSE_FINISH.value
_EARLY_EXIT = FailureMode.EARLY_EXIT.value
_FINISHED_LOW = FailureMode.FINISHED_LOW.value


def is_near_miss(reward: float | None, threshold: float) -> bool:
    return reward is not None and NEAR_MISS_FLOOR <= reward < threshold
