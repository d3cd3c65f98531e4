"""Installed CLIs' own session logs → one ATIF trajectory (``agent/trajectory.json``), so the viewer and reports
read every agent the same way.

Codex keeps a rollout per conversation (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``: ``response_item``
lines hold the messages, function calls and their outputs; ``event_msg`` ``token_count`` lines the usage of each
model call). Claude Code keeps one per session (``$CLAUDE_CONFIG_DIR/projects/<cwd>/<session>.jsonl``:
``user`` and ``assistant`` lines with Anthropic content blocks, ``tool_use`` and ``tool_result`` among them, and
the usage of each reply). Both files are written by a process in the agent's container, so they are read as
untrusted text: bad lines are skipped, figures are validated (``Usage``), nothing here raises.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from lhtb.results.models import Usage
from lhtb.results.trajectory import (
    AgentInfo,
    Observation,
    ObservationResult,
    Step,
    StepMetrics,
    ToolCall,
    Trajectory,
)

MAX_TEXT = 20_000  # characters of one message or tool output kept in the trajectory (the raw log keeps all)
MAX_STEPS = 20_000  # steps converted; a longer log is cut, and the trajectory's notes say so


def _records(text: str) -> Iterator[dict[str, Any]]:
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            yield value


def _text(value: object) -> str:
    """Message content as text: a string, or the text of a list of content blocks."""
    if isinstance(value, str):
        return value[:MAX_TEXT]
    if isinstance(value, list):
        parts = [str(block.get("text", "")) for block in value if isinstance(block, dict) and "text" in block]
        return "\n".join(parts)[:MAX_TEXT]
    return ""


def _arguments(raw: object) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            return {"raw": raw[:MAX_TEXT]}
        return value if isinstance(value, dict) else {"value": value}
    return {}


def _metrics(input_tokens: object, output_tokens: object, cached: object) -> StepMetrics:
    usage = Usage.reported(input_tokens=input_tokens, output_tokens=output_tokens, cached_input_tokens=cached)
    return StepMetrics(
        prompt_tokens=usage.input_tokens,
        completion_tokens=usage.output_tokens,
        cached_tokens=usage.cached_input_tokens,
        cost_usd=None,
    )


class _Builder:
    """Steps in order; tool outputs attach to the agent step whose call they answer."""

    def __init__(self, trajectory: Trajectory) -> None:
        self.trajectory = trajectory
        self.calls: dict[str, Step] = {}
        self._more: dict[int, list[str]] = {}  # text of a reply continued on later lines, joined once at the end

    @property
    def full(self) -> bool:
        if len(self.trajectory.steps) < MAX_STEPS:
            return False
        self.trajectory.notes = f"converted up to {MAX_STEPS} steps; the session log in agent/sessions/ has more"
        return True

    def extend(self, step: Step, message: str, calls: list[ToolCall]) -> None:
        """More of a reply whose start is ``step`` (one reply may span several lines of a log)."""
        if message:
            self._more.setdefault(id(step), []).append(message)
        if calls:
            step.tool_calls = step.tool_calls if step.tool_calls is not None else []
            step.tool_calls.extend(calls)
            for call in calls:
                self.calls[call.tool_call_id] = step

    def agent(self, message: str, timestamp: str, calls: list[ToolCall]) -> Step:
        step = self._add("agent", message, timestamp)
        if calls:
            step.tool_calls = calls
            for call in calls:
                self.calls[call.tool_call_id] = step
        return step

    def output(self, call_id: str, content: str, timestamp: str) -> None:
        step = self.calls.get(call_id)
        result = ObservationResult(source_call_id=call_id, content=content[:MAX_TEXT])
        if step is None:  # an output whose call is not in the log: kept as its own step
            step = self._add("user", "", timestamp)
        if step.observation is None:
            step.observation = Observation(results=[])
        step.observation.results.append(result)

    def _add(self, source: str, message: str, timestamp: str) -> Step:
        step = self.trajectory.add(source, message)  # type: ignore[arg-type]
        if timestamp:
            step.timestamp = timestamp[:64]
        return step

    def finish(self) -> Trajectory:
        final = self.trajectory.final_metrics
        for step in self.trajectory.steps:
            if id(step) in self._more:
                step.message = "\n".join(part for part in (step.message, *self._more[id(step)]) if part)[:MAX_TEXT]
            if step.metrics is not None:
                final.total_prompt_tokens += step.metrics.prompt_tokens
                final.total_completion_tokens += step.metrics.completion_tokens
                final.total_cached_tokens += step.metrics.cached_tokens
        final.total_cost_usd = None  # the CLI's own prices are self-reported: the trial's usage says more
        final.total_steps = len(self.trajectory.steps)
        return self.trajectory


def codex_trajectory(logs: list[str], model: str | None, version: str) -> Trajectory:
    """Codex rollouts (in order) as ATIF: user and assistant messages, function calls with their outputs;
    each model call's ``last_token_usage`` becomes the metrics of the agent step it produced."""
    records = [record for text in logs for record in _records(text)]
    meta = next((r.get("payload") for r in records if r.get("type") == "session_meta"), None)
    session = meta.get("id") if isinstance(meta, dict) else None
    built = _Builder(Trajectory(session_id=str(session or "codex"), agent=_agent("codex", version, model)))
    latest: Step | None = None  # the latest agent step: the next token_count describes the call that made it
    for record in records:
        payload = record.get("payload")
        if built.full:
            break
        if not isinstance(payload, dict):
            continue
        kind, at = (record.get("type"), payload.get("type")), str(record.get("timestamp") or "")
        if kind == ("response_item", "message") and payload.get("role") == "assistant":
            latest = built.agent(_text(payload.get("content")), at, [])
        elif kind == ("response_item", "message") and payload.get("role") == "user":
            built._add("user", _text(payload.get("content")), at)
        elif kind == ("response_item", "function_call"):
            call_id = str(payload.get("call_id") or payload.get("id") or "")
            name, arguments = str(payload.get("name") or ""), _arguments(payload.get("arguments"))
            latest = built.agent("", at, [ToolCall(tool_call_id=call_id, function_name=name, arguments=arguments)])
        elif kind == ("response_item", "function_call_output"):
            output = payload.get("output")
            text = output[:MAX_TEXT] if isinstance(output, str) else _text(output)
            built.output(str(payload.get("call_id") or ""), text, at)
        elif kind == ("event_msg", "token_count") and latest is not None and latest.metrics is None:
            info = payload.get("info")
            last = info.get("last_token_usage") if isinstance(info, dict) else None
            if isinstance(last, dict):
                latest.metrics = _metrics(
                    last.get("input_tokens"), last.get("output_tokens"), last.get("cached_input_tokens")
                )
    return built.finish()


