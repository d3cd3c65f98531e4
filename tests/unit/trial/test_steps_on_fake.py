"""Multi-step tasks (Harbor's ``[[steps]]``) on the fake environment: each step staged, run and verified in turn
in one agent sandbox, gated by ``min_reward``, aggregated as Harbor aggregates; setup failures classified by who
could have caused them. The same task in real containers and in stock Harbor: tests/integration/test_multi_step.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from taskfactory import write_multi_step_task

from lhtb.agents.base import AgentContext
from lhtb.environments.fake import FakeProvider
from lhtb.errors import ErrorClass, TaskInvalidError
from lhtb.results.models import AgentOutcome, AgentSpec, ErrorInfo, StepRecord, Subtask, TrialResult, VerifierOutcome
from lhtb.tasks.loader import load_task
from lhtb.trial import lifecycle as trial_runner
from lhtb.trial.background import Background
from lhtb.trial.lifecycle import TrialPlan, run_trial
from lhtb.trial.steps import aggregate, below_min_reward


class StepAgent:
    """Runs the command given for each step (by the step's name) and records what each run was told."""

    name = "steps"

    def __init__(self, commands: dict[str, str]) -> None:
        self.commands = commands
        self.seen: list[tuple[str | None, str, float]] = []

    async def setup(self, context: AgentContext) -> None:
        return None

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        step = context.task.step
        self.seen.append((step, instruction, context.timeout_sec))
        result = await context.environment.exec(self.commands.get(step or "", "true"), timeout_sec=30)
        return AgentOutcome(stop_reason="completed", exit_code=result.exit_code)


def _plan(task_dir: Path, tmp_path: Path, agent: str, *, timeout: float = 60) -> TrialPlan:
    return TrialPlan.new(
        load_task(task_dir),
        tmp_path / "trials" / agent,
        job_name="job",
        trial_name=f"{task_dir.name}__{agent}__1",
        agent=AgentSpec(name=agent),
        attempt=1,
        agent_timeout_sec=timeout,
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
def use_agent(monkeypatch: pytest.MonkeyPatch) -> Callable[[StepAgent], StepAgent]:
    def install(agent: StepAgent) -> StepAgent:
        monkeypatch.setattr(trial_runner, "create_agent", lambda _spec: agent)
        return agent

    return install


SOLVE = {
    "create": 'echo "one-$(cat seed.txt)" > one.txt',
    "extend": "echo two > two.txt",
    "finish": 'echo "done-$(cat seed.txt)" > final.txt',
}


@pytest.mark.parametrize(("mode", "strategy", "reward"), [("separate", "mean", 2 / 3), ("shared", "final", 1.0)])
def test_the_oracle_runs_every_step_in_one_sandbox(
    tmp_path: Path, provider: FakeProvider, mode: str, strategy: str, reward: float
) -> None:
    """Every step passes; the trial's reward is Harbor's: under ``mean`` the per-key mean of the steps' rewards
    (``extend`` names two rewards and no ``reward``, so ``reward`` averages 1, 0, 1), under ``final`` the last."""
    task = write_multi_step_task(tmp_path / "tasks", "ms", mode=mode, strategy=strategy)
    phases: list[str] = []
    result = _run(_plan(task, tmp_path, "oracle"), provider, phases)
    assert result.error is None and result.reward == pytest.approx(reward)
    assert phases == ["build", "start"] + ["agent", "verify"] * 3
    assert [(s.name, s.verifier and s.verifier.reward, s.skipped) for s in result.steps] == [
        ("create", 1.0, None),
        ("extend", 1.0, None),
        ("finish", 1.0, None),
    ]
    assert [p.step for p in result.phases] == ["create", "extend", "finish"]
    assert [env.spec.role for env in provider.created].count("agent") == 1
    trial = tmp_path / "trials" / "oracle"
    for step in ("create", "extend", "finish"):
        assert (trial / "steps" / step / "verifier" / "final" / "output").is_dir()
    assert provider.alive() == []


def test_a_step_below_its_min_reward_stops_the_rest_and_they_count_zero(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[StepAgent], StepAgent]
) -> None:
    """``extend`` is gated on its ``correctness`` reward; the skipped ``finish`` counts 0 (Harbor would leave it
    out of the mean, and an agent could raise its reward by failing a gate)."""
    task = write_multi_step_task(tmp_path / "tasks", "ms")
    use_agent(StepAgent({"create": SOLVE["create"], "extend": "echo three > two.txt"}))
    result = _run(_plan(task, tmp_path, "steps"), provider)
    assert result.error is None
    extend, finish = result.steps[1], result.steps[2]
    assert extend.verifier is not None and {s.name: s.score for s in extend.verifier.subtasks} == {
        "correctness": 0.0,
        "style": 1.0,
    }
    assert finish.verifier is None and finish.agent_outcome is None
    assert finish.skipped == "step 'extend': correctness 0 is below its min_reward 1"
    # per key over three steps: reward (1 + 0 + 0) / 3, correctness 0, style 1/3
    assert result.reward == pytest.approx(1 / 3)
    assert {s.name: round(s.score, 3) for s in result.subtasks} == {"reward": 0.333, "correctness": 0.0, "style": 0.333}


def test_each_step_gets_its_instruction_its_budget_and_its_staged_files(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[StepAgent], StepAgent]
) -> None:
    """``extend`` sets 40 s of the task's 60: a trial given 30 s (half) gives it 20. The workdir staged for
    ``create`` (seed.txt, and setup.sh's staged.txt) is there before its agent starts."""
    task = write_multi_step_task(tmp_path / "tasks", "ms")
    agent = use_agent(StepAgent({"create": "cat seed.txt staged.txt > seen.txt"}))
    _run(_plan(task, tmp_path, "steps", timeout=30), provider)
    assert [(step, round(budget, 3)) for step, _instruction, budget in agent.seen] == [("create", 30.0)]
    assert agent.seen[0][1].startswith("Write one-SEED")
    agent = use_agent(StepAgent(SOLVE))
    result = _run(_plan(task, tmp_path / "again", "steps", timeout=30), provider)
    assert result.steps[0].verifier is not None, result
    assert [(step, round(budget, 3)) for step, _instruction, budget in agent.seen] == [
        ("create", 30.0),
        ("extend", 20.0),
        ("finish", 30.0),
    ]
    assert result.steps[1].verifier is not None and result.steps[1].verifier.reward == 1.0  # style: staged.txt


