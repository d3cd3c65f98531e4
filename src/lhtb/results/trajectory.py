"""The ATIF trajectory (Agent Trajectory Interchange Format, v1.4) every agent's ``agent/trajectory.json`` holds.

Terminus writes it as it works; installed CLIs' own session logs are converted to it after each run
(``lhtb.agents.installed.sessions``), so the viewer and reports read one format whatever the agent.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from lhtb.fs import write_text_atomic
from lhtb.llm.base import CallUsage
from lhtb.results.models import _Strict

ATIF_VERSION = "ATIF-v1.4"


class ToolCall(_Strict):
    tool_call_id: str
    function_name: str
    arguments: dict[str, Any]


class ObservationResult(_Strict):
    source_call_id: str | None = None
    content: str


class Observation(_Strict):
    results: list[ObservationResult]


class StepMetrics(_Strict):
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    cost_usd: float | None = None  # unknown (written out only when known)


class Step(_Strict):
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


class AgentInfo(_Strict):
    name: str
    version: str
    model_name: str
    extra: dict[str, Any] = Field(default_factory=dict)


class FinalMetrics(_Strict):
    total_prompt_tokens: int = 0
    total_completion_tokens: int = 0
    total_cached_tokens: int = 0
    total_cost_usd: float | None = 0.0
    total_steps: int = 0
    extra: dict[str, Any] = Field(default_factory=dict)


class Trajectory(_Strict):
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