def claude_trajectory(logs: list[str], model: str | None, version: str) -> Trajectory:
    """Claude Code sessions as ATIF: each assistant reply (text and ``tool_use`` blocks; one reply may span several
    lines with one message id) is an agent step with its usage; ``tool_result`` blocks in user lines attach to the
    calls they answer."""
    session = next((str(r["sessionId"]) for text in logs for r in _records(text) if r.get("sessionId")), "claude-code")
    built = _Builder(Trajectory(session_id=session, agent=_agent("claude-code", version, model)))
    reply: tuple[object, Step] | None = None  # the latest reply's message id and its step
    for record in (record for text in logs for record in _records(text)):
        message = record.get("message")
        if built.full:
            break
        if record.get("isSidechain") or not isinstance(message, dict):
            continue
        at, content = str(record.get("timestamp") or ""), message.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if record.get("type") == "assistant":
            calls = [
                ToolCall(
                    tool_call_id=str(b.get("id") or ""),
                    function_name=str(b.get("name") or ""),
                    arguments=_arguments(b.get("input")),
                )
                for b in blocks
                if b.get("type") == "tool_use"
            ]
            if reply is not None and message.get("id") is not None and reply[0] == message.get("id"):
                step = reply[1]  # the same reply, continued on another line
                built.extend(step, _text(content), calls)
            else:
                step = built.agent(_text(content), at, calls)
                reply = (message.get("id"), step)
            usage = message.get("usage")
            if isinstance(usage, dict):
                step.metrics = _claude_metrics(usage)
        elif record.get("type") == "user":
            results = [b for b in blocks if b.get("type") == "tool_result"]
            for block in results:
                built.output(str(block.get("tool_use_id") or ""), _text(block.get("content")), at)
            if not results and (said := _text(content)):
                built._add("user", said, at)
    return built.finish()


def _claude_metrics(usage: dict[str, Any]) -> StepMetrics:
    """Anthropic usage: the prompt is the uncached input plus what was read from and written to the cache."""
    parts = [usage.get(k) or 0 for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
    bad = [p for p in parts if isinstance(p, bool) or not isinstance(p, int)]
    prompt = bad[0] if bad else sum(parts)
    return _metrics(prompt, usage.get("output_tokens"), usage.get("cache_read_input_tokens") or 0)


def _agent(name: str, version: str, model: str | None) -> AgentInfo:
    return AgentInfo(name=name, version=version, model_name=model or "", extra={"converted_from": "session log"})