def test_a_failing_first_setup_is_the_tasks_error_and_a_later_one_is_graded(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[StepAgent], StepAgent]
) -> None:
    broken = write_multi_step_task(tmp_path / "tasks", "broken")
    (broken / "steps" / "create" / "workdir" / "setup.sh").write_text("exit 3\n")
    result = _run(_plan(broken, tmp_path, "oracle"), provider)
    assert result.error is not None and result.error.error_class is ErrorClass.TASK_INVALID
    assert "setup.sh of step 'create' exited 3" in result.error.message and result.reward is None

    later = write_multi_step_task(tmp_path / "tasks", "later")
    (later / "steps" / "extend" / "workdir").mkdir(parents=True)
    (later / "steps" / "extend" / "workdir" / "setup.sh").write_text("test ! -e /app/sabotage\n")
    use_agent(StepAgent({"create": f"{SOLVE['create']}; touch sabotage"}))
    result = _run(_plan(later, tmp_path, "steps"), provider)
    assert result.error is not None and result.error.error_class is ErrorClass.AGENT_ERROR
    assert "after the agent's earlier steps" in result.error.message
    assert result.steps[1].verifier is not None  # graded on what the agent left, then the rest skipped
    assert result.steps[2].skipped == "step 'extend' ended with agent_error"
    assert result.reward == pytest.approx((1 + 0 + 0) / 3)  # create's 1, extend's 0 (no correctness), finish 0


def _outcome(reward: float, source: str = "lhtb.reward/1", **named: float) -> VerifierOutcome:
    subtasks = [Subtask(name=k, weight=1.0, score=v, kind="continuous") for k, v in named.items()] or [
        Subtask(name="reward", weight=1.0, score=reward, kind="continuous")
    ]
    return VerifierOutcome(reward=reward, subtasks=subtasks, source=source)  # type: ignore[arg-type]


