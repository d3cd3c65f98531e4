"""Where a job's files live (DESIGN §7), in one place."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lhtb.results.models import AgentSpec


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "x"


def trial_name(task_name: str, agent: AgentSpec, attempt: int) -> str:
    return f"{_slug(task_name)}__{_slug(agent.label)}__{attempt}"


@dataclass(frozen=True)
class JobLayout:
    root: Path

    @property
    def config(self) -> Path:
        return self.root / "config.json"

    @property
    def result(self) -> Path:
        return self.root / "result.json"

    @property
    def trials(self) -> Path:
        return self.root / "trials"

    @property
    def retries(self) -> Path:
        return self.root / "retries"

    def trial_dir(self, name: str) -> Path:
        return self.trials / name

    def trial_result(self, name: str) -> Path:
        return self.trials / name / "result.json"
