"""On-disk models: the reward file verifiers write, and the config/result files of trials and jobs."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from lhtb.errors import ErrorClass
from lhtb.grading.record import ScoredSubtask
from lhtb.grading.record import weighted_reward as sdk_weighted_reward

REWARD_SCHEMA = "lhtb.reward/1"
TRIAL_SCHEMA = "lhtb.trial/2"
JOB_SCHEMA = "lhtb.job/1"
# Relative tolerance when the harness recomputes R = sum(w*s)/sum(w) from the subtasks.
REWARD_RECOMPUTE_TOLERANCE = 1e-6

# The grading SDK's KINDS and VISIBILITIES as types (tests/unit/results/test_reward_file.py holds them equal).
SubtaskKind = Literal["binary", "continuous", "banded", "fraction", "episodes"]
Visibility = Literal["public", "hidden"]
# What an agent is told after a failed interim verification: one fixed sentence (comparable) or the scorecard.
FeedbackMode = Literal["binary", "diagnostic"]
# Where the verifier runs: a fresh container with a copy of the artifacts, or the agent's own (live state).
VerifierMode = Literal["separate", "shared"]
StopReason = Literal["completed", "timeout", "error", "cancelled", "not_started"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _finite(value: float, what: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number, got {value!r}")
    return value


class Subtask(_Strict):
    """One weighted, scored part of a task's grade."""

    name: str = Field(min_length=1)
    weight: float
    score: float
    kind: SubtaskKind = "binary"
    visibility: Visibility = "hidden"
    detail: str = ""

    @field_validator("weight")
    @classmethod
    def _weight_ok(cls, value: float) -> float:
        _finite(value, "weight")
        if value < 0:
            raise ValueError(f"weight must be >= 0, got {value}")
        return value

    @field_validator("score")
    @classmethod
    def _score_ok(cls, value: float) -> float:
        _finite(value, "score")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"score must be in [0, 1], got {value}")
        return value


def weighted_reward(subtasks: list[Subtask]) -> float:
    """The grading SDK's formula (``lhtb.grading.record``), so the harness recomputes exactly what verifiers write."""
    return sdk_weighted_reward([ScoredSubtask(**subtask.model_dump()) for subtask in subtasks])


class RewardFile(_Strict):
    """``reward.json`` in the ``lhtb.reward/1`` schema; validation enforces R = sum(w*s)/sum(w)."""

    schema_: Literal["lhtb.reward/1"] = Field(alias="schema")
    reward: float
    subtasks: list[Subtask] = Field(min_length=1)
    metadata: dict[str, object] = Field(default_factory=dict)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @model_validator(mode="after")
    def _consistent(self) -> RewardFile:
        _finite(self.reward, "reward")
        if not 0.0 <= self.reward <= 1.0:
            raise ValueError(f"reward must be in [0, 1], got {self.reward}")
        names = [s.name for s in self.subtasks]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"duplicate subtask names: {', '.join(duplicates)}")
        if math.fsum(s.weight for s in self.subtasks) <= 0:
            raise ValueError("the subtask weights sum to 0; at least one weight must be positive")
        expected = weighted_reward(self.subtasks)
        if abs(expected - self.reward) > REWARD_RECOMPUTE_TOLERANCE * max(1.0, abs(expected)):
            raise ValueError(f"reward {self.reward} does not equal sum(w*s)/sum(w) = {expected:.9f}")
        return self


class ErrorInfo(_Strict):
    error_class: ErrorClass
    message: str
    retryable: bool = False


UsageSource = Literal["none", "measured", "self-reported", "mixed", "unknown"]
# Beyond these a figure is not a count but a forgery (or a bug): refused like a negative one.
MAX_USAGE_TOKENS = 10**12
MAX_USAGE_EPISODES = 10**7
MAX_USAGE_COST_USD = 10**7
MAX_USAGE_NOTES = 20
_USAGE_COUNTS = {
    "input_tokens": MAX_USAGE_TOKENS,
    "cached_input_tokens": MAX_USAGE_TOKENS,
    "output_tokens": MAX_USAGE_TOKENS,
    "episodes": MAX_USAGE_EPISODES,
}


