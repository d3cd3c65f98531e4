"""Parse a ``result.json`` straight into a :class:`TrialRow`, validating only the fields metrics read.

``TrialResult.model_validate_json`` builds the whole model (subtasks with Python validators, verifier outcome,
timestamps, usage per phase): ~36 µs per file, most of a report's time at 100,000 trials. The report needs a
few fields, so here one ``TypeAdapter`` over ``TypedDict`` projections parses the whole JSON document in
pydantic-core (malformed JSON is still an error) but builds and validates only those fields; everything
else is skipped. What *is* read is validated at least as strictly as ``TrialResult`` does it: types, the
schema id, the error class, and every reward finite in [0, 1] (the harness never writes anything else).
:func:`row_from_json` must give the same row as ``to_row(TrialResult.model_validate_json(data))``:
``bench/metrics_scale.py`` checks it on 100,000 synthetic results, field by field. Not validated (a full
``TrialResult`` would reject them): subtasks, the verifier outcome, timestamps, per-phase usage, unknown keys.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict  # pydantic needs it for TypedDicts before Python 3.12

from lhtb.errors import ErrorClass
from lhtb.metrics.rows import DIAGNOSTIC_FLAG, TrialRow, idle_at_end
from lhtb.results.models import (
    MAX_USAGE_COST_USD,
    MAX_USAGE_EPISODES,
    MAX_USAGE_TOKENS,
    FeedbackMode,
    StopReason,
    Usage,
    UsageSource,
)
from lhtb.results.scoring import counted_reward

_Finite = Annotated[float, Field(allow_inf_nan=False)]
_Reward = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
_ignore_unknown_keys = with_config(ConfigDict(extra="ignore"))  # unknown keys are skipped, never built


@_ignore_unknown_keys
class _Agent(TypedDict):
    name: str
    model: NotRequired[str | None]


@_ignore_unknown_keys
class _Error(TypedDict):
    error_class: ErrorClass


@_ignore_unknown_keys
class _Usage(TypedDict, total=False):
    """Clean figures only; anything else (a forged negative, NaN, a string) goes through ``Usage`` itself."""

    input_tokens: Annotated[int, Field(ge=0, le=MAX_USAGE_TOKENS)]
    cached_input_tokens: Annotated[int, Field(ge=0, le=MAX_USAGE_TOKENS)]
    output_tokens: Annotated[int, Field(ge=0, le=MAX_USAGE_TOKENS)]
    cost_usd: Annotated[float, Field(ge=0, le=MAX_USAGE_COST_USD, allow_inf_nan=False)] | None
    episodes: Annotated[int, Field(ge=0, le=MAX_USAGE_EPISODES)]
    source: UsageSource
    refused: list[str]


_USAGE_ADAPTER: TypeAdapter[_Usage] = TypeAdapter(_Usage)


def _usage(raw: object) -> _Usage:
    """The usage figures as ``Usage`` would store them: fast when clean, through its validator otherwise."""
    if not isinstance(raw, dict):
        return _USAGE_ADAPTER.validate_python(raw)  # raises, as TrialResult would
    try:
        usage = _USAGE_ADAPTER.validate_python(raw, strict=True)
    except ValidationError:
        return Usage.model_validate(raw).model_dump()  # type: ignore[return-value]
    if usage.get("source", "none") == "none" and _counted(usage):
        usage["source"] = "unknown"
    return usage


def _counted(usage: _Usage) -> bool:
    figures = [usage.get(k, 0) for k in ("input_tokens", "cached_input_tokens", "output_tokens", "episodes")]
    cost = usage.get("cost_usd", 0.0)
    return any(figures) or bool(cost) or (cost is None and usage.get("episodes", 0) > 0)


@_ignore_unknown_keys
class _Outcome(TypedDict, total=False):
    stop_reason: StopReason
    usage: dict[str, Any]


@_ignore_unknown_keys
class _Timings(TypedDict, total=False):
    agent: _Finite | None


@_ignore_unknown_keys
class _Phase(TypedDict, total=False):
    stop_reason: str
    reward: _Reward | None
    agent_sec: _Finite


@_ignore_unknown_keys
class _Checkpoint(TypedDict):
    agent_sec: _Finite
    reward: _Reward | None


@_ignore_unknown_keys
class _Activity(TypedDict, total=False):
    last_active_sec: _Finite | None
    samples: int
    agent_steps: int


@_ignore_unknown_keys
class _Settings(TypedDict, total=False):
    continue_until_timeout: bool
    feedback_mode: FeedbackMode


@_ignore_unknown_keys
class _Spec(TypedDict):
    trial_name: str
    job_name: str
    task_name: str
    category: NotRequired[str]
    agent: _Agent
    attempt: int
    agent_timeout_sec: NotRequired[_Finite | None]
    settings: NotRequired[_Settings]
    comparable: NotRequired[bool]


@_ignore_unknown_keys
class _Verifier(TypedDict, total=False):
    reward: _Reward | None


@_ignore_unknown_keys
class _Result(TypedDict):
    """The fields of ``TrialResult`` that :func:`lhtb.metrics.rows.to_row` reads, with the same defaults."""

    schema: Literal["lhtb.trial/2"]  # an older file takes the full model's migration (row_from_json)
    spec: _Spec
    error: NotRequired[_Error | None]
    agent_outcome: NotRequired[_Outcome]
    verifier: NotRequired[_Verifier | None]
    timings: NotRequired[_Timings]
    phases: NotRequired[list[_Phase]]
    reward_curve: NotRequired[list[_Checkpoint]]
    activity: NotRequired[_Activity | None]


@_ignore_unknown_keys
class _Schema(TypedDict, total=False):
    schema: object


_ADAPTER: TypeAdapter[_Result] = TypeAdapter(_Result)
_SCHEMA_ADAPTER: TypeAdapter[_Schema] = TypeAdapter(_Schema)
# Defaults for absent sections, typed so that reads from them keep their field types.
_NO_OUTCOME: _Outcome = {}
_NO_TIMINGS: _Timings = {}
_NO_USAGE: _Usage = {}
_NO_SETTINGS: _Settings = {}
_NO_VERIFIER: _Verifier = {}


def row_from_json(data: bytes, inherited_flags: tuple[str, ...] = (), *, with_curve: bool = True) -> TrialRow:
    """``to_row(TrialResult.model_validate_json(data), ...)`` without building the TrialResult.

    Raises ``pydantic.ValidationError`` for malformed JSON or a used field of the wrong type or range. A file
    in an older layout (``lhtb.trial/1``) is read through the full model, which migrates it.
    """
    try:
        r = _ADAPTER.validate_json(data)
    except ValidationError:
        if _SCHEMA_ADAPTER.validate_json(data).get("schema", "lhtb.trial/1") != "lhtb.trial/1":
            raise
        from lhtb.metrics.rows import to_row
        from lhtb.results.models import TrialResult

        return to_row(TrialResult.model_validate_json(data), inherited_flags, with_curve=with_curve)
    spec = r["spec"]
    settings = spec.get("settings", _NO_SETTINGS)
    flags = inherited_flags
    if settings.get("feedback_mode") == "diagnostic" or not spec.get("comparable", True):
        flags = (*flags, DIAGNOSTIC_FLAG)
    phases = r.get("phases") or []
    agent_sec = _agent_sec(r, phases)
    error = r.get("error")
    error_class = None if error is None else error["error_class"]
    scored = counted_reward((r.get("verifier") or _NO_VERIFIER).get("reward"), error_class)
    agent = spec["agent"]
    model = agent.get("model")
    outcome = r.get("agent_outcome", _NO_OUTCOME)
    usage = _usage(outcome["usage"]) if "usage" in outcome else _NO_USAGE
    return TrialRow(
        spec["job_name"],
        spec["trial_name"],
        f"{agent['name']}:{model}" if model else agent["name"],
        spec["task_name"],
        spec.get("category") or "uncategorised",
        spec["attempt"],
        flags,
        scored,
        None if error_class is None else error_class.value,
        _stop_reason(r, phases),
        agent_sec,
        spec.get("agent_timeout_sec"),
        _idle_sec(r.get("activity"), agent_sec),
        settings.get("continue_until_timeout", False),
        usage.get("input_tokens", 0),
        usage.get("cached_input_tokens", 0),
        usage.get("output_tokens", 0),
        usage.get("cost_usd", 0.0),
        usage.get("episodes", 0),
        _curve(r, phases, agent_sec, scored) if with_curve else (),
        usage.get("source", "none"),
    )


def _stop_reason(r: _Result, phases: list[_Phase]) -> str:
    """As ``to_row``: how the last phase ended, else the agent outcome's."""
    if phases and phases[-1].get("stop_reason"):
        return phases[-1]["stop_reason"]
    return r.get("agent_outcome", _NO_OUTCOME).get("stop_reason", "not_started")


