"""Run a job: expand tasks × agents × attempts, schedule with bounded concurrency, retry infrastructure
failures, write every file atomically, and resume exactly the trials that have no final result."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

import lhtb
from lhtb.errors import ERROR_POLICY, ConfigError, ErrorClass
from lhtb.fs import first_problem, write_model_atomic
from lhtb.jobs.layout import JobLayout, trial_name
from lhtb.jobs.seeds import new_job_seed, trial_seed
from lhtb.jobs.summary import summarise
from lhtb.results.models import (
    AgentSpec,
    ErrorInfo,
    ExecutorConfig,
    FeedbackMode,
    JobConfig,
    JobResult,
    LoopSettings,
    TrialResult,
    TrialSpec,
)
from lhtb.results.scoring import DENOMINATOR_RULE
from lhtb.tasks.loader import Task, TaskLoad, scan_dataset, select_tasks
from lhtb.trial.agent_loop import checkpoint_interval_from_env, default_feedback_pause
from lhtb.trial.lifecycle import TrialPlan

if TYPE_CHECKING:
    from lhtb.environments.base import EnvironmentProvider
    from lhtb.jobs.executor import TrialExecutor

TrialEvent = Callable[[str, str, TrialResult | None], None]  # (trial name, phase or "done", result)
Notice = Callable[[str], None]  # a message about the job for the user (a set-aside directory, ...)

# Where resume moves a trial directory whose result.json cannot be read (kept, never deleted; not a trial).
SET_ASIDE_DIR = "set-aside"


class JobInterrupted(Exception):
    """The job was stopped by SIGINT or SIGTERM: containers removed, partial job result written, resumable."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum  # the shell's convention: 130 for SIGINT, 143 for SIGTERM


@dataclass(frozen=True)
class PlannedTrial:
    name: str
    load: TaskLoad
    agent: AgentSpec
    attempt: int


def new_job_config(
    dataset: Path,
    task_names: list[str] | None,
    agents: list[AgentSpec],
    *,
    job_name: str | None,
    attempts: int,
    concurrency: int,
    max_retries: int,
    agent_timeout_multiplier: float = 1.0,
    continue_until_timeout: bool | None = None,
    pass_threshold: float | None = None,
    checkpoint_interval_sec: float | None = None,
    feedback_pause_sec: float | None = None,
    late_feedback: Literal["cut", "wait"] = "cut",
    feedback_mode: FeedbackMode = "binary",
    verify_seed: int | None = None,
    base_images: dict[str, str] | None = None,
    executor: ExecutorConfig | None = None,
) -> JobConfig:
    """A new job's config; the overrides of the tasks' [agent] settings default to "use the task's"."""
    loads = select_tasks(scan_dataset(dataset), task_names)
    if not loads:
        raise ConfigError(f"{dataset}: no task directories found (a task directory holds task.toml)")
    created = datetime.now(UTC)
    return JobConfig(
        job_name=job_name or created.strftime("%Y-%m-%d__%H-%M-%S"),
        created_at=created,
        dataset_path=str(dataset.resolve()),
        task_names=[load.task.name if load.task else load.path.name for load in loads],
        agents=agents,
        attempts=attempts,
        concurrency=concurrency,
        max_retries=max_retries,
        agent_timeout_multiplier=agent_timeout_multiplier,
        continue_until_timeout=continue_until_timeout,
        pass_threshold=pass_threshold,
        checkpoint_interval_sec=checkpoint_interval_sec,
        feedback_pause_sec=feedback_pause_sec,
        late_feedback=late_feedback,
        feedback_mode=feedback_mode,
        verify_seed=new_job_seed() if verify_seed is None else verify_seed,
        base_images=base_images or {},
        lhtb_version=lhtb.__version__,
        executor=executor,
    )


