"""Load one task directory or a dataset (a directory of task directories) with precise error messages.

One bad task never stops the others: every failure to read or validate it makes that task invalid, with a
message naming the file and the field or cause (tasks/files.py reads the files defensively).
"""

from __future__ import annotations

import os
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from lhtb.environments.images import dockerfile_problem
from lhtb.errors import TaskInvalidError
from lhtb.tasks.config import TaskConfig
from lhtb.tasks.files import (
    MAX_INSTRUCTION_BYTES,
    MAX_TOML_BYTES,
    check_links,
    check_toml_nesting,
    read_text,
    require_regular,
)

REQUIRED_FILES = ("task.toml", "instruction.md", "environment/Dockerfile", "tests/test.sh")
MAX_LISTED_PROBLEMS = 10


@dataclass(frozen=True)
class Task:
    path: Path
    config: TaskConfig
    instruction: str
    # Things accepted but worth a look (a byte-order mark removed), each naming its file.
    notes: tuple[str, ...] = ()

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
    notes: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        """What the task is planned under: its name, or for an invalid task its directory's name."""
        return self.task.name if self.task else self.path.name


def _format_validation_error(toml_path: Path, exc: ValidationError) -> str:
    problems = []
    for item in exc.errors():
        key = ".".join(str(part) for part in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown key '{key}'")
        else:
            problems.append(f"'{key}': {item['msg']}")
    if len(problems) > MAX_LISTED_PROBLEMS:
        problems[MAX_LISTED_PROBLEMS:] = [f"and {len(problems) - MAX_LISTED_PROBLEMS} more"]
    return f"{toml_path}: " + "; ".join(problems)


def _physical_memory_mb() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_machine_fits(toml_path: Path, config: TaskConfig) -> None:
    """Resource requests this machine cannot grant are the task's error now, not three failed starts later."""
    env = config.environment
    cpus = os.cpu_count()
    if cpus is not None and env.cpus > cpus:
        raise TaskInvalidError(f"{toml_path}: 'environment.cpus': {env.cpus:g} is more than this machine's {cpus}")
    memory = _physical_memory_mb()
    if memory is not None and env.memory_mb > memory:
        raise TaskInvalidError(
            f"{toml_path}: 'environment.memory_mb': {env.memory_mb} is more than this machine's {memory} MiB"
        )


def _read_config(toml_path: Path, notes: list[str]) -> TaskConfig:
    text = read_text(toml_path, MAX_TOML_BYTES, notes)
    check_toml_nesting(toml_path, text)
    try:
        raw = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise TaskInvalidError(f"{toml_path}: invalid TOML: {exc}") from exc
    try:
        config = TaskConfig.model_validate(raw)
    except ValidationError as exc:
        raise TaskInvalidError(_format_validation_error(toml_path, exc)) from exc
    check_machine_fits(toml_path, config)
    return config


def load_task(path: Path) -> Task:
    path = path.resolve()
    if not path.is_dir():
        raise TaskInvalidError(f"{path}: not a task directory")
    check_links(path)
    for relative in REQUIRED_FILES:
        # test.sh is copied with tests/ as it is: a link there would arrive as a link.
        require_regular(path / relative, follow_links=relative != "tests/test.sh")
    problem = dockerfile_problem(path / "environment" / "Dockerfile")  # empty, not UTF-8, no FROM
    if problem is not None:
        raise TaskInvalidError(problem)
    notes: list[str] = []
    config = _read_config(path / "task.toml", notes)
    instruction = read_text(path / "instruction.md", MAX_INSTRUCTION_BYTES, notes)
    if not instruction.strip():
        raise TaskInvalidError(f"{path / 'instruction.md'}: the instruction is empty")
    return Task(path=path, config=config, instruction=instruction, notes=tuple(notes))


def is_task_dir(path: Path) -> bool:
    return os.path.lexists(path / "task.toml")


def _load(candidate: Path) -> TaskLoad:
    try:
        task = load_task(candidate)
    except TaskInvalidError as exc:
        return TaskLoad(candidate, None, str(exc))
    return TaskLoad(candidate, task, None, task.notes)


def _candidates(path: Path) -> list[Path]:
    if is_task_dir(path):
        return [path]
    try:
        return sorted(p for p in path.iterdir() if p.is_dir())
    except NotADirectoryError:
        hint = f"; did you mean -p {path.parent}?" if path.name == "task.toml" else ""
        raise TaskInvalidError(f"{path}: is a file, not a task or dataset directory{hint}") from None
    except OSError as exc:
        raise TaskInvalidError(f"{path}: cannot list the dataset directory: {exc.strerror or exc}") from exc


def scan_dataset(path: Path) -> list[TaskLoad]:
    """Every task directory under ``path`` (or ``path`` itself), valid or not, sorted by directory."""
    path = path.resolve()
    if not os.path.lexists(path):
        raise TaskInvalidError(f"{path}: no such task or dataset directory")
    loads = []
    for candidate in _candidates(path):
        if is_task_dir(candidate) or candidate == path:
            loads.append(_load(candidate))
            continue
        try:
            looks_like_task = (candidate / "instruction.md").exists() and any(candidate.iterdir())
        except OSError as exc:
            loads.append(TaskLoad(candidate, None, f"{candidate}: cannot be listed: {exc.strerror or exc}"))
            continue
        if looks_like_task:
            loads.append(TaskLoad(candidate, None, f"{candidate / 'task.toml'}: required file is missing"))
    return refuse_duplicate_names(loads)


def refuse_duplicate_names(loads: list[TaskLoad]) -> list[TaskLoad]:
    """Tasks that would share one name (and so trial directories) are all invalid, each naming the others.

    Repeated until no name is shared: a refused task is planned under its directory's name, which another
    task may have taken as its [task] name.
    """
    while True:
        groups: dict[str, list[int]] = defaultdict(list)
        for index, load in enumerate(loads):
            groups[load.name].append(index)
        shared = {
            name: indexes
            for name, indexes in groups.items()
            if len(indexes) > 1 and any(loads[i].task is not None for i in indexes)
        }
        if not shared:
            return loads
        loads = list(loads)
        for name, indexes in shared.items():
            for index in indexes:
                load = loads[index]
                others = ", ".join(str(loads[i].path) for i in indexes if i != index)
                if load.task is not None:
                    message = (
                        f"{load.path / 'task.toml'}: [task] name {name!r} is also the name of the task in {others}; "
                        "task names must be unique in a dataset"
                    )
                    loads[index] = TaskLoad(load.path, None, message, load.notes)
                # An invalid task keeps its own error; the valid ones that collide with it are refused above.


def select_tasks(loads: list[TaskLoad], names: list[str] | None) -> list[TaskLoad]:
    if not names:
        return loads
    by_name: dict[str, TaskLoad] = {}
    for load in loads:
        by_name.setdefault(load.name, load)
    missing = [n for n in names if n not in by_name]
    if missing:
        raise TaskInvalidError(f"unknown task name(s): {', '.join(missing)}; known: {', '.join(sorted(by_name))}")
    return [by_name[n] for n in dict.fromkeys(names)]  # a name given twice is one task, planned once
