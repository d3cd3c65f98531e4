"""The agent's files under the trial's ``agent/``: an ATIF trajectory (models in ``lhtb.results.trajectory``)
and an asciinema v2 recording.

Both are rewritten atomically after every episode, so a timeout or kill leaves a complete file up to the last
finished episode.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from lhtb.fs import write_text_atomic
from lhtb.llm.base import CallUsage
from lhtb.results.trajectory import StepMetrics


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