def _refusal(name: str, value: object, limit: float, *, integral: bool) -> str | None:
    """Why ``value`` is not an acceptable usage figure, or None when it is."""
    shown = repr(value)[:60]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{name}={shown} is not a number"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{name}={shown} is not finite"
    if value < 0:
        return f"{name}={shown} is negative"
    if value > limit:
        return f"{name}={shown} exceeds {limit:g}"
    if integral and isinstance(value, float) and not value.is_integer():
        return f"{name}={shown} is not a whole number"
    return None


class Usage(_Strict):
    """Tokens and cost summed over a phase or a whole trial; ``cost_usd`` is None when a price is unknown.

    ``source`` says who counted: ``measured`` by lhtb's model layer (terminus' litellm calls), ``self-reported``
    by the agent's own output (an installed CLI's stdout or trajectory file: anything in the container can write
    it), ``mixed`` when a sum holds both, ``none`` when nothing was counted, ``unknown`` for figures of a result
    file written before sources were recorded. Figures that are negative, non-finite, not numbers or absurdly
    large are refused, never stored: the field is set to 0 (the cost to None, unknown) and ``refused`` says why.
    Refusal never raises, so a forged usage line cannot turn a trial into a harness error.
    """

    input_tokens: int = Field(default=0, ge=0, le=MAX_USAGE_TOKENS)
    cached_input_tokens: int = Field(default=0, ge=0, le=MAX_USAGE_TOKENS)
    output_tokens: int = Field(default=0, ge=0, le=MAX_USAGE_TOKENS)
    cost_usd: float | None = Field(default=0.0, ge=0, le=MAX_USAGE_COST_USD, allow_inf_nan=False)
    episodes: int = Field(default=0, ge=0, le=MAX_USAGE_EPISODES)
    source: UsageSource = "none"
    refused: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _refuse_forged(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        earlier = data.get("refused") or []
        notes = [str(note) for note in earlier] if isinstance(earlier, list) else [str(earlier)]
        for name, limit in _USAGE_COUNTS.items():
            if name in data and (why := _refusal(name, data[name], limit, integral=True)) is not None:
                notes.append(why)
                data[name] = 0
            elif isinstance(data.get(name), float):
                data[name] = int(data[name])
        cost = data.get("cost_usd")
        if cost is not None and (why := _refusal("cost_usd", cost, MAX_USAGE_COST_USD, integral=False)) is not None:
            notes.append(why)
            data["cost_usd"] = None
        if notes:
            data["refused"] = [str(note)[:200] for note in notes][:MAX_USAGE_NOTES]
        return data

    @model_validator(mode="after")
    def _label_unlabelled(self) -> Usage:
        if self.source == "none" and self.counted:  # an older result file, or a producer that did not say
            self.source = "unknown"
        return self

    @property
    def counted(self) -> bool:
        """True when any figure is non-zero (an unknown cost counts: something was spent)."""
        figures = (self.input_tokens, self.cached_input_tokens, self.output_tokens, self.episodes)
        return any(figures) or bool(self.cost_usd) or (self.cost_usd is None and self.episodes > 0)

    @classmethod
    def reported(cls, source: UsageSource = "self-reported", **figures: object) -> Usage:
        """Usage from figures as an agent reported them (any type): bad ones are refused with a note."""
        return cls.model_validate(figures).labelled(source)

    def labelled(self, source: UsageSource) -> Usage:
        """This usage attributed to ``source`` (kept ``none`` when nothing was counted)."""
        return self.model_copy(update={"source": source if self.counted or self.refused else "none"})

    def plus(self, other: Usage) -> Usage:
        cost = None if self.cost_usd is None or other.cost_usd is None else self.cost_usd + other.cost_usd
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=cost,
            episodes=self.episodes + other.episodes,
            source=_combined_source(self, other),
            refused=(self.refused + other.refused)[:MAX_USAGE_NOTES],
        )


def _combined_source(first: Usage, second: Usage) -> UsageSource:
    if first.source == "none":
        return second.source
    if second.source == "none" or first.source == second.source:
        return first.source
    return "mixed"


class AgentOutcome(_Strict):
    stop_reason: StopReason = "not_started"
    exit_code: int | None = None
    usage: Usage = Field(default_factory=Usage)
    message: str = ""


