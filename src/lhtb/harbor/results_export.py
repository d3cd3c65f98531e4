"""``lhtb export harbor JOB_DIR -o DIR``: an lhtb job in Harbor's job layout, which Harbor's models validate.

``DIR/<job>/config.json`` and ``result.json`` (Harbor's JobConfig and JobResult), and per trial
``DIR/<job>/<trial>/result.json`` and ``config.json`` (TrialResult, TrialConfig) with the trial's ``agent/`` and
``verifier/`` directories copied beside them and lhtb's own result kept as ``lhtb-result.json``. What Harbor
reads is the reward lhtb counts (``{"reward": R}``; a counted failure is lhtb's 0, an excluded trial has none),
the exception as lhtb classified it with lhtb's policy as Harbor's override, and the usage figures. lhtb records
phase durations, not their clock times: the phase timings are left out, the trial's start and end are kept.
"""

from __future__ import annotations

import hashlib
import shutil
import uuid
from collections import defaultdict
from pathlib import Path

import lhtb
from lhtb.errors import ConfigError
from lhtb.fs import write_text_atomic
from lhtb.harbor import error_map
from lhtb.harbor.models import (
    AgentContext,
    AgentDatasetStats,
    AgentInfo,
    ExceptionInfo,
    JobConfig,
    JobResult,
    JobStats,
    ModelInfo,
    TrialAgent,
    TrialConfig,
    TrialResult,
    TrialTask,
    VerifierResult,
)
from lhtb.jobs.layout import JobLayout
from lhtb.results.models import JobConfig as LhtbJobConfig
from lhtb.results.models import StepRecord
from lhtb.results.models import TrialResult as LhtbTrialResult
from lhtb.results.scoring import counted_reward
from lhtb.trial.steps import step_rewards

LHTB_RESULT = "lhtb-result.json"


def _stable_id(*parts: str) -> str:
    """A UUID derived from the names, so exporting the same job twice writes the same ids."""
    return str(uuid.UUID(hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]))


def _model_info(model: str | None) -> ModelInfo | None:
    if not model:
        return None
    provider, _, name = model.partition("/")
    return ModelInfo(name=name, provider=provider) if name else ModelInfo(name=model)


def harbor_trial(result: LhtbTrialResult, trial_dir: Path, job_dir: Path) -> TrialResult:
    spec = result.spec
    error_class = result.error.error_class if result.error else None
    reward = counted_reward(result.reward, error_class)
    usage = result.usage
    exception = None
    if result.error is not None:
        exception = ExceptionInfo(
            exception_type=error_map.exception_type(result.error.error_class),
            exception_message=result.error.message,
            occurred_at=result.finished_at,
            policy_override=error_map.policy_override(result.error.error_class),  # type: ignore[arg-type]
        )
    return TrialResult(
        id=_stable_id(spec.job_name, spec.trial_name),
        task_name=spec.task_name,
        trial_name=spec.trial_name,
        trial_uri=trial_dir.resolve().as_uri(),
        task_id={"path": spec.task_path or spec.task_name},
        source="lhtb",
        task_checksum=hashlib.sha256(f"{spec.task_path}\0{spec.task_name}".encode()).hexdigest(),
        config=TrialConfig(
            task=TrialTask(path=spec.task_path or spec.task_name, source="lhtb"),
            trial_name=spec.trial_name,
            trials_dir=str(job_dir.resolve()),
            agent=TrialAgent(
                name=spec.agent.name,
                model_name=spec.agent.model,
                override_timeout_sec=spec.agent_timeout_sec,
                kwargs=dict(spec.agent.kwargs),
            ),
        ),
        agent_info=AgentInfo(
            name=spec.agent.name, version=f"lhtb-{lhtb.__version__}", model_info=_model_info(spec.agent.model)
        ),
        agent_result=AgentContext(
            n_input_tokens=usage.input_tokens,
            n_cache_tokens=usage.cached_input_tokens,
            n_output_tokens=usage.output_tokens,
            cost_usd=usage.cost_usd,
            metadata={"lhtb_usage_source": usage.source, "lhtb_episodes": usage.episodes, "lhtb_attempt": spec.attempt},
        ),
        verifier_result=None if reward is None else VerifierResult(rewards={"reward": reward}),
        # A multi-step trial's steps, each with its rewards as Harbor's own step results hold them.
        step_results=[_step_result(step) for step in result.steps] or None,
        verifier_environment_mode=spec.verifier_mode,
        exception_info=exception,
        started_at=result.started_at,
        finished_at=result.finished_at,
    )


