"""The agent's files under the trial's ``agent/``: an ATIF trajectory and an asciinema v2 recording.

Both are rewritten atomically after every episode, so a timeout or kill leaves a complete file up to the last
finished episode. (Pydantic models here rather than in results/: only this agent writes them.)
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lhtb.fs import write_text_atomic
from lhtb.llm.base import CallUsage

ATIF_VERSION = "ATIF-v1.4"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolCall(_Model):
    tool_call_id: str
    function_name: str
    arguments: dict[str, Any]


class ObservationResult(_Model):
    source_call_id: str | None = None
    content: str


class Observation(_Model):
    results: list[ObservationResult]


class StepMetrics(_Model):
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    cost_usd: float | None


class Step(_Model):
    step_id: int
    timestamp: str
    source: Literal["system", "user", "agent"]
    message: str
    model_name: str | None = None
    reasoning_content: str | None = None
    tool_calls: list[ToolCall] | None = None
    observation: Observation | None = None
    metrics: StepMetrics | None = None
    extra: dict[str, Any] | None = None


class AgentInfo(_Model):
    name: str
    version: str
    model_name: str
    extra: dict[str, Any] = Field(default_factory=dict)


class FinalMetrics(_Model):
    total_prompt_tokens: int = 0
    total_completion_tokens: int = 0
    total_cached_tokens: int = 0
    total_cost_usd: float | None = 0.0
    total_steps: int = 0
    extra: dict[str, Any] = Field(default_factory=dict)


class Trajectory(_Model):
    schema_version: str = ATIF_VERSION
    session_id: str
    agent: AgentInfo
    steps: list[Step] = Field(default_factory=list)
    notes: str | None = None
    final_metrics: FinalMetrics = Field(default_factory=FinalMetrics)

    def add(self, source: Literal["system", "user", "agent"], message: str, **fields: Any) -> Step:
        step = Step(
            step_id=len(self.steps) + 1, timestamp=datetime.now(UTC).isoformat(), source=source, message=message
        )
        for key, value in fields.items():
            setattr(step, key, value)
        self.steps.append(step)
        return step

    def count(self, usage: CallUsage) -> None:
        final = self.final_metrics
        final.total_prompt_tokens += usage.input_tokens
        final.total_completion_tokens += usage.output_tokens
        final.total_cached_tokens += usage.cached_input_tokens
        if final.total_cost_usd is not None and usage.cost_usd is not None:
            final.total_cost_usd += usage.cost_usd
        else:
            final.total_cost_usd = None
        final.total_steps = len(self.steps)

    def write(self, path: Path) -> None:
        self.final_metrics.total_steps = len(self.steps)
        write_text_atomic(path, self.model_dump_json(indent=2, exclude_none=True) + "\n")


def metrics_of(usage: CallUsage) -> StepMetrics:
    return StepMetrics(
        prompt_tokens=usage.input_tokens,
        completion_tokens=usage.output_tokens,
        cached_tokens=usage.cached_input_tokens,
        cost_usd=usage.cost_usd,
    )


class CastRecorder:
    """asciinema v2: a JSON header line, then ``[seconds, "o", text]`` output and ``[seconds, "m", label]`` markers."""

    def __init__(self, width: int, height: int) -> None:
        self._started = time.monotonic()
        self._header = {"version": 2, "width": width, "height": height, "timestamp": int(time.time())}
        self._header["env"] = {"SHELL": "/bin/bash", "TERM": "tmux-256color"}  # type: ignore[assignment]
        self._events: list[str] = []

    def _at(self) -> float:
        return round(time.monotonic() - self._started, 6)

    def output(self, text: str) -> None:
        if text:
            self._events.append(json.dumps([self._at(), "o", text]))

    def marker(self, label: str) -> None:
        self._events.append(json.dumps([self._at(), "m", label]))

    def write(self, path: Path) -> None:
        write_text_atomic(path, "\n".join([json.dumps(self._header), *self._events]) + "\n")