class UsageCheckRun(_Strict):
    """One run of an installed CLI: what it said it used beside what the model proxy measured."""

    run: int  # 1-based, in the order the CLI ran in the trial
    kind: Literal["run", "resume"]
    self_reported: Usage
    measured: Usage
    agree: bool  # input and output tokens equal
    differences: list[str] = Field(default_factory=list)


class UsageCheck(_Strict):
    """``agent/usage-check.json``: an installed CLI's self-reported usage cross-checked run by run against the
    translating proxy's measurement (the trial's usage is the measured one)."""

    schema_: Literal["lhtb.usage-check/1"] = Field(default="lhtb.usage-check/1", alias="schema")
    measured_by: str
    runs: list[UsageCheckRun] = Field(default_factory=list)
    after_last_run: Usage | None = None  # calls the proxy finished after the trial's last run was accounted

    @property
    def agree(self) -> bool:
        return all(run.agree for run in self.runs)


class VerifierOutcome(_Strict):
    """What one verifier run produced. ``reward`` is None exactly when ``error`` is set."""

    phase: str = "final"
    reward: float | None = None
    subtasks: list[Subtask] = Field(default_factory=list)
    source: Literal["lhtb.reward/1", "harbor-json", "harbor-txt", "none"] = "none"
    exit_code: int | None = None
    duration_sec: float = 0.0
    error: ErrorInfo | None = None


class PhaseTimings(_Strict):
    """Seconds spent per trial phase; verifier time is never charged to the agent."""

    build: float | None = None
    start: float | None = None
    agent_setup: float | None = None
    agent: float | None = None
    verifier: float | None = None
    teardown: float | None = None


class PhaseRecord(_Strict):
    """One agent phase of a trial (continue-until-timeout runs several), and the verification that ended it."""

    index: int
    started_at: datetime
    finished_at: datetime | None = None
    stop_reason: str = ""
    reward: float | None = None
    agent_sec: float = 0.0  # agent clock: paused time excluded
    usage: Usage = Field(default_factory=Usage)
    resumed_with: str | None = None  # the exact message that started this phase (None for the first)
    mode: Literal["initial", "same-conversation", "restart"] = "initial"
    # The interim verification that ended this phase: how long grading took (host clock) and the fixed pause the
    # agent waited; a verification longer than the pause is told to the agent as not passed (``late``).
    verification_sec: float | None = None
    feedback_pause_sec: float | None = None
    late: bool = False
    step: str | None = None  # a multi-step task's step this phase belongs to


class StepRecord(_Strict):
    """One step of a multi-step task (Harbor's ``[[steps]]``): its agent's outcome and its own verification."""

    name: str
    agent_outcome: AgentOutcome | None = None  # None: the step never ran (``skipped`` says why)
    verifier: VerifierOutcome | None = None
    agent_sec: float = 0.0  # agent clock
    skipped: str | None = None


class ActivityRecord(_Strict):
    """When the agent was last seen working, so a timeout can be told apart from a stall (docs/evaluation.md).

    Activity is an agent step the agent reports (a model reply, keystrokes sent) or container CPU use of at
    least ``cpu_floor`` of one core between two polls ``poll_interval_sec`` apart (agent clock).
    """

    last_active_sec: float | None = None  # agent clock; None: never seen active
    poll_interval_sec: float
    cpu_floor: float
    samples: int = 0  # CPU polls that returned a reading
    agent_steps: int = 0  # activity reports from the agent itself


class CheckpointRecord(_Strict):
    """A reward checkpoint: the artifacts snapshotted at ``agent_sec`` of agent time, graded without feedback."""

    agent_sec: float
    reward: float | None
    subtask_scores: dict[str, float] = Field(default_factory=dict)
    error: str | None = None


class AgentSpec(_Strict):
    name: str
    model: str | None = None
    kwargs: dict[str, str] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name if not self.model else f"{self.name}:{self.model}"


