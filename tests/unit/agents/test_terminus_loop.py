"""The terminal agent's loop with a scripted model and a fake terminal: deterministic and offline."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lhtb.agents.base import AgentContext, ResumableAgent
from lhtb.agents.registry import create_agent
from lhtb.agents.terminus import TerminusAgent, TerminusConfig
from lhtb.agents.terminus.parsing import Command
from lhtb.agents.terminus.tmux import StepResult
from lhtb.errors import ConfigError
from lhtb.llm import LlmContextWindowError, ModelReply, ScriptedModel
from lhtb.llm.base import CallUsage
from lhtb.llm.scripted import replies
from lhtb.results.models import AgentSpec

PROMPT = "root@sandbox:/app#"


class FakeTerminal:
    """A pretend shell: ``echo X`` prints X, ``sleep`` never finishes within its duration."""

    def __init__(self, *_: Any) -> None:
        self.history = PROMPT
        self.sent: list[str] = []

    async def start(self, workdir: str | None = None) -> StepResult:
        return StepResult(self.history, PROMPT, [])

    async def step(self, commands: list[Command]) -> StepResult:
        finished = []
        for command in commands:
            self.sent.append(command.keystrokes)
            typed = command.keystrokes.rstrip("\n")
            output = typed[5:] + "\n" if typed.startswith("echo ") else ""
            if typed.startswith("big "):  # prints N characters: observations of a chosen size
                output = "y" * int(typed[4:]) + "\n"
            running = typed.startswith("sleep")
            self.history += f" {typed}\n{output}" + ("" if running else PROMPT)
            finished.append(not running)
        return StepResult(self.history, "raw", finished)


def turn(*keys: str, complete: bool = False, duration: float = 0.1) -> dict[str, Any]:
    return {
        "analysis": "a",
        "plan": "p",
        "commands": [{"keystrokes": k, "duration": duration} for k in keys],
        "task_complete": complete,
    }


def make_agent(script: list[Any], **config: Any) -> tuple[TerminusAgent, ScriptedModel]:
    model = ScriptedModel(script)
    agent = TerminusAgent(model, TerminusConfig(**config), terminal_factory=FakeTerminal)
    return agent, model


def context(tmp_path: Path) -> AgentContext:
    task = SimpleNamespace(config=SimpleNamespace(environment=SimpleNamespace(workdir="/app")))
    return AgentContext(task=task, environment=None, logs_dir=tmp_path, timeout_sec=60)  # type: ignore[arg-type]


def run(agent: TerminusAgent, tmp_path: Path, instruction: str = "say hi") -> Any:
    async def go() -> Any:
        ctx = context(tmp_path)
        await agent.setup(ctx)
        return await agent.run(ctx, instruction)

    return asyncio.run(go())


def test_task_complete_must_be_confirmed_twice(tmp_path: Path) -> None:
    agent, model = make_agent(replies([turn("echo hi\n"), turn(complete=True), turn(complete=True)]))
    outcome = run(agent, tmp_path)
    assert outcome.stop_reason == "completed" and "twice" in outcome.message
    assert outcome.usage.episodes == 3 and outcome.usage.input_tokens > 0
    assert "Are you sure" in model.calls[2][-1]["content"]
    assert "hi" in model.calls[1][-1]["content"]  # the echo's output reached the model


def test_unconfirmed_completion_resets_when_work_continues(tmp_path: Path) -> None:
    script = replies([turn(complete=True), turn("echo more\n"), turn(complete=True), turn(complete=True)])
    agent, _model = make_agent(script)
    assert run(agent, tmp_path).usage.episodes == 4


def test_malformed_reply_gets_corrective_feedback(tmp_path: Path) -> None:
    agent, model = make_agent(["I think we should run ls", *replies([turn(complete=True), turn(complete=True)])])
    outcome = run(agent, tmp_path)
    assert outcome.usage.episodes == 3
    feedback = model.calls[1][-1]["content"]
    assert "could not be used" in feedback and "Nothing was executed" in feedback
    steps = json.loads((tmp_path / "trajectory.json").read_text())["steps"]
    assert steps[2]["extra"]["parse_ok"] is False


def test_still_running_command_is_reported(tmp_path: Path) -> None:
    agent, model = make_agent(
        replies([turn("sleep 100\n", duration=1.0), turn("C-c"), turn(complete=True), turn(complete=True)])
    )
    run(agent, tmp_path)
    assert "still running when its 1.0 s wait ended" in model.calls[1][-1]["content"]


@pytest.mark.parametrize(
    ("config", "expected"),
    [({"max_episodes": 2}, "max_episodes=2"), ({"max_tokens": 50}, "max_tokens=50")],
)
def test_limits_stop_the_run_as_completed(tmp_path: Path, config: dict[str, Any], expected: str) -> None:
    agent, _ = make_agent(replies([turn("echo x\n")] * 10), **config)
    outcome = run(agent, tmp_path)
    assert outcome.stop_reason == "completed" and expected in outcome.message


def test_cost_limit(tmp_path: Path) -> None:
    script = [ModelReply(json.dumps(turn("echo x\n")), CallUsage(1000, 0, 100, 0.02))] * 10
    agent, _ = make_agent(script, max_cost_usd=0.05)
    outcome = run(agent, tmp_path)
    assert "max_cost_usd" in outcome.message and outcome.usage.episodes == 3
    assert outcome.usage.cost_usd == pytest.approx(0.06)


def test_context_is_summarised_near_the_window(tmp_path: Path) -> None:
    # window 2400 - 100 reply tokens, summarise at 80 % = 1840 tokens; each observation is ~540 tokens, so
    # the prompt before the 4th call (~1900 tokens) triggers the summary.
    script = [*replies([turn("big 2000\n")] * 3), "SUMMARY: printed y three times", *replies([turn(complete=True)] * 2)]
    agent, model = make_agent(script, max_reply_tokens=100, keep_recent_turns=1, max_output_chars=100_000)
    model.context_window = 2_400
    outcome = run(agent, tmp_path)
    assert agent.summaries == 1 and outcome.stop_reason == "completed"
    assert len(model.calls[2]) == 6  # no summary yet: system, instruction, 2 x (reply, observation)
    summary_call = model.calls[3]
    assert "Summarise the work so far" in summary_call[-1]["content"]
    after = model.calls[4]
    assert after[0]["role"] == "system" and "say hi" in after[1]["content"]
    assert "SUMMARY: printed y three times" in after[1]["content"]
    assert len(after) == 4  # system, instruction + summary, the last reply, its observation
    assert outcome.usage.episodes == 5  # the summary call's tokens count, but it is not an episode
    trajectory = json.loads((tmp_path / "trajectory.json").read_text())
    assert any((s.get("extra") or {}).get("event") == "context_summarised" for s in trajectory["steps"])
    assert trajectory["final_metrics"]["extra"]["summaries"] == 1


def test_provider_context_error_triggers_summary_and_retry(tmp_path: Path) -> None:
    script = [*replies([turn("echo a\n"), turn("echo b\n")]), LlmContextWindowError("too long"), "summary"]
    script += replies([turn(complete=True)] * 2)
    agent, _ = make_agent(script, keep_recent_turns=1)
    assert run(agent, tmp_path).stop_reason == "completed" and agent.summaries == 1


def test_records_are_written_and_usage_survives_cancellation(tmp_path: Path) -> None:
    agent, model = make_agent(replies([turn("echo one\n")] * 2))

    async def go() -> None:
        ctx = context(tmp_path)
        await agent.setup(ctx)
        original = model.complete

        async def hang_second(messages: Any, **kw: Any) -> ModelReply:
            if len(model.calls) >= 1:
                await asyncio.sleep(10)
            return await original(messages, **kw)

        model.complete = hang_second  # type: ignore[method-assign]
        await asyncio.wait_for(agent.run(ctx, "task"), 0.5)

    with pytest.raises(TimeoutError):
        asyncio.run(go())
    assert agent.usage_so_far.episodes == 1 and agent.usage_so_far.input_tokens > 0
    trajectory = json.loads((tmp_path / "trajectory.json").read_text())
    assert trajectory["schema_version"].startswith("ATIF")
    assert [s["source"] for s in trajectory["steps"]] == ["system", "user", "agent"]
    assert trajectory["steps"][2]["tool_calls"][0]["arguments"]["keystrokes"] == "echo one\n"
    cast = (tmp_path / "recording.cast").read_text().splitlines()
    assert json.loads(cast[0])["version"] == 2
    assert [json.loads(line)[1] for line in cast[1:]] == ["o", "m", "o", "m"]


def test_resume_continues_the_same_conversation(tmp_path: Path) -> None:
    agent, model = make_agent(replies([turn(complete=True)] * 2 + [turn("echo again\n")] + [turn(complete=True)] * 2))

    async def go() -> Any:
        ctx = context(tmp_path)
        await agent.setup(ctx)
        first = await agent.run(ctx, "task")
        second = await agent.resume(ctx, "The verifier says the task is not solved yet.")
        return first, second

    first, second = asyncio.run(go())
    assert isinstance(agent, ResumableAgent)
    assert first.usage.episodes == 2 and second.usage.episodes == 3 and agent.total_usage.episodes == 5
    resumed = model.calls[2]
    assert resumed[1]["content"].startswith("Task:\ntask")
    assert resumed[-1]["content"].startswith("The verifier says")


def test_factory_reads_spec(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps([turn(complete=True)]))
    spec = AgentSpec(name="terminus", model="scripted", kwargs={"script": str(script), "max_episodes": "7"})
    agent = create_agent(spec)
    assert isinstance(agent, TerminusAgent) and agent.config.max_episodes == 7
    with pytest.raises(ConfigError, match="unknown agent kwarg"):
        create_agent(AgentSpec(name="terminus", model="scripted", kwargs={"script": str(script), "max_epsiodes": "1"}))
    with pytest.raises(ConfigError, match="needs a model"):
        create_agent(AgentSpec(name="terminus"))


class SilentModel:
    """A model whose answer never comes within the agent's time (a slow local model's third call)."""

    name = "openai/slow"
    context_window = 32_000

    def __init__(self, answers: int) -> None:
        self.answers = answers  # quick answers before the slow one

    async def complete(self, messages: Any, *, max_output_tokens: int | None = None) -> ModelReply:
        if self.answers > 0:
            self.answers -= 1
            return ModelReply(content=json.dumps(turn("echo hi")), usage=CallUsage(input_tokens=10, output_tokens=5))
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")


def test_a_slow_model_call_reads_as_work_not_as_a_stall(tmp_path: Path) -> None:
    """Found on a real 1.5B-model trial: a call longer than the stall window was classified timeout_stalled."""
    from lhtb.metrics.rows import idle_at_end
    from lhtb.trial.activity import ActivityMonitor, stall_window_sec
    from lhtb.trial.clock import AgentClock

    class NoCpu:
        async def cpu_usage_ns(self) -> int:
            return 0

    timeout = 4.0  # the stall window is then 0.4 s; the model is silent for the last ~3.9 s
    clock = AgentClock(timeout)
    monitor = ActivityMonitor(NoCpu(), clock, interval_sec=0.2)  # type: ignore[arg-type]
    agent = TerminusAgent(SilentModel(answers=1), TerminusConfig(), terminal_factory=FakeTerminal)  # type: ignore[arg-type]
    task = SimpleNamespace(config=SimpleNamespace(environment=SimpleNamespace(workdir="/app")))
    ctx = AgentContext(task, None, tmp_path, timeout, monitor.report, monitor.waiting)  # type: ignore[arg-type]

    async def go() -> None:
        clock.start()
        watcher = asyncio.create_task(monitor.watch())
        await agent.setup(ctx)
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(agent.run(ctx, "say hi"), timeout)
        watcher.cancel()
        clock.stop()

    asyncio.run(go())
    record = monitor.record()
    idle = idle_at_end(clock.used, record.last_active_sec, record.samples, record.agent_steps)
    assert idle is not None and idle < stall_window_sec(timeout), (clock.used, record)
