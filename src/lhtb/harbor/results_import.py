"""Harbor job directories read as lhtb results, so ``lhtb report`` and ``lhtb view`` pool them with lhtb jobs.

A Harbor job is ``<job>/config.json`` (Harbor's JobConfig: ``schema_version``, no ``schema``) and one directory
per trial holding Harbor's ``result.json``. Each trial becomes an ``lhtb.trial/2`` result in memory:

- agent: ``harbor/<agent name>`` with Harbor's model, so a Harbor run stands beside lhtb's own runs of the same
  agent rather than being pooled with them;
- reward: the ``reward`` key of Harbor's rewards, else the mean of all keys, every key kept as a subtask (the
  verifier's rule for a flat ``reward.json``: :func:`lhtb.verifier.reward.harbor_rewards`). Rewards outside
  [0, 1] are refused with the file named: lhtb's pass thresholds and means are defined on [0, 1];
- error: Harbor's exception type mapped as :mod:`lhtb.harbor.error_map` says, then lhtb's policy decides what
  counts (the same rule as for lhtb's own trials);
- attempt: the trial's rank by start time among the job's trials of the same task and agent;
- usage: Harbor's token and cost figures, marked ``self-reported`` (agents report them);
- trials exported from lhtb (``lhtb-result.json`` beside Harbor's) are read from lhtb's own result, exactly.
"""

from __future__ import annotations

import functools
import json
import tomllib
from collections import defaultdict
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

import lhtb
from lhtb.harbor import error_map
from lhtb.harbor.models import JobConfig, TimingInfo, TrialResult
from lhtb.harbor.results_export import LHTB_RESULT
from lhtb.results.models import (
    AgentOutcome,
    AgentSpec,
    ErrorInfo,
    PhaseTimings,
    StepRecord,
    Subtask,
    TrialSpec,
    Usage,
    VerifierOutcome,
)
from lhtb.results.models import JobConfig as LhtbJobConfig
from lhtb.results.models import TrialResult as LhtbTrialResult
from lhtb.verifier.reward import harbor_rewards

HARBOR_AGENT_PREFIX = "harbor/"


def is_harbor_job(job_dir: Path) -> bool:
    """Harbor's job config has ``schema_version`` and ``job_name`` and no lhtb ``schema``."""
    try:
        data = json.loads((job_dir / "config.json").read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "schema" not in data and "schema_version" in data and "job_name" in data


def read_job_config(job_dir: Path) -> JobConfig:
    return JobConfig.model_validate_json((job_dir / "config.json").read_bytes())


def _seconds(timing: TimingInfo | None) -> float | None:
    if timing is None or timing.started_at is None or timing.finished_at is None:
        return None
    return max(0.0, (timing.finished_at - timing.started_at).total_seconds())


def headline(rewards: dict[str, float]) -> tuple[float, list[Subtask]]:
    """(reward, subtasks) of Harbor's rewards mapping by the verifier's own rule; ValueError out of [0, 1]."""
    for key, value in rewards.items():
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"reward {key!r} = {value} is outside [0, 1] (lhtb's metrics are defined on [0, 1])")
    return harbor_rewards({key: float(value) for key, value in rewards.items()}, "Harbor reward")


@functools.cache
def _category(task_path: str) -> str:
    """The task's [metadata] category when its directory is here (Harbor's results do not record it)."""
    try:
        metadata = tomllib.loads((Path(task_path) / "task.toml").read_text(encoding="utf-8")).get("metadata", {})
    except (OSError, ValueError):
        return ""
    category = metadata.get("category") if isinstance(metadata, dict) else None
    return category if isinstance(category, str) else ""


