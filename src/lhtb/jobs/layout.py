"""Where a job's files live (docs/results.md), in one place."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from lhtb.results.models import AgentSpec

MAX_PART_CHARS = 80
# A name kept as it is: the characters of a file name, no "__" (it separates the parts of a trial name), no "_"
# or "-" at an end. Anything else gets a digest, after a "~" that no kept name holds.
_PLAIN = re.compile(r"[A-Za-z0-9.]([A-Za-z0-9.-]|_(?!_))*(?<![_-])")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "x"


def name_part(text: str) -> str:
    """``text`` itself when it is a plain name (so existing jobs resume), else a slug, "~" and a digest of it.

    Distinct texts give distinct parts, and a trial name splits back into its parts in one way only: a kept name
    holds neither "__" nor "~", a digested one exactly one "~", 12 hex digits before its end.
    """
    if len(text) <= MAX_PART_CHARS and _PLAIN.fullmatch(text):
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{_slug(text)[:64]}~{digest}"


def trial_name(task_name: str, agent: AgentSpec, attempt: int) -> str:
    """The trial's directory name, unique per (task name, agent label, attempt) by construction."""
    return f"{name_part(task_name)}__{name_part(agent.label)}__{attempt}"


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
