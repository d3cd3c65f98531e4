"""The parts of Harbor 0.26's job and trial result files that lhtb writes and reads, modelled once.

Field names and meanings follow Harbor's own models (``harbor.models.trial.result.TrialResult``,
``harbor.models.job.result.JobResult``, ``harbor.models.trial.config.TrialConfig``); the tests validate what
lhtb writes with those. Keys lhtb does not use are kept when a Harbor file is read (``extra="allow"``), so a
file written by any Harbor 0.26 job loads; what lhtb relies on is typed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class TimingInfo(_Open):
    started_at: datetime | None = None
    finished_at: datetime | None = None


class ErrorPolicyOverride(_Open):
    """How a trial's exception is treated; lhtb writes its own decision here, so Harbor applies lhtb's policy."""

    should_retry: bool | None = None
    should_grade: bool | None = None
    has_valid_reward: bool | None = None


class ExceptionInfo(_Open):
    exception_type: str
    exception_message: str
    exception_traceback: str = ""
    occurred_at: datetime
    policy_override: ErrorPolicyOverride | None = None


class ModelInfo(_Open):
    name: str
    provider: str | None = None


class AgentInfo(_Open):
    name: str
    version: str
    model_info: ModelInfo | None = None


class AgentContext(_Open):
    n_input_tokens: int | None = None
    n_cache_tokens: int | None = None
    n_output_tokens: int | None = None
    cost_usd: float | None = None
    metadata: dict[str, Any] | None = None


class VerifierResult(_Open):
    rewards: dict[str, float] | None = None


class LocalTaskId(_Open):
    path: str


class TrialTask(_Open):
    path: str | None = None
    name: str | None = None
    source: str | None = None


class TrialAgent(_Open):
    name: str | None = None
    model_name: str | None = None
    override_timeout_sec: float | None = None
    kwargs: dict[str, Any] = Field(default_factory=dict)


class TrialConfig(_Open):
    schema_version: Literal[1] = 1
    task: TrialTask
    trial_name: str = ""
    trials_dir: str = "trials"
    timeout_multiplier: float = 1.0
    agent_timeout_multiplier: float | None = None
    agent: TrialAgent = Field(default_factory=TrialAgent)


class TrialResult(_Open):
    schema_version: Literal[1] = 1
    id: str
    task_name: str
    trial_name: str
    trial_uri: str
    task_id: dict[str, Any]
    source: str | None = None
    task_checksum: str
    config: TrialConfig
    agent_info: AgentInfo
    agent_result: AgentContext | None = None
    verifier_result: VerifierResult | None = None
    verifier_environment_mode: Literal["shared", "separate"] | None = None
    exception_info: ExceptionInfo | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    environment_setup: TimingInfo | None = None
    agent_setup: TimingInfo | None = None
    agent_execution: TimingInfo | None = None
    verifier: TimingInfo | None = None
    step_results: list[dict[str, Any]] | None = None


class AgentDatasetStats(_Open):
    n_trials: int = 0
    n_errors: int = 0
    metrics: list[dict[str, float]] = Field(default_factory=list)
    pass_at_k: dict[int, float] = Field(default_factory=dict)
    reward_stats: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    exception_stats: dict[str, list[str]] = Field(default_factory=dict)


class JobStats(_Open):
    n_completed_trials: int = 0
    n_errored_trials: int = 0
    n_running_trials: int = 0
    n_pending_trials: int = 0
    n_cancelled_trials: int = 0
    n_retries: int = 0
    evals: dict[str, AgentDatasetStats] = Field(default_factory=dict)
    n_input_tokens: int | None = None
    n_cache_tokens: int | None = None
    n_output_tokens: int | None = None
    cost_usd: float | None = None


class JobResult(_Open):
    schema_version: Literal[1] = 1
    id: str
    started_at: datetime
    updated_at: datetime | None = None
    finished_at: datetime | None = None
    n_total_trials: int
    stats: JobStats


class JobConfig(_Open):
    schema_version: Literal[1] = 1
    job_name: str
    jobs_dir: str = "jobs"
    n_attempts: int = 1
    timeout_multiplier: float = 1.0
    agent_timeout_multiplier: float | None = None
    n_concurrent_trials: int = 4
