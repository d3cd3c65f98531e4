"""The trial lifecycle as one readable sequence of phases.

build → the agent's host needs (mounts, a model bridge) → start (agent container; a clean verifier container
warms up beside it) → agent setup → agent loop
(phases, interim verifications, checkpoints: trial/agent_loop.py) → freeze the agent, final verification in a
fresh container → result.json; container removal finishes in the background and then records its time.
"""

from __future__ import annotations

import asyncio
import shlex
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from lhtb.agents.base import Agent, AgentContext, ContainerNeeds
from lhtb.agents.registry import create_agent
from lhtb.environments.base import ContainerSpec, Environment, EnvironmentProvider, sidecars_for
from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import ERROR_POLICY, AgentError, AgentSetupError, ErrorClass, LhtbError, TaskInvalidError
from lhtb.fs import write_model_atomic, write_text_atomic
from lhtb.llm.bridge import ModelBridge, loopback_port
from lhtb.results.models import (
    AgentOutcome,
    AgentSpec,
    ErrorInfo,
    LoopSettings,
    PhaseTimings,
    StepRecord,
    TrialResult,
    TrialSpec,
    Usage,
    VerifierOutcome,
)
from lhtb.tasks.config import Step
from lhtb.tasks.loader import Task
from lhtb.trial.activity import ActivityMonitor, poll_interval_sec
from lhtb.trial.agent_loop import AgentLoop
from lhtb.trial.background import Background
from lhtb.trial.clock import AgentClock
from lhtb.trial.live import LiveWriter
from lhtb.trial.steps import aggregate, below_min_reward
from lhtb.verifier.grader import Grader
from lhtb.verifier.separate import ArtifactSnapshot, check_verifier_user
from lhtb.verifier.shared import AgentProcessesUnstoppable, continue_processes, stop_all_processes

T = TypeVar("T")
PhaseCallback = Callable[[str, str], None]  # (trial_name, phase)
# Grades the held agent's artifacts again after the final verification (QA's rounds: other seeds, under load,
# spoiled inputs); the snapshot is closed by the trial afterwards.
Regrade = Callable[[Grader, ArtifactSnapshot], Awaitable[None]]
STEP_SETUP_TIMEOUT_SEC = 600.0


@dataclass
class TrialPlan:
    """A trial to run: its spec (the trial's ``config.json``, nested in its result), the loaded task, the
    directory its files go to, and QA's optional regrade hook."""

    spec: TrialSpec
    task: Task
    trial_dir: Path
    regrade: Regrade | None = None

    @classmethod
    def new(
        cls,
        task: Task,
        trial_dir: Path,
        *,
        job_name: str,
        trial_name: str,
        agent: AgentSpec,
        attempt: int,
        agent_timeout_sec: float,
        settings: LoopSettings | None = None,
        retries: int = 0,
        verify_seed: int | None = None,
        regrade: Regrade | None = None,
    ) -> TrialPlan:
        """The one place a trial's spec is made from its task: everything it records about the task comes from here."""
        settings = settings or LoopSettings()
        spec = TrialSpec(
            trial_name=trial_name,
            job_name=job_name,
            task_name=task.name,
            task_path=str(task.path),
            category=task.config.metadata.category,
            agent=agent,
            attempt=attempt,
            retries=retries,
            agent_timeout_sec=agent_timeout_sec,
            verifier_timeout_sec=task.config.verifier.timeout_sec,
            verifier_mode=task.config.verifier.mode,
            verify_seed=verify_seed,
            settings=settings,
            comparable=settings.feedback_mode == "binary",
            base_images=dict(task.base_images),
        )
        return cls(spec=spec, task=task, trial_dir=trial_dir, regrade=regrade)

    @property
    def agent_timeout_sec(self) -> float:
        assert self.spec.agent_timeout_sec is not None  # set by new(); None only in migrated old results
        return self.spec.agent_timeout_sec


@dataclass
class _State:
    """Everything a trial accumulates; turned into a TrialResult at the end."""

    plan: TrialPlan
    provider: EnvironmentProvider
    started_at: datetime
    timings: PhaseTimings = field(default_factory=PhaseTimings)
    agent_outcome: AgentOutcome = field(default_factory=AgentOutcome)
    error: ErrorInfo | None = None
    image: str = ""
    verifier_image: str = ""  # a bundled verifier's image; "": the task's
    clock: AgentClock | None = None
    agent_env: Environment | None = None
    grader: Grader | None = None  # the current step's (a single-step task has one)
    graders: list[Grader] = field(default_factory=list)  # every step's, closed at teardown
    steps: list[StepRecord] = field(default_factory=list)
    agent: Agent | None = None
    bridge: ModelBridge | None = None
    loop: AgentLoop | None = None
    live: LiveWriter | None = None
    removals: list[asyncio.Future[None]] = field(default_factory=list)

    def remove_later(self, env: Environment | None) -> None:
        """Start removing a container without waiting for it (teardown off the critical path)."""
        if env is not None:
            self.removals.append(asyncio.ensure_future(env.stop()))