def plan_trials(config: JobConfig) -> list[PlannedTrial]:
    loads = select_tasks(scan_dataset(Path(config.dataset_path)), config.task_names)
    planned = []
    for load in loads:
        task_name = load.task.name if load.task else load.path.name
        for agent in config.agents:
            for attempt in range(1, config.attempts + 1):
                planned.append(PlannedTrial(trial_name(task_name, agent, attempt), load, agent, attempt))
    return planned


# Scripted reference agents do the same thing every time: resuming them only burns verifications.
SINGLE_SHOT_AGENTS = frozenset({"oracle", "baseline", "nop", "shortcut"})


def loop_settings(config: JobConfig, task: Task, agent_name: str = "") -> LoopSettings:
    """The task's [agent] settings with the job's overrides applied (reference agents always run once)."""
    agent = task.config.agent
    cut = agent.continue_until_timeout if config.continue_until_timeout is None else config.continue_until_timeout
    cut = cut and agent_name not in SINGLE_SHOT_AGENTS
    interval = config.checkpoint_interval_sec or agent.checkpoint_interval_sec or checkpoint_interval_from_env()
    budget = agent.timeout_sec * config.agent_timeout_multiplier
    return LoopSettings(
        continue_until_timeout=cut,
        pass_threshold=agent.pass_threshold if config.pass_threshold is None else config.pass_threshold,
        feedback_mode=config.feedback_mode,
        checkpoint_interval_sec=interval if interval < budget else None,
        feedback_pause_sec=config.feedback_pause_sec or default_feedback_pause(task.config.verifier.timeout_sec),
        cut_late_verifications=config.late_feedback == "cut",
    )


@dataclass(frozen=True)
class UnreadableResult:
    """A result.json that exists but cannot be read: it is reported, never silently dropped."""

    path: Path
    reason: str


def read_trial_result(path: Path) -> TrialResult | UnreadableResult | None:
    """A finished trial's result; None when there is none yet; UnreadableResult when the file is corrupt."""
    if not path.exists():
        return None
    try:
        return TrialResult.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        detail = first_problem(exc)
        return UnreadableResult(path, f"not a valid trial result ({exc.error_count()} error(s); first: {detail})")
    except (OSError, ValueError) as exc:
        return UnreadableResult(path, f"{type(exc).__name__}: {exc}")


def load_trial_result(path: Path) -> TrialResult | None:
    """A finished trial's result, or None when absent or unreadable."""
    result = read_trial_result(path)
    return result if isinstance(result, TrialResult) else None


def read_trial_results(trials_dir: Path) -> tuple[list[TrialResult], list[UnreadableResult]]:
    """Every trial result under ``trials/``, and the result files that exist but cannot be read."""
    results, unreadable = [], []
    for path in sorted(trials_dir.glob("*/result.json")):
        result = read_trial_result(path)
        if isinstance(result, TrialResult):
            results.append(result)
        elif result is not None:
            unreadable.append(result)
    return results, unreadable


def _invalid_task_result(config: JobConfig, trial: PlannedTrial) -> TrialResult:
    now = datetime.now(UTC)
    spec = TrialSpec(
        trial_name=trial.name,
        job_name=config.job_name,
        task_name=trial.load.path.name,
        task_path=str(trial.load.path),
        agent=trial.agent,
        attempt=trial.attempt,
    )
    return TrialResult(
        spec=spec,
        started_at=now,
        finished_at=now,
        error=ErrorInfo(error_class=ErrorClass.TASK_INVALID, message=trial.load.error or "invalid task"),
    )


def _job_result(config: JobConfig, started: datetime, n_planned: int, results: list[TrialResult]) -> JobResult:
    summaries, errors = summarise(results)
    return JobResult(
        job_name=config.job_name,
        started_at=started,
        finished_at=datetime.now(UTC),
        n_trials=n_planned,
        n_finished=len(results),
        errors_by_class=errors,
        agents=summaries,
        denominator_rule=DENOMINATOR_RULE,
    )