class LoopSettings(_Strict):
    """How a trial's agent loop runs: the task's [agent] settings with the job's overrides applied."""

    continue_until_timeout: bool = False
    pass_threshold: float = 1.0
    feedback_mode: FeedbackMode = "binary"
    checkpoint_interval_sec: float | None = None  # None: no checkpoints
    # Wall seconds from an interim verification's start to the agent's resumption, whatever grading took (the
    # job sets it: the task's verifier timeout plus an allowance; this default is a 60 s verifier's).
    feedback_pause_sec: float = 75.0
    cut_late_verifications: bool = True  # False: a verification past the pause runs to its end (audit jobs)

    model_config = ConfigDict(extra="forbid", frozen=True)


class LiveInterim(_Strict):
    """A finished agent phase of a running trial: when it ended on the agent clock and its interim reward."""

    agent_sec: float
    reward: float | None = None
    late: bool = False


class TrialLive(_Strict):
    """``live.json`` in a trial directory: where a running trial stands, rewritten atomically at every phase
    change and every few seconds (``lhtb.trial.live``); the viewer's live view reads it. ``result.json``, once
    written, supersedes it."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["lhtb.live/1"] = Field(default="lhtb.live/1", alias="schema")
    trial_name: str
    phase: str  # build, start, agent, verify, done (and the runner's retry phases)
    started_at: datetime
    updated_at: datetime
    timeout_sec: float
    agent_sec: float = 0.0  # agent clock
    last_active_sec: float | None = None  # agent clock; None: not seen working yet
    episodes: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    interim: list[LiveInterim] = Field(default_factory=list)
    checkpoints: list[float] = Field(default_factory=list)  # agent seconds of each checkpoint taken


class TrialSpec(_Strict):
    """One trial as planned: written as the trial's ``config.json`` before it runs, and nested in its result."""

    schema_: Literal["lhtb.trial-config/2"] = Field(default="lhtb.trial-config/2", alias="schema")
    trial_name: str
    job_name: str
    task_name: str
    task_path: str = ""  # "" in results migrated from lhtb.trial/1, which did not record it
    category: str = ""
    agent: AgentSpec
    attempt: int
    retries: int = 0  # how many times this trial ran before (infrastructure errors)
    agent_timeout_sec: float | None = None  # None only in migrated results that did not record it
    verifier_timeout_sec: float | None = None
    verifier_mode: VerifierMode = "separate"
    verify_seed: int | None = None  # LHTB_VERIFY_SEED of every verification of this trial (None: task default)
    settings: LoopSettings = Field(default_factory=LoopSettings)
    comparable: bool = True  # False: its numbers may not stand beside others (diagnostic feedback)
    base_images: dict[str, str] = Field(default_factory=dict)  # FROM images replaced in its Dockerfile (a change)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TrialResult(_Strict):
    """A finished trial: its spec, what the agent did, what the final verification said, and how it went.

    The reward, subtasks and usage live once (in ``verifier`` and ``agent_outcome``); the properties read them.
    Files in the flat ``lhtb.trial/1`` layout are migrated when they load (:func:`migrate_trial_v1`).
    """

    schema_: Literal["lhtb.trial/2"] = Field(default="lhtb.trial/2", alias="schema")
    spec: TrialSpec
    started_at: datetime
    finished_at: datetime
    error: ErrorInfo | None = None
    agent_outcome: AgentOutcome = Field(default_factory=AgentOutcome)
    verifier: VerifierOutcome | None = None  # the final verification; None when the trial never got that far
    timings: PhaseTimings = Field(default_factory=PhaseTimings)
    phases: list[PhaseRecord] = Field(default_factory=list)
    reward_curve: list[CheckpointRecord] = Field(default_factory=list)
    activity: ActivityRecord | None = None  # None: not monitored (the agent never ran)
    # A multi-step task's steps, in order; ``verifier`` then holds their aggregate (lhtb.trial.steps).
    steps: list[StepRecord] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: object) -> object:
        if isinstance(data, dict) and "spec" not in data and data.get("schema", "lhtb.trial/1") == "lhtb.trial/1":
            return migrate_trial_v1(data)
        return data

    @property
    def reward(self) -> float | None:
        return None if self.verifier is None else self.verifier.reward

    @property
    def subtasks(self) -> list[Subtask]:
        return [] if self.verifier is None else self.verifier.subtasks

    @property
    def usage(self) -> Usage:
        """Summed over every phase, including one cut off by the timeout."""
        return self.agent_outcome.usage

    @property
    def trial_name(self) -> str:
        return self.spec.trial_name

    @property
    def job_name(self) -> str:
        return self.spec.job_name

    @property
    def task_name(self) -> str:
        return self.spec.task_name

    @property
    def category(self) -> str:
        return self.spec.category

    @property
    def agent(self) -> AgentSpec:
        return self.spec.agent

    @property
    def attempt(self) -> int:
        return self.spec.attempt

    @property
    def retries(self) -> int:
        return self.spec.retries

    @property
    def agent_timeout_sec(self) -> float | None:
        return self.spec.agent_timeout_sec

    @property
    def continue_until_timeout(self) -> bool:
        return self.spec.settings.continue_until_timeout

    @property
    def verifier_mode(self) -> VerifierMode:
        return self.spec.verifier_mode

    @property
    def feedback_mode(self) -> FeedbackMode:
        return self.spec.settings.feedback_mode

    @property
    def verify_seed(self) -> int | None:
        return self.spec.verify_seed

    @property
    def comparable(self) -> bool:
        return self.spec.comparable