def _now() -> datetime:
    return datetime.now(UTC)


async def _timed(state: _State, phase: str, coro: Awaitable[T]) -> T:
    """Charge the time ``coro`` takes to ``phase`` (added: agent_setup is timed in two parts)."""
    started = time.monotonic()
    try:
        return await coro
    finally:
        before = getattr(state.timings, phase) or 0.0
        setattr(state.timings, phase, round(before + time.monotonic() - started, 3))


def agent_container_spec(
    task: Task, image: str, plan: TrialPlan, mounts: dict[str, tuple[str, str]] | None = None
) -> ContainerSpec:
    env = task.config.environment
    return ContainerSpec.for_task(
        env,
        image,
        job=plan.spec.job_name,
        trial=plan.spec.trial_name,
        role="agent",
        network=env.effective_network,
        env=dict(env.env),
        mounts=mounts,
        user=task.config.agent.user,  # the agent's commands run as this user; harness steps ask for root
        sidecars=sidecars_for(task, internal=env.effective_network == "none"),
    )


async def _container_needs(state: _State) -> dict[str, tuple[str, str]]:
    """Mounts the agent asks for, and a bridge to a loopback model server when it runs inside the container."""
    plan, agent = state.plan, state.agent
    prepare = getattr(agent, "prepare_host", None)
    if prepare is None:
        return {}
    needs: ContainerNeeds = await prepare(plan.task)
    mounts = dict(needs.mounts)
    port = loopback_port(needs.model_api_base)
    if port is not None:  # the container's 127.0.0.1 is its own, with or without a network: bridge it
        state.bridge = ModelBridge(port, urlsplit(needs.model_api_base or "").path)
        await state.bridge.start()
        mounts |= state.bridge.mount
    elif needs.model_api_base and plan.task.config.environment.effective_network == "none":
        raise AgentSetupError(
            f"{plan.spec.agent.name} runs inside the task container, which has no network: its model "
            f"api_base {needs.model_api_base!r} must be this machine's loopback (lhtb bridges it), or the task "
            "must allow network"
        )
    return mounts


def _grader(state: _State, task: Task, trial_dir: Path, *, last: bool = True) -> Grader:
    plan = state.plan
    assert state.clock is not None
    settings = plan.spec.settings
    grader = Grader(
        provider=state.provider,
        task=task,
        image=state.image,
        verifier_image=state.verifier_image or state.image,
        job=plan.spec.job_name,
        trial=plan.spec.trial_name,
        trial_dir=trial_dir,
        clock=state.clock,
        keep_warm=settings.continue_until_timeout or settings.checkpoint_interval_sec is not None,
        verify_seed=plan.spec.verify_seed,
        last=last,
    )
    state.grader = grader
    state.graders.append(grader)
    # The verifier container starts beside the agent's, so its start is off the critical path.
    grader.warm_up()
    return grader


async def _start(state: _State, mounts: dict[str, tuple[str, str]]) -> None:
    plan = state.plan
    state.agent_env = state.provider.create(agent_container_spec(plan.task, state.image, plan, mounts))
    state.clock = AgentClock(plan.agent_timeout_sec)
    if not plan.task.steps:
        _grader(state, plan.task, plan.trial_dir)
    await state.agent_env.start()
    # A [verifier] user missing from the image is the task's error: found now, not after the agent's whole run.
    for view in [plan.task] + [plan.task.for_step(step.name) for step in plan.task.steps]:
        await check_verifier_user(state.agent_env, view)
    if state.bridge is not None:
        started = await state.agent_env.exec(state.bridge.forwarder_command, user="root", timeout_sec=30)
        if started.exit_code != 0:
            raise AgentSetupError(f"the model route into the container did not start: {started.stderr.strip()[-300:]}")