class JobRunner:
    def __init__(
        self,
        config: JobConfig,
        jobs_dir: Path,
        on_event: TrialEvent | None = None,
        on_notice: Notice | None = None,
        provider: EnvironmentProvider | None = None,
        executor: TrialExecutor | None = None,
    ) -> None:
        from lhtb.jobs.executor import LocalExecutor

        self.config = config
        self.executor: TrialExecutor = executor or LocalExecutor(provider)
        self.layout = JobLayout(jobs_dir / config.job_name)
        self.on_event = on_event or (lambda _name, _phase, _result: None)
        self.on_notice = on_notice or (lambda _message: None)

    def _trial_plan(self, trial: PlannedTrial, retries: int) -> TrialPlan:
        task = trial.load.task
        assert task is not None
        if self.config.base_images:
            task = task.with_base_images(self.config.base_images)
        return TrialPlan.new(
            task,
            self.layout.trial_dir(trial.name),
            job_name=self.config.job_name,
            trial_name=trial.name,
            agent=trial.agent,
            attempt=trial.attempt,
            agent_timeout_sec=task.config.agent.timeout_sec * self.config.agent_timeout_multiplier,
            settings=loop_settings(self.config, task, trial.agent.name),
            retries=retries,
            verify_seed=None
            if self.config.verify_seed is None
            else trial_seed(self.config.verify_seed, task.name, trial.attempt),
        )

    async def _run_one(self, trial: PlannedTrial, semaphore: asyncio.Semaphore) -> TrialResult:
        async with semaphore:
            trial_dir = self.layout.trial_dir(trial.name)
            if trial.load.task is None:
                result = _invalid_task_result(self.config, trial)
                trial_dir.mkdir(parents=True, exist_ok=True)
                write_model_atomic(trial_dir / "result.json", result)
                self.on_event(trial.name, "done", result)
                return result
            retries = 0
            while True:
                plan = self._trial_plan(trial, retries)
                write_model_atomic(trial_dir / "config.json", plan.spec)
                result = await self.executor.run(plan, lambda name, phase: self.on_event(name, phase, None))
                error = result.error
                if error is None or not ERROR_POLICY[error.error_class].retry or retries >= self.config.max_retries:
                    self.on_event(trial.name, "done", result)
                    return result
                retries += 1
                self.on_event(trial.name, f"retry {retries}", result)
                await self.executor.settle()
                if error.error_class == ErrorClass.HARNESS_ERROR:
                    # Its process or node may be gone and its containers with no owner: not left to pile up.
                    await self.executor.collect_garbage(self.config.job_name)
                archive = self.layout.retries / f"{trial.name}.{retries}"
                shutil.rmtree(archive, ignore_errors=True)
                archive.parent.mkdir(parents=True, exist_ok=True)
                trial_dir.rename(archive)

    def pending(self, planned: list[PlannedTrial]) -> tuple[list[PlannedTrial], list[TrialResult]]:
        """Trials still to run and the results already final. Partial directories (no result.json: an
        interrupted trial) are cleared; a directory whose result.json is unreadable is moved aside, not deleted."""
        todo, done = [], []
        for trial in planned:
            existing = read_trial_result(self.layout.trial_result(trial.name))
            if isinstance(existing, TrialResult):
                done.append(existing)
                continue
            if isinstance(existing, UnreadableResult):
                kept = self._set_aside(trial.name)
                self.on_notice(
                    f"{existing.path}: {existing.reason}; the trial runs again, its old directory is kept as {kept}"
                )
            else:
                shutil.rmtree(self.layout.trial_dir(trial.name), ignore_errors=True)
            todo.append(trial)
        return todo, done

    def _set_aside(self, name: str) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        target = self.layout.root / SET_ASIDE_DIR / f"{name}.unreadable-{stamp}"
        target.parent.mkdir(parents=True, exist_ok=True)
        self.layout.trial_dir(name).rename(target)
        return target

    async def run(self) -> JobResult:
        """Run the pending trials; on cancellation the job result of the trials finished so far is written."""
        started = datetime.now(UTC)
        self.layout.root.mkdir(parents=True, exist_ok=True)
        resumed = self.layout.config.exists()
        if not resumed:
            write_model_atomic(self.layout.config, self.config)
        planned = plan_trials(self.config)
        todo, done = self.pending(planned)
        for result in done:
            self.on_event(result.trial_name, "done", result)
        semaphore = asyncio.Semaphore(self.config.concurrency)
        fresh: dict[str, TrialResult] = {}

        async def run_one(trial: PlannedTrial) -> None:
            fresh[trial.name] = await self._run_one(trial, semaphore)

        try:
            if todo and resumed:
                # A resumed job may have been killed with -9: its containers outlived their owner.
                await self.executor.collect_garbage(self.config.job_name)
            await asyncio.gather(*(run_one(trial) for trial in todo))
        finally:
            # Written before the drain (a partial result on cancellation too), with the results in planned order.
            results = done + [fresh[t.name] for t in todo if t.name in fresh]
            job_result = _job_result(self.config, started, len(planned), results)
            write_model_atomic(self.layout.result, job_result)
            await self.executor.settle()
        return job_result


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def run_job(
    config: JobConfig,
    jobs_dir: Path,
    on_event: TrialEvent | None = None,
    on_notice: Notice | None = None,
    provider: EnvironmentProvider | None = None,
    executor: TrialExecutor | None = None,
) -> JobResult:
    """Run a job to completion. SIGINT or SIGTERM cancels it, removes every container it started, writes the
    partial job result and raises :class:`JobInterrupted`; the job can then be resumed."""
    runner = JobRunner(config, jobs_dir, on_event, on_notice, provider, executor)
    received: list[int] = []
    cancellable: list[asyncio.Task[Any]] = []

    def stop(sig: int) -> None:
        # Only the first signal cancels, and only while trials run: container removal must not be cut short.
        received.append(sig)
        if cancellable:
            cancellable.pop().cancel()

    async def main() -> JobResult:
        loop = asyncio.get_running_loop()
        current = asyncio.current_task()
        assert current is not None
        cancellable.append(current)
        for sig in _STOP_SIGNALS:
            loop.add_signal_handler(sig, stop, sig)  # replaces asyncio.run's own SIGINT handling
        try:
            try:
                await runner.executor.start()
                job_result = await runner.run()
            finally:
                cancellable.clear()
        except asyncio.CancelledError:
            if not received:
                raise
        finally:
            try:
                await runner.executor.remove_leftovers(config.job_name)
            finally:
                await runner.executor.close()
        if received:
            raise JobInterrupted(received[0])
        return job_result

    previous = {sig: signal.getsignal(sig) for sig in _STOP_SIGNALS}
    try:
        return asyncio.run(main())
    finally:
        for sig, handler in previous.items():  # closing the loop resets the defaults, not the caller's handlers
            if handler is not None:
                signal.signal(sig, handler)


def make_executor(config: JobConfig, log: Notice | None = None) -> TrialExecutor:
    """The executor the job's config names: this machine's Docker engine, or a Ray cluster."""
    from lhtb.jobs.executor import LocalExecutor

    if config.executor is None:
        return LocalExecutor()
    from lhtb.jobs.ray_executor import RayExecutor

    sync = float(os.environ.get("LHTB_RAY_SYNC_SEC", "10"))
    return RayExecutor(
        config.executor.address, slots=config.concurrency, tasks=config.executor.tasks, sync_interval_sec=sync, log=log
    )


def load_job_config(job_dir: Path) -> JobConfig:
    path = job_dir / "config.json"
    if not path.is_file():
        raise ConfigError(f"{path}: not a job directory (config.json is missing)")
    try:
        return JobConfig.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        raise ConfigError(f"{path}: invalid job config: {exc}") from exc
