"""The trial lifecycle on the fake environment: phases, verification, continue-until-timeout, checkpoints,
timeouts, errors and cancellation, each in about a second and without Docker."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from taskfactory import write_task

from lhtb.agents.base import AgentContext
from lhtb.environments.base import ContainerSpec, FreezeError
from lhtb.environments.fake import FakeEnvironment, FakeProvider
from lhtb.errors import EnvironmentBuildError, ErrorClass
from lhtb.results.models import AgentOutcome, AgentSpec, LoopSettings, TrialResult
from lhtb.tasks.loader import load_task
from lhtb.trial import lifecycle as trial_runner
from lhtb.trial.background import Background
from lhtb.trial.lifecycle import TrialPlan, run_trial
from lhtb.verifier import grader


class ScriptAgent:
    """Runs shell commands in the agent's sandbox, one per phase (the last one again on later phases)."""

    name = "script"

    def __init__(self, *commands: str) -> None:
        self.commands = list(commands)
        self.runs = 0

    async def setup(self, context: AgentContext) -> None:
        return None

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        command = self.commands[min(self.runs, len(self.commands) - 1)]
        self.runs += 1
        result = await context.environment.exec(command, timeout_sec=context.timeout_sec)
        return AgentOutcome(stop_reason="completed", exit_code=result.exit_code)


def _plan(task_dir: Path, tmp_path: Path, agent: str, *, timeout: float = 20, **settings: object) -> TrialPlan:
    return TrialPlan.new(
        load_task(task_dir),
        tmp_path / "trials" / agent,
        job_name="job",
        trial_name=f"{task_dir.name}__{agent}__1",
        agent=AgentSpec(name=agent),
        attempt=1,
        agent_timeout_sec=timeout,
        settings=LoopSettings(**settings),  # type: ignore[arg-type]
        verify_seed=7,
    )


def _run(plan: TrialPlan, provider: FakeProvider, phases: list[str] | None = None) -> TrialResult:
    seen = phases if phases is not None else []

    async def main() -> TrialResult:
        background = Background()
        result = await run_trial(plan, background, lambda _n, phase: seen.append(phase), provider)
        await background.drain()
        return result

    return asyncio.run(main())


@pytest.fixture
def provider(tmp_path: Path) -> FakeProvider:
    return FakeProvider(tmp_path / "sandboxes")


@pytest.fixture
def use_agent(monkeypatch: pytest.MonkeyPatch) -> Callable[[ScriptAgent], ScriptAgent]:
    def install(agent: ScriptAgent) -> ScriptAgent:
        monkeypatch.setattr(trial_runner, "create_agent", lambda _spec: agent)
        return agent

    return install


def test_oracle_trial_runs_every_phase_and_grades_in_a_separate_sandbox(tmp_path: Path, provider: FakeProvider) -> None:
    task = write_task(tmp_path / "tasks", "demo")
    phases: list[str] = []
    result = _run(_plan(task, tmp_path, "oracle"), provider, phases)
    assert result.error is None and result.reward == 1.0
    assert phases == ["build", "start", "agent", "verify"]
    roles = [env.spec.role for env in provider.created]
    assert roles.count("agent") == 1 and roles.count("verifier") >= 1
    assert provider.alive() == []  # every sandbox removed once the background drained
    on_disk = TrialResult.model_validate_json((tmp_path / "trials" / "oracle" / "result.json").read_bytes())
    assert on_disk.reward == 1.0 and on_disk.timings.teardown is not None  # rewritten after teardown
    assert (tmp_path / "trials" / "oracle" / "verifier" / "final" / "output" / "reward.txt").read_text() == "1\n"


def test_nop_trial_is_graded_zero_not_excluded(tmp_path: Path, provider: FakeProvider) -> None:
    result = _run(_plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "nop"), provider)
    assert result.error is None and result.reward == 0.0