async def _run_agent(state: _State, task: Task, budget_sec: float, logs_dir: Path) -> AgentOutcome:
    """Run the agent on ``task`` (a step's view for a multi-step task) until it stops or ``budget_sec`` of agent
    time is used; set up once, before its first run. The returned outcome carries this run's usage."""
    assert state.agent_env is not None and state.grader is not None and state.agent is not None
    assert state.clock is not None
    agent, clock = state.agent, state.clock
    logs_dir.mkdir(parents=True, exist_ok=True)
    clock.budget_sec = clock.used + budget_sec  # one clock for the trial: a step gets its own budget on it
    if state.loop is None:
        activity = ActivityMonitor(state.agent_env, clock, interval_sec=poll_interval_sec(budget_sec))
        context = AgentContext(task, state.agent_env, logs_dir, budget_sec, activity.report, activity.waiting)
        if state.bridge is not None:  # installed agents' model calls are seen where they are relayed
            state.bridge.activity = activity
        await _timed(state, "agent_setup", agent.setup(context))
        settings = state.plan.spec.settings
        state.loop = AgentLoop(agent, context, state.agent_env, state.grader, clock, settings, activity)
        if state.live is not None:
            state.live.loop, state.live.clock, state.live.agent = state.loop, clock, agent
    else:  # the next step: same agent, loop and clock; its own instruction, tests and logs
        assert state.loop.activity is not None
        monitor = state.loop.activity
        state.loop.context = AgentContext(task, state.agent_env, logs_dir, budget_sec, monitor.report, monitor.waiting)
        state.loop.grader = state.grader
    loop, first_phase = state.loop, len(state.loop.phases)
    try:
        outcome = await _timed(state, "agent", loop.run(task.instruction))
    except AgentError as exc:
        state.agent_outcome = AgentOutcome(stop_reason="error", usage=loop.usage, message=str(exc))
        raise
    finally:
        for record in loop.phases[first_phase:]:
            record.step = task.step
    state.agent_outcome = outcome.model_copy(update={"usage": loop.usage})
    if outcome.stop_reason == "error":
        raise AgentError(outcome.message or "the agent reported an error")
    usage = Usage()
    for record in loop.phases[first_phase:]:
        usage = usage.plus(record.usage)
    return outcome.model_copy(update={"usage": usage})


async def _verify(state: _State) -> VerifierOutcome:
    """The current step's (or the task's) final verification; the agent stays stopped until released."""
    assert state.agent_env is not None and state.grader is not None
    started = time.monotonic()
    try:
        return await state.grader.verify(state.agent_env, "final")
    finally:
        state.timings.verifier = round((state.timings.verifier or 0.0) + time.monotonic() - started, 3)


async def _hold(state: _State) -> None:
    """After the last verification: the agent never runs again; QA's regrades, then the checkpoints, graded."""
    assert state.agent_env is not None and state.grader is not None
    started = time.monotonic()
    await state.grader.hold(state.agent_env)
    if state.plan.regrade is not None:
        snapshot = await state.grader.held_snapshot(state.agent_env)
        try:
            await state.plan.regrade(state.grader, snapshot)
        finally:
            snapshot.close()
    state.remove_later(state.agent_env)
    state.timings.verifier = round((state.timings.verifier or 0.0) + time.monotonic() - started, 3)
    if state.loop is not None:  # the agent is frozen for good: its checkpoints can be graded now
        await state.loop.grade_checkpoints()


async def _final_verification(state: _State) -> VerifierOutcome:
    outcome = await _verify(state)
    await _hold(state)
    return outcome


def _result(state: _State, final: VerifierOutcome | None = None) -> TrialResult:
    plan = state.plan
    loop = state.loop
    error = state.error
    if final is not None and final.error is not None and error is None:
        error = final.error
    return TrialResult(
        spec=plan.spec,
        started_at=state.started_at,
        finished_at=_now(),
        error=error,
        agent_outcome=state.agent_outcome,
        verifier=final,
        timings=state.timings,
        phases=[] if loop is None else loop.phases,
        reward_curve=[] if loop is None else loop.reward_curve,
        activity=None if loop is None or loop.activity is None else loop.activity.record(),
        steps=state.steps,
    )


def _record_error(state: _State, exc: BaseException) -> None:
    if isinstance(exc, LhtbError):
        error_class = exc.error_class
        message = str(exc)
    else:
        error_class = ErrorClass.HARNESS_ERROR
        message = f"{type(exc).__name__}: {exc}"
        write_text_atomic(state.plan.trial_dir / "exception.txt", traceback.format_exc())
    state.error = ErrorInfo(error_class=error_class, message=message, retryable=ERROR_POLICY[error_class].retry)