def to_lhtb(harbor: TrialResult, job_name: str, attempt: int) -> LhtbTrialResult:
    rewards = harbor.verifier_result.rewards if harbor.verifier_result else None
    reward, subtasks = headline(rewards) if rewards else (None, [])
    error = None
    if harbor.exception_info is not None:
        error_class = error_map.error_class_of(harbor.exception_info.exception_type, has_reward=reward is not None)
        if error_class is not None:
            error = ErrorInfo(error_class=error_class, message=harbor.exception_info.exception_message[:2000])
    model = harbor.config.agent.model_name or (
        harbor.agent_info.model_info.name if harbor.agent_info.model_info else None
    )
    context = harbor.agent_result
    usage = Usage(
        input_tokens=(context.n_input_tokens or 0) if context else 0,
        cached_input_tokens=(context.n_cache_tokens or 0) if context else 0,
        output_tokens=(context.n_output_tokens or 0) if context else 0,
        cost_usd=context.cost_usd if context else None,
        source="self-reported" if context and (context.n_input_tokens or context.n_output_tokens) else "none",
    )
    timeout_exception = (
        harbor.exception_info is not None and harbor.exception_info.exception_type == "AgentTimeoutError"
    )
    stop = "error" if error else "timeout" if timeout_exception else "completed"
    started = harbor.started_at or datetime.fromtimestamp(0).astimezone()
    return LhtbTrialResult(
        spec=TrialSpec(
            trial_name=harbor.trial_name,
            job_name=job_name,
            task_name=harbor.task_name,
            task_path=str(harbor.task_id.get("path") or ""),
            category=_category(str(harbor.task_id.get("path") or "")) if harbor.task_id.get("path") else "",
            agent=AgentSpec(name=HARBOR_AGENT_PREFIX + harbor.agent_info.name, model=model),
            attempt=attempt,
            agent_timeout_sec=harbor.config.agent.override_timeout_sec,
            verifier_mode=harbor.verifier_environment_mode or "shared",
        ),
        started_at=started,
        finished_at=harbor.finished_at or started,
        error=error,
        agent_outcome=AgentOutcome(stop_reason=stop, usage=usage),  # type: ignore[arg-type]
        verifier=None
        if reward is None
        else VerifierOutcome(
            reward=reward, subtasks=subtasks, source="harbor-json", duration_sec=_seconds(harbor.verifier) or 0.0
        ),
        timings=PhaseTimings(
            build=_seconds(harbor.environment_setup),
            agent_setup=_seconds(harbor.agent_setup),
            agent=_seconds(harbor.agent_execution),
            verifier=_seconds(harbor.verifier),
        ),
        steps=[_step(step) for step in harbor.step_results or []],
    )


def _step(step: dict[str, object]) -> StepRecord:
    """A Harbor step result: its name and rewards (a step Harbor did not verify has none)."""
    verifier = step.get("verifier_result")
    rewards = verifier.get("rewards") if isinstance(verifier, dict) else None
    name = str(step.get("step_name") or "?")
    if not isinstance(rewards, dict) or not rewards:
        return StepRecord(name=name, skipped="Harbor recorded no rewards for this step")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in rewards.values()):
        raise ValueError(f"step {name!r}: rewards must be numbers, got {rewards!r:.200}")
    reward, subtasks = headline({str(k): float(v) for k, v in rewards.items()})
    return StepRecord(name=name, verifier=VerifierOutcome(reward=reward, subtasks=subtasks, source="harbor-json"))


def load_harbor_job(job_dir: Path) -> tuple[JobConfig, list[LhtbTrialResult], list[str], int]:
    """(config, results, "path: reason" problems, trials without a result yet) of a Harbor job directory."""
    config = read_job_config(job_dir)
    problems: list[str] = []
    unfinished = 0
    lhtb_results: list[LhtbTrialResult] = []
    harbor_trials: list[TrialResult] = []
    for trial_dir in sorted(p for p in job_dir.iterdir() if p.is_dir()):
        path = trial_dir / "result.json"
        if not path.is_file():
            unfinished += 1
            continue
        try:
            if (trial_dir / LHTB_RESULT).is_file():
                lhtb_results.append(LhtbTrialResult.model_validate_json((trial_dir / LHTB_RESULT).read_bytes()))
                continue
            harbor = TrialResult.model_validate_json(path.read_bytes())
        except (ValidationError, ValueError) as exc:
            problems.append(f"{path}: not a Harbor trial result: {_first(exc)}")
            continue
        if harbor.finished_at is None:
            unfinished += 1
            continue
        harbor_trials.append(harbor)
    ranks: dict[tuple[str, str, str | None], int] = defaultdict(int)
    for harbor in sorted(harbor_trials, key=lambda t: (t.started_at or datetime.min.astimezone(), t.trial_name)):
        key = (harbor.task_name, harbor.agent_info.name, harbor.config.agent.model_name)
        ranks[key] += 1
        try:
            lhtb_results.append(to_lhtb(harbor, config.job_name, ranks[key]))
        except (ValidationError, ValueError) as exc:
            problems.append(f"{job_dir / harbor.trial_name / 'result.json'}: {_first(exc)}")
    return config, lhtb_results, problems, unfinished


def lhtb_job_config(config: JobConfig, results: list[LhtbTrialResult], job_dir: Path) -> LhtbJobConfig:
    """What lhtb's job config would say of a Harbor job (for pages that show one): its tasks, agents, settings."""
    started = min((result.started_at for result in results), default=None)
    agents = {result.agent.label: result.agent for result in results}
    return LhtbJobConfig(
        job_name=config.job_name,
        created_at=started or datetime.fromtimestamp((job_dir / "config.json").stat().st_mtime).astimezone(),
        dataset_path=str(job_dir),
        task_names=sorted({result.task_name for result in results}),
        agents=list(agents.values()),
        attempts=config.n_attempts,
        concurrency=max(1, config.n_concurrent_trials),
        max_retries=0,
        agent_timeout_multiplier=config.agent_timeout_multiplier or config.timeout_multiplier,
        lhtb_version=f"harbor-job (read by lhtb {lhtb.__version__})",
    )


def _first(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "file"
        return f"{where}: {error['msg']}"
    return str(exc)