def _step_result(step: StepRecord) -> dict[str, object]:
    ran = step.verifier is not None and step.verifier.reward is not None
    return {"step_name": step.name, "verifier_result": {"rewards": step_rewards(step)} if ran else None}


def _job_result(job_name: str, config: LhtbJobConfig, trials: list[tuple[LhtbTrialResult, TrialResult]]) -> JobResult:
    evals: dict[str, AgentDatasetStats] = defaultdict(AgentDatasetStats)
    rewards_by_eval: dict[str, list[float]] = defaultdict(list)
    for result, harbor in trials:
        key = f"{result.agent.label}__lhtb"
        stats = evals[key]
        stats.n_trials += 1
        if harbor.exception_info is not None:
            stats.n_errors += 1
            stats.exception_stats.setdefault(harbor.exception_info.exception_type, []).append(harbor.trial_name)
        if harbor.verifier_result is not None and harbor.verifier_result.rewards is not None:
            value = harbor.verifier_result.rewards["reward"]
            rewards_by_eval[key].append(value)
            stats.reward_stats.setdefault("reward", {}).setdefault(str(value), []).append(harbor.trial_name)
    for key, values in rewards_by_eval.items():
        evals[key].metrics = [{"mean": sum(values) / len(values)}]
    finished = [result.finished_at for result, _ in trials]
    started = [result.started_at for result, _ in trials]
    usages = [result.usage for result, _ in trials]
    return JobResult(
        id=_stable_id(job_name),
        started_at=min(started, default=config.created_at),
        updated_at=max(finished, default=config.created_at),
        finished_at=max(finished, default=config.created_at),
        n_total_trials=len(trials),
        stats=JobStats(
            n_completed_trials=len(trials),
            n_errored_trials=sum(harbor.exception_info is not None for _, harbor in trials),
            evals=dict(evals),
            n_input_tokens=sum(u.input_tokens for u in usages),
            n_cache_tokens=sum(u.cached_input_tokens for u in usages),
            n_output_tokens=sum(u.output_tokens for u in usages),
            cost_usd=None if any(u.cost_usd is None for u in usages) else sum(u.cost_usd or 0.0 for u in usages),
        ),
    )


def export_job(job_dir: Path, out_dir: Path) -> Path:
    """Write the job's finished trials in Harbor's layout under ``out_dir/<job name>``, replacing an earlier copy."""
    layout = JobLayout(job_dir)
    if not layout.config.is_file():
        raise ConfigError(f"{layout.config}: not an lhtb job directory (config.json is missing)")
    config = LhtbJobConfig.model_validate_json(layout.config.read_bytes())
    dest = out_dir / config.job_name
    staging = out_dir / f".{config.job_name}.export"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    trials: list[tuple[LhtbTrialResult, TrialResult]] = []
    trial_dirs = sorted(p for p in layout.trials.iterdir() if p.is_dir()) if layout.trials.is_dir() else []
    for source in trial_dirs:
        result_path = source / "result.json"
        if not result_path.is_file():
            continue  # unfinished: Harbor's layout has no place for it either
        try:
            result = LhtbTrialResult.model_validate_json(result_path.read_bytes())
        except ValueError as exc:
            shutil.rmtree(staging)
            raise ConfigError(f"{result_path}: not a valid trial result: {exc}") from None
        target = staging / source.name
        for part in ("agent", "verifier"):
            if (source / part).is_dir():
                shutil.copytree(source / part, target / part, symlinks=True)
        target.mkdir(exist_ok=True)
        shutil.copy2(result_path, target / LHTB_RESULT)
        harbor = harbor_trial(result, dest / source.name, dest)
        write_text_atomic(target / "result.json", harbor.model_dump_json(indent=2, exclude_none=False) + "\n")
        write_text_atomic(target / "config.json", harbor.config.model_dump_json(indent=2) + "\n")
        trials.append((result, harbor))
    job_config = JobConfig(
        job_name=config.job_name,
        jobs_dir=str(out_dir.resolve()),
        n_attempts=config.attempts,
        agent_timeout_multiplier=config.agent_timeout_multiplier,
        n_concurrent_trials=config.concurrency,
    )
    write_text_atomic(staging / "config.json", job_config.model_dump_json(indent=2) + "\n")
    write_text_atomic(
        staging / "result.json", _job_result(config.job_name, config, trials).model_dump_json(indent=2) + "\n"
    )
    if dest.exists():
        shutil.rmtree(dest)
    staging.rename(dest)
    return dest