def test_aggregation_follows_harbor_and_counts_unrun_steps() -> None:
    ran = StepRecord(name="a", verifier=_outcome(0.5))
    named = StepRecord(name="b", verifier=_outcome(0.75, "harbor-json", x=1.0, y=0.5))
    unrun = StepRecord(name="c", skipped="an earlier step failed")
    assert aggregate([ran, named], "mean").reward == pytest.approx(0.25)  # reward (0.5 + 0) / 2 names the headline
    assert aggregate([named], "mean").reward == pytest.approx(0.75)  # no reward key: the mean of the keys
    assert aggregate([ran, unrun], "mean").reward == pytest.approx(0.25)
    assert aggregate([ran, unrun], "final").reward == 0.0  # Harbor would take a's 0.5: the last step that ran
    assert aggregate([ran, unrun], None).reward == pytest.approx(0.25)  # unset: mean
    error = ErrorInfo(error_class=ErrorClass.VERIFIER_TIMEOUT, message="slow")
    failed = StepRecord(name="d", verifier=VerifierOutcome(error=error))
    outcome = aggregate([ran, failed, unrun], "mean")
    assert outcome.reward is None and outcome.error == error


def test_min_reward_as_a_number_or_per_key() -> None:
    config = load_task_config('[[steps]]\nname = "s"\nmin_reward = 0.5\n')
    assert below_min_reward(config, _outcome(0.5)) is None
    assert below_min_reward(config, _outcome(0.4)) == "step 's': reward 0.4 is below its min_reward 0.5"
    keyed = load_task_config('[[steps]]\nname = "s"\nmin_reward = { x = 1.0 }\n')
    assert below_min_reward(keyed, _outcome(1.0, "harbor-json", x=1.0)) is None
    assert below_min_reward(keyed, _outcome(1.0)) == "step 's': x missing is below its min_reward 1"


def load_task_config(text: str):  # type: ignore[no-untyped-def]
    import tomllib

    from lhtb.tasks.config import TaskConfig

    config = TaskConfig.model_validate(tomllib.loads(text))
    assert config.steps is not None
    return config.steps[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: (t / "steps" / "extend" / "instruction.md").unlink(), "steps/extend/instruction.md: required file"),
        (lambda t: (t / "tests" / "test.sh").rename(t / "x"), "steps/finish/tests/test.sh: step 'finish' has no test"),
        (lambda t: __import__("shutil").rmtree(t / "steps" / "finish"), "the directory of step 'finish'"),
        (lambda t: (t / "steps" / "finish" / "instruction.md").write_text(" \n"), "the instruction is empty"),
    ],
)
def test_a_step_missing_its_files_is_refused_naming_them(
    tmp_path: Path, change: Callable[[Path], object], message: str
) -> None:
    task = write_multi_step_task(tmp_path, "ms")
    change(task)
    with pytest.raises(TaskInvalidError, match=message):
        load_task(task)


def test_a_step_cannot_change_the_agents_network(tmp_path: Path) -> None:
    task = write_multi_step_task(tmp_path, "ms")
    text = (task / "task.toml").read_text().replace("[steps.agent]\n", '[steps.agent]\nnetwork_mode = "public"\n')
    (task / "task.toml").write_text(text)
    with pytest.raises(TaskInvalidError, match="one network for the whole trial"):
        load_task(task)


def test_the_trial_card_and_page_show_each_step(
    tmp_path: Path, provider: FakeProvider, use_agent: Callable[[StepAgent], StepAgent]
) -> None:
    from rich.console import Console

    from lhtb.report.trial_card import render_trial

    task = write_multi_step_task(tmp_path / "tasks", "ms")
    use_agent(StepAgent({"create": SOLVE["create"]}))
    result = _run(_plan(task, tmp_path, "steps"), provider)
    console = Console(width=200, record=True)
    for renderable in render_trial(TrialResult.model_validate_json(result.model_dump_json())):
        console.print(renderable)
    text = console.export_text()
    assert "steps" in text and "create" in text and "1.0000" in text
    assert "not run" in text and "correctness 0 is below its min_reward 1" in text
    from lhtb.viewer.trial_page import render_trial as render_page

    page = render_page(tmp_path / "trials" / "steps", result, None, job_name="job")
    assert 'id="steps"' in page and "correctness 0 is below its min_reward 1" in page and "not run" in page
