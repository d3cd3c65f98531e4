"""Load one task directory or a dataset (a directory of task directories) with precise error messages."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from lhtb.errors import TaskInvalidError
from lhtb.tasks.config import TaskConfig

REQUIRED_FILES = ("task.toml", "instruction.md", "environment/Dockerfile", "tests/test.sh")


@dataclass(frozen=True)
class Task:
    path: Path
    config: TaskConfig
    instruction: str

    @property
    def name(self) -> str:
        return self.config.task.name or self.path.name

    @property
    def environment_dir(self) -> Path:
        return self.path / "environment"

    @property
    def tests_dir(self) -> Path:
        return self.path / "tests"

    @property
    def solution_dir(self) -> Path:
        return self.path / "solution"


@dataclass(frozen=True)
class TaskLoad:
    """The outcome of loading one directory: a task, or the error that makes it invalid."""

    path: Path
    task: Task | None
    error: str | None


def _format_validation_error(toml_path: Path, exc: ValidationError) -> str:
    problems = []
    for item in exc.errors():
        field = ".".join(str(part) for part in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown key '{field}'")
        else:
            problems.append(f"'{field}': {item['msg']}")
    return f"{toml_path}: " + "; ".join(problems)


def load_task(path: Path) -> Task:
    path = path.resolve()
    if not path.is_dir():
        raise TaskInvalidError(f"{path}: not a task directory")
    for relative in REQUIRED_FILES:
        if not (path / relative).is_file():
            raise TaskInvalidError(f"{path / relative}: required file is missing")
    toml_path = path / "task.toml"
    try:
        raw = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TaskInvalidError(f"{toml_path}: invalid TOML: {exc}") from exc
    try:
        config = TaskConfig.model_validate(raw)
    except ValidationError as exc:
        raise TaskInvalidError(_format_validation_error(toml_path, exc)) from exc
    instruction = (path / "instruction.md").read_text(encoding="utf-8")
    if not instruction.strip():
        raise TaskInvalidError(f"{path / 'instruction.md'}: the instruction is empty")
    return Task(path=path, config=config, instruction=instruction)


def is_task_dir(path: Path) -> bool:
    return (path / "task.toml").is_file()


def scan_dataset(path: Path) -> list[TaskLoad]:
    """Every task directory under ``path`` (or ``path`` itself), valid or not, sorted by name."""
    path = path.resolve()
    if not path.exists():
        raise TaskInvalidError(f"{path}: no such task or dataset directory")
    candidates = [path] if is_task_dir(path) else sorted(p for p in path.iterdir() if p.is_dir())
    loads = []
    for candidate in candidates:
        if not is_task_dir(candidate) and candidate != path:
            if any(candidate.iterdir()) and (candidate / "instruction.md").exists():
                loads.append(TaskLoad(candidate, None, f"{candidate / 'task.toml'}: required file is missing"))
            continue
        try:
            loads.append(TaskLoad(candidate, load_task(candidate), None))
        except TaskInvalidError as exc:
            loads.append(TaskLoad(candidate, None, str(exc)))
    return loads


def select_tasks(loads: list[TaskLoad], names: list[str] | None) -> list[TaskLoad]:
    if not names:
        return loads
    by_name = {(load.task.name if load.task else load.path.name): load for load in loads}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise TaskInvalidError(f"unknown task name(s): {', '.join(missing)}; known: {', '.join(sorted(by_name))}")
    return [by_name[n] for n in names]