_V1_SPEC_FIELDS = ("trial_name", "job_name", "task_name", "category", "agent", "attempt", "retries")
_V1_SPEC_OPTIONAL = ("agent_timeout_sec", "verifier_mode", "verify_seed", "comparable")
_V1_SETTINGS = ("continue_until_timeout", "feedback_mode")


def migrate_trial_v1(data: dict[str, object]) -> dict[str, object]:
    """A flat ``lhtb.trial/1`` result as ``lhtb.trial/2``. What counted in v1 counts the same: its top-level
    reward and subtasks become the final verification's (made when v1 had none), its top-level usage the
    agent's. Unknown keys are left in place, so the strict model still names them."""
    old = {key: value.model_dump() if isinstance(value, BaseModel) else value for key, value in data.items()}
    old.pop("schema", None)
    spec: dict[str, object] = {key: old.pop(key) for key in _V1_SPEC_FIELDS if key in old}
    optional = {key: old.pop(key) for key in _V1_SPEC_OPTIONAL if key in old}
    spec |= {key: value for key, value in optional.items() if value is not None}
    spec["settings"] = {key: old.pop(key) for key in _V1_SETTINGS if key in old}
    reward, subtasks = old.pop("reward", None), old.pop("subtasks", None)
    verifier = old.get("verifier")
    if isinstance(verifier, dict):
        old["verifier"] = {**verifier, "reward": reward, **({"subtasks": subtasks} if subtasks is not None else {})}
    elif reward is not None or subtasks:
        old["verifier"] = {"phase": "final", "reward": reward, "subtasks": subtasks or []}
    if "usage" in old:
        outcome = old.get("agent_outcome")
        usage = old.pop("usage")
        old["agent_outcome"] = {**(outcome if isinstance(outcome, dict) else {}), "usage": usage}
    return {"schema": "lhtb.trial/2", "spec": spec, **old}


class ExecutorConfig(_Strict):
    """Where the job's trials run; recorded so that ``lhtb jobs resume`` goes back there."""

    kind: Literal["ray"] = "ray"
    address: str  # "auto" (this machine's cluster, or a private one) or the cluster's host:port
    tasks: Literal["ship", "shared"] = "ship"  # task directories sent through the object store, or on a shared path


