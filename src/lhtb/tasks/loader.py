"""Load one task directory or a dataset (a directory of task directories) with precise error messages.

One bad task never stops the others: every failure to read or validate it makes that task invalid, with a
message naming the file and the field or cause (tasks/files.py reads the files defensively).
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from lhtb.environments.images import base_images, dockerfile_problem, read_dockerfile
from lhtb.errors import TaskInvalidError
from lhtb.tasks.compose import COMPOSE_NAMES, ComposeNeeds, read_compose
from lhtb.tasks.config import Artifact, EnvironmentSection, NetworkPolicy, Step, TaskConfig, VerifierSection
from lhtb.tasks.files import (
    MAX_INSTRUCTION_BYTES,
    MAX_TOML_BYTES,
    check_links,
    check_toml_nesting,
    read_text,
    require_regular,
)

SINGLE_STEP_FILES = ("instruction.md", "tests/test.sh")  # a multi-step task has them per step
MAX_LISTED_PROBLEMS = 10


@dataclass(frozen=True)
class TaskStep:
    """One step of a multi-step task: its ``[[steps]]`` entry and ``steps/NAME/instruction.md``."""

    config: Step
    instruction: str

    @property
    def name(self) -> str:
        return self.config.name


@dataclass(frozen=True)
class Task:
    path: Path
    config: TaskConfig
    instruction: str  # a multi-step task's step view: that step's; the whole task: instruction.md or ""
    # Things accepted but worth a look (a byte-order mark removed), each naming its file.
    notes: tuple[str, ...] = ()
    # FROM image -> the image built from instead (`lhtb run --base-image`); only those its Dockerfile names.
    base_images: tuple[tuple[str, str], ...] = ()
    # environment/docker-compose.yaml, when it has sidecars (lhtb.tasks.compose says what is accepted).
    compose: ComposeNeeds | None = None
    steps: tuple[TaskStep, ...] = ()  # Harbor's [[steps]], in order; () for a single-step task
    step: str | None = None  # set on the view of one step (:meth:`for_step`): what its agent and verifier see

    @property
    def name(self) -> str:
        return self.config.task.name or self.path.name

    def with_base_images(self, substitutes: dict[str, str]) -> Task:
        """This task built from ``substitutes`` where its Dockerfile (or its prebuilt image) names their keys."""
        prebuilt = self.prebuilt_image
        names = {prebuilt} if prebuilt else set(base_images(read_dockerfile(self.environment_dir / "Dockerfile")))
        return replace(self, base_images=tuple(sorted((k, v) for k, v in substitutes.items() if k in names)))

    @property
    def prebuilt_image(self) -> str | None:
        """Harbor's ``[environment] docker_image`` for a task without ``environment/Dockerfile``: the agent's
        image as it is, nothing built (with a Dockerfile, lhtb builds it, as the image was made from it)."""
        if os.path.lexists(self.environment_dir / "Dockerfile"):
            return None
        return self.config.environment.docker_image

    def moved_to(self, path: Path) -> Task:
        """This task read from a copy of its directory at ``path`` (a cluster node's copy of the submitter's)."""
        compose = self.compose
        if compose is not None:
            compose = replace(compose, path=path / compose.path.relative_to(self.path))
        return replace(self, path=path, compose=compose)

    def with_workdir(self, workdir: str) -> Task:
        """This task with its workdir stated (the image's, for a task silent on it); artifacts follow it."""
        environment = self.config.environment.model_copy(update={"workdir": workdir})
        return replace(self, config=self.config.model_copy(update={"environment": environment}))

    @property
    def verifier_image_dir(self) -> Path | None:
        """Harbor's bundled verifier: a separate verifier whose image is built from ``tests/Dockerfile`` (its
        dependencies, and the tests copied in) rather than the task's image; None otherwise."""
        if self.config.verifier.mode != "separate" or self.verifier_docker_image is not None:
            return None
        return self.tests_dir if (self.tests_dir / "Dockerfile").is_file() else None

    @property
    def verifier_docker_image(self) -> str | None:
        """Harbor's prebuilt verifier: ``[verifier.environment] docker_image``, an image that holds the tests
        itself (they are not copied in); None otherwise."""
        environment = self.config.verifier.environment
        if self.config.verifier.mode != "separate" or environment is None:
            return None
        return environment.docker_image

    def for_step(self, name: str) -> Task:
        """The task as step ``name`` runs it: the step's instruction, its ``[steps.agent]`` and
        ``[steps.verifier]`` keys over the task's, its artifacts added, its tests over the task's, its solution."""
        step = next(s for s in self.steps if s.name == name)
        config = self.config.model_copy(
            update={
                "agent": _overlay(self.config.agent, step.config.agent),
                "verifier": _step_verifier(self.config.verifier, step.config.verifier),
                "artifacts": [*self.config.artifacts, *step.config.artifacts],
            }
        )
        return replace(self, config=config, instruction=step.instruction, step=name)

    @property
    def environment_dir(self) -> Path:
        return self.path / "environment"

    @property
    def step_dir(self) -> Path | None:
        return None if self.step is None else self.path / "steps" / self.step

    @property
    def tests_dir(self) -> Path:
        """Where the test script is: the step's own ``tests/`` when it has one, else the task's."""
        step_tests = None if self.step_dir is None else self.step_dir / "tests"
        return step_tests if step_tests is not None and step_tests.is_dir() else self.path / "tests"

    @property
    def tests_dirs(self) -> tuple[Path, ...]:
        """What the verifier's ``/tests`` holds, overlaid in order: the task's ``tests/``, then the step's (as
        Harbor uploads both)."""
        dirs = [d for d in (self.path / "tests", None if self.step_dir is None else self.step_dir / "tests") if d]
        return tuple(d for d in dirs if d.is_dir()) or (self.path / "tests",)

    @property
    def solution_dir(self) -> Path:
        step_solution = None if self.step_dir is None else self.step_dir / "solution"
        return step_solution if step_solution is not None and step_solution.is_dir() else self.path / "solution"

    @property
    def step_workdir_dir(self) -> Path | None:
        """Files copied into the workdir before the step's agent starts (Harbor's ``steps/NAME/workdir``); a
        ``setup.sh`` among them runs first."""
        return None if self.step_dir is None else self.step_dir / "workdir"


def _overlay(base: BaseModel, override: BaseModel) -> Any:
    """``base`` with every key ``override`` sets (a step's section over the task's)."""
    return base.model_copy(update={key: getattr(override, key) for key in override.model_fields_set})


def _step_verifier(task: VerifierSection, step: VerifierSection) -> VerifierSection:
    """Harbor's rules: the mode is the step's own, else separate when the step gives a verifier environment,
    else the task's; the timeout is the step's own, its default (600 s) when unset, not the task's."""
    merged: VerifierSection = _overlay(task, step).model_copy(update={"timeout_sec": step.timeout_sec})
    if step.environment is not None and step.environment_mode is None:
        merged = merged.model_copy(update={"environment_mode": "separate"})
    return merged


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


# Keys a model migrates before validation (Harbor's older names): suggested like its fields.
_MIGRATED_KEYS: dict[type[BaseModel], tuple[str, ...]] = {
    TaskConfig: ("schema_version",),
    EnvironmentSection: ("memory", "storage"),
}


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds, through Optional, list, unions and Annotated."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        model = _model_in(arg)
        if model is not None:
            return model
    return None


def _describe_key(loc: tuple[int | str, ...]) -> tuple[str, list[str]]:
    """A validation error's location as the dotted task.toml key, and the keys its section knows.

    Pydantic adds list indexes and union members to a location; the members are dropped from the key.
    """
    model: type[BaseModel] | None = TaskConfig
    parts: list[str] = []
    for index, part in enumerate(loc):
        if isinstance(part, int):
            parts.append(str(part))
        elif part in ("path", "table") and model is Artifact:  # the union tags of an artifact entry
            continue
        elif model is None or part in model.model_fields or index == len(loc) - 1:
            parts.append(part)
            field = model.model_fields.get(part) if model else None
            model = _model_in(field.annotation) if field else None
    known = [*model.model_fields, *_MIGRATED_KEYS.get(model, ())] if model else []
    return ".".join(parts) or "(top level)", known


def _did_you_mean(loc: tuple[int | str, ...]) -> str:
    """' (did you mean 'x'?)' for an unknown key close to a key its section knows, else ''."""
    key = str(loc[-1]) if loc else ""
    _, known = _describe_key(loc[:-1])
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _format_validation_error(toml_path: Path, exc: ValidationError) -> str:
    problems = []
    for item in exc.errors():
        key, _ = _describe_key(item["loc"])
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown key '{key}'{_did_you_mean(item['loc'])}")
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


def _network_policies(config: TaskConfig) -> dict[str, NetworkPolicy]:
    policies: dict[str, NetworkPolicy] = {"environment": config.environment, "agent": config.agent}
    policies["verifier"] = config.verifier
    if config.verifier.environment is not None:
        policies["verifier.environment"] = config.verifier.environment
    for step in config.steps or []:
        policies[f"steps {step.name!r}: agent"] = step.agent
        policies[f"steps {step.name!r}: verifier"] = step.verifier
        if step.verifier.environment is not None:
            policies[f"steps {step.name!r}: verifier.environment"] = step.verifier.environment
    return policies


def _verifiers(config: TaskConfig) -> dict[str, VerifierSection]:
    """The task's [verifier] and each step's, by where they are written."""
    return {"[verifier]": config.verifier} | {
        f"[steps.verifier] of step {step.name!r}": step.verifier for step in config.steps or []
    }


def _all_artifacts(config: TaskConfig) -> list[str | Artifact]:
    return [*config.artifacts, *(entry for step in config.steps or [] for entry in step.artifacts)]


def unrunnable(config: TaskConfig) -> list[str]:
    """What lhtb reads but cannot run faithfully: each makes the task invalid rather than run as another task."""
    problems = [
        f"[{where}] network_mode = 'allowlist': lhtb cannot enforce a host allowlist (and does not widen it to "
        "full network); use 'no-network' or 'public'"
        for where, policy in _network_policies(config).items()
        if policy.network_mode == "allowlist"
    ]
    environments = [config.environment] + [v.environment for v in _verifiers(config).values() if v.environment]
    if any(env.os == "windows" for env in environments):
        problems.append("os = 'windows': lhtb runs Linux containers only")
    for step in config.steps or []:
        fields = step.agent.model_fields_set & {"network_mode", "allowed_hosts"}
        changed = {key for key in fields if getattr(step.agent, key) != getattr(config.agent, key)}
        if changed:
            problems.append(
                f"[steps.agent] {', '.join(sorted(changed))} of step {step.name!r}: the agent's container keeps "
                "one network for the whole trial; state it in [agent] for every step"
            )
    task_image = config.verifier.environment.docker_image if config.verifier.environment else None
    if task_image is not None and config.steps:
        problems.append(
            "[verifier.environment] docker_image with [[steps]]: a prebuilt verifier image holds one set of tests, "
            "and each step is graded by its own"
        )
    for step in config.steps or []:
        image = step.verifier.environment.docker_image if step.verifier.environment else None
        if image is not None and image != task_image:
            problems.append(
                f"[steps.verifier] environment.docker_image of step {step.name!r}: lhtb runs one verifier image "
                "per trial; state it in [verifier.environment]"
            )
    return problems


def unused_keys(config: TaskConfig) -> list[str]:
    """Keys lhtb reads and checks but does not act on yet: the task runs without them (a note, not an error)."""
    env, verifier = config.environment, config.verifier
    present = {
        "[environment] mcp_servers": bool(env.mcp_servers),
        "[environment] healthcheck": env.healthcheck is not None,
        "[environment] skills_dir": env.skills_dir is not None,
        "[environment] gpu_types, tpu": env.gpu_types is not None or env.tpu is not None,
        "[verifier] network_mode (shared: the agent's network; separate: none)": verifier.network_mode is not None,
        "[verifier.environment] limits": verifier.environment is not None,
        "[steps.verifier] environment limits": any(step.verifier.environment for step in config.steps or []),
        "[steps] healthcheck": any(step.healthcheck for step in config.steps or []),
        "artifact destination/exclude": any(
            isinstance(entry, Artifact) and (entry.destination or entry.exclude) for entry in config.artifacts
        ),
    }
    return [f"{key} is read but not used by lhtb yet" for key, used in present.items() if used]


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
    problems = unrunnable(config)
    if problems:
        raise TaskInvalidError(f"{toml_path}: " + "; ".join(problems))
    notes.extend(f"{toml_path}: {note}" for note in unused_keys(config))
    return config


def load_task(path: Path) -> Task:
    path = path.resolve()
    if not path.is_dir():
        raise TaskInvalidError(f"{path}: not a task directory")
    check_links(path)
    require_regular(path / "task.toml")
    notes: list[str] = []
    config = _read_config(path / "task.toml", notes)
    dockerfile = path / "environment" / "Dockerfile"
    if config.environment.docker_image is None or os.path.lexists(dockerfile):  # else: a prebuilt image, as is
        require_regular(dockerfile)
        problem = dockerfile_problem(dockerfile)  # empty, not UTF-8, no FROM
        if problem is not None:
            raise TaskInvalidError(problem)
    bundled = config.verifier.environment is not None and config.verifier.environment.docker_image is not None
    if not config.steps:
        for relative in SINGLE_STEP_FILES:
            if relative == "tests/test.sh" and bundled and not os.path.lexists(path / relative):
                continue  # a prebuilt verifier image holds its tests
            # test.sh is copied with tests/ as it is: a link there would arrive as a link.
            require_regular(path / relative, follow_links=relative != "tests/test.sh")
    compose = read_compose(path / "environment")
    if compose is not None and compose.no_network and config.environment.effective_network != "none":
        # the Compose file takes the network away (as Harbor's Docker runs it): so does lhtb
        config.environment.network_mode = "none"
        config.environment._agent_network = None
    if compose is not None and compose.main_env:
        config.environment.env = {**dict(compose.main_env), **config.environment.env}  # task.toml's value wins
    if any((path / "tests" / name).is_file() for name in COMPOSE_NAMES):
        raise TaskInvalidError(
            f"{path / 'tests'}: a Compose file for the verifier: lhtb runs the task's own Compose file for it "
            "(environment/docker-compose.yaml), not a second one"
        )
    _check_services(path / "task.toml", config, ("main", *(compose.sidecars if compose is not None else ())))
    steps = _read_steps(path, config, notes)
    instruction = "" if steps and not (path / "instruction.md").exists() else _instruction(path, notes)
    sidecars = compose if compose is not None and compose.sidecars else None
    return Task(path=path, config=config, instruction=instruction, notes=tuple(notes), compose=sidecars, steps=steps)


def _check_services(toml_path: Path, config: TaskConfig, services: tuple[str, ...]) -> None:
    """Every artifact and collect hook names a service the task runs; no two artifacts share a path (each is
    installed at its path in the verifier)."""
    for where, verifier in _verifiers(config).items():
        for index, hook in enumerate(verifier.collect):
            if hook.service not in services:
                raise TaskInvalidError(
                    f"{toml_path}: {where} collect[{index}] service {hook.service!r} is not a service of the task "
                    f"({', '.join(services)})"
                )
    seen: dict[str, str] = {}
    for entry in _all_artifacts(config):
        service, source = ("main", entry) if isinstance(entry, str) else (entry.service or "main", entry.source)
        if service not in services:
            raise TaskInvalidError(
                f"{toml_path}: artifacts: {source!r} names service {service!r}, not a service of the task "
                f"({', '.join(services)})"
            )
        if seen.setdefault(source, service) != service:
            raise TaskInvalidError(
                f"{toml_path}: artifacts: {source!r} is declared from both {seen[source]!r} and {service!r}; the "
                "verifier gets each artifact at its own path"
            )


def _instruction(directory: Path, notes: list[str]) -> str:
    instruction = read_text(directory / "instruction.md", MAX_INSTRUCTION_BYTES, notes)
    if not instruction.strip():
        raise TaskInvalidError(f"{directory / 'instruction.md'}: the instruction is empty")
    return instruction


def _read_steps(path: Path, config: TaskConfig, notes: list[str]) -> tuple[TaskStep, ...]:
    """Each step's directory as Harbor lays it out: ``steps/NAME/instruction.md`` (required), a test script in
    ``steps/NAME/tests/`` or the task's ``tests/``, optional ``solution/`` and ``workdir/`` (with ``setup.sh``)."""
    steps = []
    for step in config.steps or []:
        directory = path / "steps" / step.name
        if not directory.is_dir():
            raise TaskInvalidError(f"{directory}: the directory of step {step.name!r} ([[steps]]) is missing")
        require_regular(directory / "instruction.md")
        own_test = directory / "tests" / "test.sh"
        test = own_test if os.path.lexists(own_test) else path / "tests" / "test.sh"
        if not os.path.lexists(test):
            raise TaskInvalidError(f"{own_test}: step {step.name!r} has no test script (nor has {test})")
        require_regular(test, follow_links=False)
        steps.append(TaskStep(config=step, instruction=_instruction(directory, notes)))
    return tuple(steps)


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