def test_verifier_sees_the_trial_seed_and_the_agent_sandbox_never_gets_the_tests(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    test_sh = 'echo "$LHTB_VERIFY_SEED" > /logs/verifier/seed.txt; echo 0.5 > /logs/verifier/reward.txt\n'
    task = write_task(tmp_path / "tasks", "demo", test_sh=test_sh)
    use_agent(ScriptAgent("test -e /tests && echo leaked > /app/leak.txt; ls / > /app/root.txt"))
    result = _run(_plan(task, tmp_path, "script"), provider)
    assert result.reward == 0.5
    assert (tmp_path / "trials" / "script" / "verifier" / "final" / "output" / "seed.txt").read_text() == "7\n"
    verifier = next(env for env in provider.created if env.spec.role == "verifier")
    assert verifier.spec.network == "none"


def test_a_task_silent_on_its_workdir_works_in_the_images(
    tmp_path: Path, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    """Harbor's rule: no workdir in task.toml means the image's WORKDIR, for the agent and for the artifacts."""
    provider = FakeProvider(tmp_path / "sandboxes", image_workdir="/srv")
    test_sh = 'if [ "$(cat /srv/out.txt)" = /srv ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n'
    task = write_task(tmp_path / "tasks", "demo", test_sh=test_sh)
    use_agent(ScriptAgent("pwd > out.txt"))
    result = _run(_plan(task, tmp_path, "script"), provider)
    assert result.error is None and result.reward == 1.0
    agent = next(env for env in provider.created if env.spec.role == "agent")
    assert agent.spec.workdir == "/srv"


def test_a_bundled_verifier_gets_its_own_image(tmp_path: Path, provider: FakeProvider) -> None:
    """Harbor's separate verifier with tests/Dockerfile runs in an image built from tests/, not the task's."""
    task = write_task(tmp_path / "tasks", "demo")
    (task / "tests" / "Dockerfile").write_text("FROM lhtb/python:bookworm\nCOPY . /tests/\n")
    result = _run(_plan(task, tmp_path, "oracle"), provider)
    assert result.reward == 1.0 and provider.images == ["demo", "demo (verifier)"]
    shared = write_task(tmp_path / "tasks", "shared", toml='environment_mode = "shared"\n')
    (shared / "tests" / "Dockerfile").write_text("FROM lhtb/python:bookworm\n")
    assert load_task(shared).verifier_image_dir is None  # shared: the agent's container, as in Harbor


def test_an_image_that_fails_to_build_is_an_infrastructure_error(tmp_path: Path) -> None:
    class Broken(FakeProvider):
        async def prepare_image(self, task: object) -> tuple[str, bool]:
            raise EnvironmentBuildError("the registry is unreachable")

    provider = Broken(tmp_path / "sandboxes")
    result = _run(_plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "oracle"), provider)
    assert result.reward is None and result.error is not None
    assert result.error.error_class == ErrorClass.ENVIRONMENT_BUILD and result.error.retryable
    assert provider.created == []


def test_agent_past_its_time_is_stopped_and_still_graded(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    use_agent(ScriptAgent("echo hello > /app/out.txt; sleep 30"))
    result = _run(_plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "script", timeout=0.5), provider)
    assert result.agent_outcome.stop_reason == "timeout"
    assert result.reward == 1.0  # what the agent left before its time ran out counts
    assert result.timings.agent is not None and result.timings.agent < 5
    assert provider.alive() == []


def test_continue_until_timeout_resumes_with_the_fixed_rejection_until_it_passes(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    agent = use_agent(ScriptAgent("true", "true", "echo hello > /app/out.txt"))
    plan = _plan(
        write_task(tmp_path / "tasks", "demo"), tmp_path, "script", continue_until_timeout=True, feedback_pause_sec=0.2
    )
    result = _run(plan, provider)
    assert agent.runs == 3 and result.reward == 1.0
    assert [phase.mode for phase in result.phases] == ["initial", "restart", "restart"]
    assert [phase.reward for phase in result.phases] == [0.0, 0.0, 1.0]
    assert result.phases[1].resumed_with == result.phases[2].resumed_with  # one fixed sentence, no diagnostics


def test_checkpoints_are_graded_on_the_agent_clock_after_the_end(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    use_agent(ScriptAgent("sleep 0.2; echo hello > /app/out.txt; sleep 0.3"))
    plan = _plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "script", checkpoint_interval_sec=0.1)
    result = _run(plan, provider)
    curve = [(round(point.agent_sec, 1), point.reward) for point in result.reward_curve]
    assert len(curve) >= 3 and curve[0][1] == 0.0 and curve[-1][1] == 1.0
    assert all(a[0] < b[0] for a, b in itertools.pairwise(curve))
    assert result.reward == 1.0 and provider.alive() == []


def test_a_cancelled_trial_removes_every_sandbox(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    use_agent(ScriptAgent("sleep 30"))
    plan = _plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "script")

    async def main() -> None:
        background = Background()
        trial = asyncio.ensure_future(run_trial(plan, background, lambda _n, _p: None, provider))
        while not any(env.spec.role == "agent" and env._running for env in provider.created):
            await asyncio.sleep(0.02)
        trial.cancel()
        with pytest.raises(asyncio.CancelledError):
            await trial
        await background.drain()

    asyncio.run(main())
    assert provider.created and provider.alive() == []
    assert not (plan.trial_dir / "result.json").exists()  # a cancelled trial has no result: resume re-runs it


def test_a_verifier_that_crashes_counts_as_a_verifier_error_not_an_exclusion(
    tmp_path: Path, provider: FakeProvider
) -> None:
    task = write_task(tmp_path / "tasks", "demo", test_sh="exit 3\n")
    result = _run(_plan(task, tmp_path, "oracle"), provider)
    assert result.reward is None and result.error is not None
    assert result.error.error_class == ErrorClass.VERIFIER_ERROR


def test_fake_sandbox_pause_freezes_running_commands(tmp_path: Path) -> None:
    provider = FakeProvider(tmp_path)
    env = provider.create(ContainerSpec(image="host", name="box", job="j", trial="t", role="agent"))

    async def main() -> list[int]:
        await env.start()
        counting = asyncio.ensure_future(env.exec("for i in $(seq 30); do echo $i >> /app/n; sleep 0.01; done"))
        await asyncio.sleep(0.15)
        await env.pause()
        frozen = len((env.root / "app" / "n").read_text().split())
        await asyncio.sleep(0.2)
        still = len((env.root / "app" / "n").read_text().split())
        await env.unpause()
        await counting
        done = len((env.root / "app" / "n").read_text().split())
        await env.stop()
        return [frozen, still, done]

    frozen, still, done = asyncio.run(main())
    assert 0 < frozen == still < 30 and done == 30
    assert provider.alive() == [] and not env.root.exists()


def test_results_on_disk_are_json_with_the_trial_identity(tmp_path: Path, provider: FakeProvider) -> None:
    _run(_plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "oracle"), provider)
    data = json.loads((tmp_path / "trials" / "oracle" / "result.json").read_text())
    assert data["schema"] == "lhtb.trial/2" and "reward" not in data and "usage" not in data  # each held once
    assert data["spec"]["trial_name"] == "demo__oracle__1" and data["spec"]["verify_seed"] == 7
    assert data["verifier"]["reward"] == 1.0


class _Stubborn(FakeProvider):
    """Sandboxes whose freezer gives up ``failures`` times (processes churning), then freezes."""

    def __init__(self, root: Path, failures: int) -> None:
        super().__init__(root)
        self.failures = failures
        self.attempts = 0

    def create(self, spec: ContainerSpec) -> FakeEnvironment:
        env = super().create(spec)
        pause = env.pause

        async def flaky_pause() -> None:
            self.attempts += 1
            if self.attempts <= self.failures:
                raise FreezeError("unable to freeze")
            await pause()

        env.pause = flaky_pause  # type: ignore[method-assign]
        return env


@pytest.fixture
def quick_freeze_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grader, "FREEZE_BACKOFF_SEC", 0.01)