class JobConfig(_Strict):
    schema_: Literal["lhtb.job-config/1"] = Field(default="lhtb.job-config/1", alias="schema")
    job_name: str
    created_at: datetime
    dataset_path: str
    task_names: list[str]
    agents: list[AgentSpec]
    attempts: int = Field(ge=1)
    concurrency: int = Field(ge=1)
    max_retries: int = Field(ge=0)
    agent_timeout_multiplier: float = Field(default=1.0, gt=0)
    # Job-level overrides of the task's [agent] settings (None: use the task's).
    continue_until_timeout: bool | None = None
    pass_threshold: float | None = Field(default=None, ge=0, le=1)
    checkpoint_interval_sec: float | None = Field(default=None, gt=0)
    # The agent is resumed exactly this long after an interim verification stopped it (None: the task's verifier
    # timeout plus FEEDBACK_ALLOWANCE_SEC), so the resume time carries nothing but the one pass/fail bit.
    feedback_pause_sec: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    # An interim verification still running at the pause: "cut" (told as not passed, the agent resumed on time:
    # the benchmark's rule) or "wait" (graded to the end and resumed late: for the audit, which must see every
    # verification's reward and accepts the timing leak in its own jobs).
    late_feedback: Literal["cut", "wait"] = "cut"
    feedback_mode: FeedbackMode = "binary"
    # Every trial's verify seed derives from this one (lhtb/jobs/seeds.py); None: a job made before seeds, whose
    # verifiers fall back to their tasks' default seeds.
    verify_seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    # `--base-image FROM=TO`: base images replaced in the tasks' Dockerfiles (a machine without a registry);
    # each trial records the ones its task used, and every row of the job is flagged.
    base_images: dict[str, str] = Field(default_factory=dict)
    lhtb_version: str
    executor: ExecutorConfig | None = None  # None: this machine's Docker engine

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class AgentSummary(_Strict):
    agent: str
    n_trials: int
    n_scored: int
    n_excluded: int
    mean_reward: float | None
    pass_rate_095: float | None
    pass_rate_100: float | None


class JobResult(_Strict):
    schema_: Literal["lhtb.job/1"] = Field(default="lhtb.job/1", alias="schema")
    job_name: str
    started_at: datetime
    finished_at: datetime
    n_trials: int
    n_finished: int
    errors_by_class: dict[str, int] = Field(default_factory=dict)
    agents: list[AgentSummary] = Field(default_factory=list)
    denominator_rule: str = ""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class QaGate(_Strict):
    name: str
    passed: bool
    detail: str = ""
    blocking: bool = True  # False: a warning that does not fail the check


class QaTaskReport(_Strict):
    task: str
    path: str
    category: str = ""
    gates: list[QaGate] = Field(default_factory=list)
    rewards: dict[str, float | None] = Field(default_factory=dict)  # agent → reward
    seeds: list[int] = Field(default_factory=list)  # the verify seeds graded (seed-0, seed-1, ...)
    seed_rewards: dict[str, dict[str, float | None]] = Field(default_factory=dict)  # agent → grading → reward
    verifier_sec: float = 0.0
    build_sec: float = 0.0
    subtasks: list[Subtask] = Field(default_factory=list)  # the oracle's scorecard: names, kinds, weights
    description: str = ""
    expert_time_estimate_min: float | None = None
    agent_timeout_sec: float | None = None

    @property
    def passed(self) -> bool:
        return all(gate.passed for gate in self.gates if gate.blocking)


class QaLockAudit(_Strict):
    """The task-specific exploit audit that held on a task's content (``lhtb tasks audit --lock``)."""

    digest: str  # the task's digest plus the exploit agents' code and the exploits and modes run (lhtb/qa/lock.py)
    checked_at: datetime
    exploits: list[str]
    modes: list[str]


class QaLockEntry(_Strict):
    """What `lhtb tasks check` measured for one task, and the content it measured (docs/authoring.md)."""

    digest: str  # sha256 of the task directory, the grading SDK and the verifier runner (lhtb/qa/lock.py)
    checked_at: datetime
    lhtb_version: str
    # "full": every gate; "basic": without the validity gates (seeds, load, inputs, shortcuts)
    gate_set: Literal["full", "basic"]
    seeds: list[int]
    rewards: dict[str, dict[str, float | None]]  # agent → grading label → reward
    gates: dict[str, bool]
    audit: QaLockAudit | None = None  # None: no audit recorded for this content


class QaLock(_Strict):
    schema_: Literal["lhtb.qa-lock/1"] = Field(default="lhtb.qa-lock/1", alias="schema")
    tasks: dict[str, QaLockEntry] = Field(default_factory=dict)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class QaReport(_Strict):
    schema_: Literal["lhtb.qa/1"] = Field(default="lhtb.qa/1", alias="schema")
    created_at: datetime
    lhtb_version: str
    tasks: list[QaTaskReport] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