def _agent_sec(r: _Result, phases: list[_Phase]) -> float | None:
    """As ``lhtb.metrics.rows._agent_sec``: the phases' agent seconds, else the agent timing."""
    phase_total = sum(p.get("agent_sec", 0.0) for p in phases)
    if phase_total > 0:
        return phase_total
    return r.get("timings", _NO_TIMINGS).get("agent")


def _idle_sec(activity: _Activity | None, agent_sec: float | None) -> float | None:
    if activity is None:
        return None
    samples, steps = activity.get("samples", 0), activity.get("agent_steps", 0)
    return idle_at_end(agent_sec, activity.get("last_active_sec"), samples, steps)


def _curve(
    r: _Result, phases: list[_Phase], agent_sec: float | None, final: float | None
) -> tuple[tuple[float, float], ...]:
    """As ``lhtb.metrics.rows._curve``: checkpoints, each phase's reward but the last's, the final reward."""
    points = [(c["agent_sec"], c["reward"]) for c in r.get("reward_curve", ()) if c["reward"] is not None]
    elapsed = 0.0
    for phase in phases[:-1]:
        phase_sec = phase.get("agent_sec", 0.0)
        elapsed += phase_sec
        phase_reward = phase.get("reward")
        if phase_reward is not None and phase_sec > 0:
            points.append((elapsed, phase_reward))
    if final is not None and agent_sec is not None:
        points.append((agent_sec, final))
    points.sort(key=lambda point: point[0])
    return tuple(points)
