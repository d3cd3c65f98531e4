"""``lhtb tasks list --json``: one entry per task directory, for scripts and CI (the schema is lhtb.task-list/1)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lhtb.tasks.loader import TaskLoad


class ListedTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str
    name: str  # the [task] name, or the directory's name for an invalid task
    valid: bool
    errors: list[str]  # one message naming the file and the field; empty when valid
    notes: list[str]  # accepted but worth a look (keys read but not acted on, a byte-order mark removed)
    category: str | None = None
    difficulty: str | None = None
    agent_timeout_sec: float | None = None
    verifier_timeout_sec: float | None = None


class TaskList(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["lhtb.task-list/1"] = Field(default="lhtb.task-list/1", alias="schema")
    tasks: list[ListedTask]

    def to_json(self) -> str:
        return self.model_dump_json(by_alias=True, indent=2) + "\n"


def listed(load: TaskLoad) -> ListedTask:
    if load.task is None:
        return ListedTask(
            path=str(load.path), name=load.name, valid=False, errors=[load.error or "invalid"], notes=list(load.notes)
        )
    config = load.task.config
    return ListedTask(
        path=str(load.path),
        name=load.task.name,
        valid=True,
        errors=[],
        notes=list(load.task.notes),
        category=config.metadata.category,
        difficulty=config.metadata.difficulty,
        agent_timeout_sec=config.agent.timeout_sec,
        verifier_timeout_sec=config.verifier.timeout_sec,
    )