async def _run_phases(state: _State, on_phase: PhaseCallback) -> TrialResult:
    plan = state.plan
    task = plan.task
    try:
        on_phase(plan.spec.trial_name, "build")
        state.image, _built = await _timed(state, "build", state.provider.prepare_image(task))
        if task.verifier_image_dir is not None or task.verifier_docker_image is not None:  # Harbor's bundled verifier
            state.verifier_image, _ = await _timed(state, "build", state.provider.prepare_verifier_image(task))
        if task.config.environment.workdir_from_image:  # Harbor's rule: the image's WORKDIR
            workdir = await state.provider.image_workdir(state.image)
            state.plan = plan = replace(plan, task=task.with_workdir(workdir))
            task = plan.task
        on_phase(plan.spec.trial_name, "start")
        state.agent = create_agent(plan.spec.agent)
        # Host-side preparation (a Python agent's runtime installed on first use, a model bridge) is agent setup.
        mounts = await _timed(state, "agent_setup", _container_needs(state))
        await _timed(state, "start", _start(state, mounts))
        if task.steps:
            return _result(state, await _run_steps(state, on_phase))
        on_phase(plan.spec.trial_name, "agent")
        try:
            await _run_agent(state, task, plan.agent_timeout_sec, plan.trial_dir / "agent")
        except LhtbError as exc:
            _record_error(state, exc)
            if not ERROR_POLICY[exc.error_class].grade:
                return _result(state)
        on_phase(plan.spec.trial_name, "verify")
        return _result(state, await _final_verification(state))
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        _record_error(state, exc)
        return _result(state)


async def _run_steps(state: _State, on_phase: PhaseCallback) -> VerifierOutcome | None:
    """A multi-step task: each step staged, run and verified in turn in the one agent container, the agent
    released between steps and held after the last one run; the trial's verdict aggregates the steps'.

    None when an error that is not graded stopped it (the trial is then excluded, as a single-step one is)."""
    plan, task = state.plan, state.plan.task
    state.steps = [StepRecord(name=step.name) for step in task.steps]
    staged: LhtbError | None = None  # what failed staging this step (done before the agent was released)
    for index, step in enumerate(task.steps):
        view, record = task.for_step(step.name), state.steps[index]
        step_dir = plan.trial_dir / "steps" / step.name
        _grader(state, view, step_dir, last=index == len(task.steps) - 1)
        on_phase(plan.spec.trial_name, "agent")
        budget = plan.agent_timeout_sec * view.config.agent.timeout_sec / task.config.agent.timeout_sec
        used_before = state.clock.used if state.clock is not None else 0.0
        try:
            if index == 0:
                await _stage_step(state, view, first=True)
            elif staged is not None:
                raise staged
            record.agent_outcome = await _run_agent(state, view, budget, step_dir / "agent")
        except LhtbError as exc:
            _record_error(state, exc)
            record.agent_outcome = AgentOutcome(stop_reason="error", message=str(exc))
            if not ERROR_POLICY[exc.error_class].grade:
                _skip_after(state, index, f"step {step.name!r} stopped by {exc.error_class.value}")
                return None
        finally:
            record.agent_sec = round((state.clock.used if state.clock is not None else 0.0) - used_before, 3)
        on_phase(plan.spec.trial_name, "verify")
        record.verifier = await _verify(state)
        stop = _stop_reason(state, step.config, record.verifier)
        if stop is not None or index == len(task.steps) - 1:
            await _hold(state)
            if stop is not None:
                _skip_after(state, index, stop)
            break
        staged = await _release_into(state, task.for_step(task.steps[index + 1].name))
    return aggregate(state.steps, task.config.multi_step_reward_strategy)


async def _release_into(state: _State, task: Task) -> LhtbError | None:
    """Release the agent after a step's verification, the next step (``task``) staged first while every agent
    process is still stopped, so staging time (a setup.sh) is nobody's free time; what failed staging."""
    env, grader = state.agent_env, state.grader
    assert env is not None and grader is not None
    source = task.step_workdir_dir
    if source is None or not source.is_dir():
        await grader.release(env)
        return None
    stopped: list[str] = []
    try:
        if not grader.shared:  # frozen: thawed for the copy and setup.sh, its processes stopped at once instead
            await grader.release(env)
            try:
                stopped = await stop_all_processes(env)
            except AgentProcessesUnstoppable as exc:
                return AgentError(f"staging step {task.step!r}: {exc}")
        await _stage_step(state, task, first=False)
    except LhtbError as exc:
        return exc
    finally:
        if grader.shared:
            await grader.release(env)  # continues what its verification stopped
        else:
            await continue_processes(env, stopped)
    return None