@pytest.mark.usefixtures("quick_freeze_retries")
def test_a_freezer_that_gives_up_is_retried_and_the_trial_graded(tmp_path: Path) -> None:
    provider = _Stubborn(tmp_path / "sandboxes", failures=2)
    result = _run(_plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "oracle"), provider)
    assert provider.attempts == 3 and result.error is None and result.reward == 1.0


@pytest.mark.usefixtures("quick_freeze_retries")
def test_a_sandbox_that_never_freezes_is_an_infrastructure_error(tmp_path: Path) -> None:
    provider = _Stubborn(tmp_path / "sandboxes", failures=99)
    result = _run(_plan(write_task(tmp_path / "tasks", "demo"), tmp_path, "oracle"), provider)
    assert provider.attempts == grader.FREEZE_ATTEMPTS
    assert result.error is not None and result.error.error_class == ErrorClass.HARNESS_ERROR
    assert result.error.retryable and result.reward is None and provider.alive() == []


def test_every_verification_gets_a_fresh_sandbox_and_the_warm_one_is_removed(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[ScriptAgent], ScriptAgent]
) -> None:
    use_agent(ScriptAgent("true", "echo hello > /app/out.txt"))
    plan = _plan(
        write_task(tmp_path / "tasks", "demo"), tmp_path, "script", continue_until_timeout=True, feedback_pause_sec=1.5
    )
    result = _run(plan, provider)
    verifiers = [env for env in provider.created if env.spec.role == "verifier"]
    started = [env for env in verifiers if env.started]
    assert result.reward == 1.0 and len(result.phases) == 2
    assert len({env.root for env in started}) == len(started) >= 3  # two interim + the final, each its own
    assert provider.alive() == []  # the one kept warm for a next verification is removed too
