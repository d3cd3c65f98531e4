"""The neutral terminal agent: the model sees a tmux terminal and replies with keystrokes, one JSON per turn.

Loop: ask the model → parse (lenient; malformed replies get corrective feedback) → type the keystrokes and
wait for the prompt → show the new output. ``task_complete`` must be given twice in a row. Limits end the
run as completed with a message; context is summarised near the window. Records are written every episode.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

import lhtb
from lhtb.agents.base import AgentContext
from lhtb.agents.terminus import prompts
from lhtb.agents.terminus.config import TerminusConfig
from lhtb.agents.terminus.context import can_compact, compact, estimate_prompt_tokens
from lhtb.agents.terminus.output import OutputTracker
from lhtb.agents.terminus.parsing import Command, Turn, TurnParseError, parse_turn
from lhtb.agents.terminus.records import CastRecorder, metrics_of
from lhtb.agents.terminus.tmux import StepResult, TmuxSession
from lhtb.environments.base import Environment
from lhtb.errors import AgentError
from lhtb.llm.base import Message, Model, ModelReply
from lhtb.llm.errors import LlmContextWindowError
from lhtb.results.models import AgentOutcome, Usage
from lhtb.results.trajectory import AgentInfo, Observation, ObservationResult, ToolCall, Trajectory


class Terminal(Protocol):
    """What the loop needs from a terminal; TmuxSession in containers, a fake in unit tests."""

    async def start(self, workdir: str | None = None) -> StepResult: ...

    async def step(self, commands: list[Command]) -> StepResult: ...


TerminalFactory = Callable[[Environment, int, int], Terminal]


def _tmux(environment: Environment, width: int, height: int) -> Terminal:
    return TmuxSession(environment, width=width, height=height)


TRAJECTORY_FILE = "trajectory.json"
CAST_FILE = "recording.cast"


class TerminusAgent:
    """Resumable: ``resume`` continues the same conversation with a new user message."""

    name = "terminus"

    def __init__(
        self, model: Model, config: TerminusConfig | None = None, terminal_factory: TerminalFactory = _tmux
    ) -> None:
        self.model = model
        self._terminal_factory = terminal_factory
        self.config = config or TerminusConfig()
        self.messages: list[Message] = []
        self.usage_so_far = Usage()  # the current run/resume phase; read by the harness after a cancellation
        self.total_usage = Usage()  # the whole conversation; limits apply to this
        self.summaries = 0
        self._session: Terminal | None = None
        self._tracker = OutputTracker(self.config.height, self.config.max_output_chars)
        self._cast = CastRecorder(self.config.width, self.config.height)
        self._trajectory = Trajectory(
            session_id=str(uuid.uuid4()),
            agent=AgentInfo(
                name=self.name,
                version=lhtb.__version__,
                model_name=model.name,
                extra={"config": self.config.__dict__},
            ),
        )
        self._known_tokens = 0  # provider-counted prompt+reply tokens of messages[:_known_count]
        self._known_count = 0
        self._awaiting_confirmation = False
        self._logs_dir: Path | None = None
        self._report_activity: Callable[[], None] = lambda: None
        self._model_call: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext

    async def setup(self, context: AgentContext) -> None:
        self._logs_dir = context.logs_dir
        self._report_activity = context.report_activity
        self._model_call = context.model_call
        self._session = self._terminal_factory(context.environment, self.config.width, self.config.height)
        first = await self._session.start(context.task.config.environment.workdir)
        self._cast.output(first.raw_output)
        self._tracker.new_output(first.screen_history)

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        if self._session is None:
            await self.setup(context)
        screen = self._tracker.screen()
        self.messages = [
            {"role": "system", "content": prompts.SYSTEM_PROMPT},
            {"role": "user", "content": prompts.INSTRUCTION.format(instruction=instruction.strip(), screen=screen)},
        ]
        self._trajectory.add("system", prompts.SYSTEM_PROMPT)
        self._trajectory.add("user", self.messages[1]["content"])
        return await self._loop()

    async def resume(self, context: AgentContext, message: str) -> AgentOutcome:
        """A new user turn in the same conversation (continue-until-timeout), with the terminal's news."""
        if not self.messages:
            return await self.run(context, message)
        assert self._session is not None
        step = await self._session.step([])
        self._cast.output(step.raw_output)
        content = prompts.RESUME.format(message=message, screen=self._tracker.new_output(step.screen_history))
        self._append_user(content)
        self._trajectory.add("user", content)
        self._awaiting_confirmation = False
        return await self._loop()

    async def _loop(self) -> AgentOutcome:
        self.usage_so_far = Usage()
        try:
            while True:
                limit = self._limit_reached()
                if limit:
                    return AgentOutcome(stop_reason="completed", usage=self.usage_so_far, message=limit)
                self._cast.marker(f"episode {self.total_usage.episodes + 1}")
                self._report_activity()
                with self._model_call():  # in flight it is work, however long the model takes to answer
                    reply = await self._ask()
                self._report_activity()
                done = await self._act(reply)
                self._write_records()
                if done:
                    message = "the model confirmed task_complete twice"
                    return AgentOutcome(stop_reason="completed", exit_code=0, usage=self.usage_so_far, message=message)
        finally:
            # Also on cancellation by the harness's timeout: the files must hold every finished episode.
            self._write_records()

    def _limit_reached(self) -> str:
        usage, config = self.total_usage, self.config
        if usage.episodes >= config.max_episodes:
            return f"limit reached: max_episodes={config.max_episodes}"
        if config.max_tokens is not None and usage.input_tokens + usage.output_tokens >= config.max_tokens:
            return f"limit reached: max_tokens={config.max_tokens}"
        if config.max_cost_usd is not None and usage.cost_usd is not None and usage.cost_usd >= config.max_cost_usd:
            return f"limit reached: max_cost_usd={config.max_cost_usd}"
        return ""

    def _count(self, reply: ModelReply, episodes: int) -> None:
        call = reply.usage.as_usage(episodes=episodes).labelled("measured")  # counted by lhtb's model layer
        self.usage_so_far = self.usage_so_far.plus(call)
        self.total_usage = self.total_usage.plus(call)
        self._trajectory.count(reply.usage)

    async def _ask(self) -> ModelReply:
        """One model call; summarises first when near the window, and once more if the provider says so."""
        await self._maybe_compact(force=False)
        try:
            reply = await self.model.complete(self.messages, max_output_tokens=self.config.max_reply_tokens)
        except LlmContextWindowError:
            if not await self._maybe_compact(force=True):
                raise AgentError(f"terminus: the conversation does not fit {self.model.name}'s window") from None
            reply = await self.model.complete(self.messages, max_output_tokens=self.config.max_reply_tokens)
        self._count(reply, episodes=1)
        self.messages.append({"role": "assistant", "content": reply.content})
        if reply.usage.input_tokens > 0:
            self._known_tokens = reply.usage.input_tokens + reply.usage.output_tokens
            self._known_count = len(self.messages)
        return reply

    async def _maybe_compact(self, *, force: bool) -> bool:
        window = self.model.context_window - self.config.max_reply_tokens
        estimate = estimate_prompt_tokens(self.messages, self._known_tokens, self._known_count)
        if not force and estimate <= self.config.summarize_at * window:
            return False
        if not can_compact(self.messages, self.config.keep_recent_turns):
            return False
        result = await compact(self.model, self.messages, self.config.keep_recent_turns)
        if result.usage is not None:
            self._count(ModelReply(content=result.summary, usage=result.usage), episodes=0)
        self.messages = result.messages
        self._known_tokens = self._known_count = 0
        self.summaries += 1
        extra = {"event": "context_summarised", "removed_messages": result.removed, "estimated_tokens": estimate}
        self._trajectory.add("system", result.summary, extra=extra)
        return True

    async def _act(self, reply: ModelReply) -> bool:
        """Execute the reply's commands and queue the next observation; True when completion is confirmed."""
        try:
            turn = parse_turn(reply.content)
        except TurnParseError as exc:
            self._awaiting_confirmation = False
            feedback = prompts.PARSE_ERROR.format(error=exc)
            self._record_agent_step(reply, None, feedback)
            self._append_user(feedback)
            return False
        observation = await self._execute(turn)
        if turn.task_complete and self._awaiting_confirmation:
            self._record_agent_step(reply, turn, observation)
            return True
        self._awaiting_confirmation = turn.task_complete
        if turn.task_complete:
            observation = prompts.CONFIRM_COMPLETE.format(observation=observation)
        elif turn.warnings:
            observation = prompts.WARNINGS.format(warnings=" ".join(turn.warnings)) + observation
        self._record_agent_step(reply, turn, observation)
        self._append_user(observation)
        return False

    async def _execute(self, turn: Turn) -> str:
        assert self._session is not None, "setup() starts the terminal"
        step = await self._session.step(turn.commands)
        self._cast.output(step.raw_output)
        observation = self._tracker.new_output(step.screen_history)
        if turn.commands and step.finished and not step.finished[-1]:
            observation += prompts.STILL_RUNNING.format(duration=turn.commands[-1].duration_sec)
        return observation

    def _append_user(self, content: str) -> None:
        self.messages.append({"role": "user", "content": content})

    def _record_agent_step(self, reply: ModelReply, turn: Turn | None, observation: str) -> None:
        episode = self.total_usage.episodes
        calls = [
            ToolCall(
                tool_call_id=f"call_{episode}_{i}",
                function_name="send_keystrokes",
                arguments={"keystrokes": c.keystrokes, "duration": c.duration_sec},
            )
            for i, c in enumerate(turn.commands if turn else [])
        ]
        results = [ObservationResult(source_call_id=calls[-1].tool_call_id if calls else None, content=observation)]
        extra: dict[str, object] = {"episode": episode, "parse_ok": turn is not None}
        if turn is not None:
            extra |= {"task_complete": turn.task_complete, "warnings": turn.warnings}
        self._trajectory.add(
            "agent",
            reply.content,
            model_name=self.model.name,
            reasoning_content=(f"{turn.analysis}\n{turn.plan}".strip() or None) if turn else None,
            tool_calls=calls or None,
            observation=Observation(results=results),
            metrics=metrics_of(reply.usage),
            extra=extra,
        )

    def _write_records(self) -> None:
        if self._logs_dir is None:
            return
        self._trajectory.final_metrics.extra = {"episodes": self.total_usage.episodes, "summaries": self.summaries}
        self._trajectory.write(self._logs_dir / TRAJECTORY_FILE)
        self._cast.write(self._logs_dir / CAST_FILE)