def _stop_reason(state: _State, step: Step, outcome: VerifierOutcome) -> str | None:
    if state.error is not None:
        return f"step {step.name!r} ended with {state.error.error_class.value}"
    if outcome.error is not None:
        return f"the verification of step {step.name!r} failed ({outcome.error.error_class.value})"
    return below_min_reward(step, outcome)


def _skip_after(state: _State, index: int, reason: str) -> None:
    for record in state.steps[index + 1 :]:
        record.skipped = reason


async def _stage_step(state: _State, task: Task, *, first: bool) -> None:
    """Harbor's step staging: ``steps/NAME/workdir/`` copied into the workdir, then its ``setup.sh`` run there
    as the step's agent user. Agent time does not run. A failing setup is the task's error on the first step;
    on a later one the agent's earlier work may have caused it, so it is the agent's (graded)."""
    source = task.step_workdir_dir
    if source is None or not source.is_dir():
        return
    assert state.agent_env is not None
    workdir = task.config.environment.workdir
    await state.agent_env.upload_tar(await asyncio.to_thread(tar_directory, source, "."), workdir)
    if not (source / "setup.sh").is_file():
        return
    result = await state.agent_env.exec(
        f"bash {shlex.quote(workdir.rstrip('/') + '/setup.sh')}",
        user=task.config.agent.user,
        workdir=workdir,
        timeout_sec=STEP_SETUP_TIMEOUT_SEC,
    )
    if result.exit_code != 0 or result.timed_out:
        shown = "timed out" if result.timed_out else f"exited {result.exit_code}"
        message = f"{source / 'setup.sh'} of step {task.step!r} {shown}: {result.stderr.strip()[-300:]}"
        raise TaskInvalidError(message) if first else AgentError(message + " (after the agent's earlier steps)")


def _start_removals(state: _State) -> list[asyncio.Future[None]]:
    """Start removing everything the trial holds: its sandboxes (the warm verifiers' too), the model bridge and
    the agent's host-side helpers."""
    state.remove_later(state.agent_env)
    for grader in state.graders:
        state.removals.append(asyncio.ensure_future(grader.close()))
    if state.bridge is not None:
        state.removals.append(asyncio.ensure_future(state.bridge.close()))
    close = getattr(state.agent, "close", None)  # an agent's host-side helpers (an installed CLI's model proxy)
    if close is not None:
        state.removals.append(asyncio.ensure_future(close()))
    return state.removals


async def _all_removed(removals: list[asyncio.Future[None]]) -> None:
    """Wait for every removal; the first failure is raised (the background records it) after all finished."""
    failures = [o for o in await asyncio.gather(*removals, return_exceptions=True) if isinstance(o, BaseException)]
    if failures:
        raise failures[0]


async def _teardown(state: _State, result: TrialResult) -> None:
    """Finish removing the trial's containers, then record how long that took in the result file."""
    started = time.monotonic()
    outcomes = await asyncio.gather(*_start_removals(state), return_exceptions=True)
    result.timings.teardown = round(time.monotonic() - started, 3)
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    if failures:
        write_text_atomic(state.plan.trial_dir / "teardown-error.txt", "\n".join(map(repr, failures)) + "\n")
    write_trial_result(state.plan, result)


async def run_trial(
    plan: TrialPlan, background: Background, on_phase: PhaseCallback, provider: EnvironmentProvider
) -> TrialResult:
    """Run one trial and write its result. Never raises except on cancellation; containers are always removed.

    The result file is written as soon as the reward is known; container removal finishes in ``background``
    and then rewrites the file with the teardown time.
    """
    state = _State(plan=plan, provider=provider, started_at=_now())
    plan.trial_dir.mkdir(parents=True, exist_ok=True)
    state.live = live = LiveWriter(plan.trial_dir, plan.spec.trial_name, plan.agent_timeout_sec, state.started_at)

    def phase_seen(trial: str, phase: str) -> None:
        live.write(phase)
        on_phase(trial, phase)

    ticker = asyncio.ensure_future(live.tick())
    try:
        result = await _run_phases(state, phase_seen)
    except BaseException:
        # Cancelled (Ctrl-C, SIGTERM): removal must still happen; the job drains the background.
        background.spawn(_all_removed(_start_removals(state)))
        raise
    finally:
        ticker.cancel()
    live.write("done")
    write_trial_result(plan, result)
    background.spawn(_teardown(state, result))
    return result


def write_trial_result(plan: TrialPlan, result: TrialResult) -> None:
    write_model_atomic(plan.trial_dir / "result.json", result)
