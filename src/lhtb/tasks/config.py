"""task.toml, modelled strictly: an unknown or misspelled key is an error naming the file and the key.

Accepts Harbor's documented keys (schema 1.x) plus lhtb's own (marked "lhtb" below). The full schema is
written out in docs/task-format.md. Types are strict ("600" is not 600, true is not 1, "yes" is not true; a
TOML integer is accepted where a float is expected) and every number is finite and bounded.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from lhtb.results.models import VerifierMode

MAX_TIMEOUT_SEC = 7 * 24 * 3600  # a week: anything longer is a typo (milliseconds?) rather than a plan
MAX_CPUS = 1024  # the machine's own CPU count is checked when the task is loaded (tasks/loader.py)
MIN_MEMORY_MB = 6  # Docker refuses a smaller memory limit
MAX_MEMORY_MB = 16 * 1024 * 1024  # 16 TiB; the machine's physical memory is checked when the task is loaded
MAX_PIDS = 4 * 1024 * 1024  # Linux's largest pid_max
MAX_NAME_CHARS = 200
_USER = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}(:[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63})?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _user_name(value: object) -> object:
    """Harbor allows a user as a name or a uid (a TOML integer): both become the string Docker takes."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"a uid must be >= 0, got {value}")
        return str(value)
    if isinstance(value, str) and not _USER.fullmatch(value):
        raise ValueError(f"{value!r} is not a user name, uid or user:group")
    return value


def _env_table(value: dict[str, str]) -> dict[str, str]:
    for key, item in value.items():
        if not key or "=" in key or "\x00" in key:
            raise ValueError(f"{key!r} is not an environment variable name (empty, or holds '=' or NUL)")
        if "\x00" in item:
            raise ValueError(f"the value of {key!r} contains a NUL character")
    return value


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("contains a NUL character")
    return value


def _one_line(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("contains a control character (newline, tab, NUL, ...)")
    if not value.strip():
        raise ValueError("is blank")
    return value


Seconds = Annotated[float, Field(gt=0, le=MAX_TIMEOUT_SEC, allow_inf_nan=False)]
Minutes = Annotated[float, Field(ge=0, le=MAX_TIMEOUT_SEC / 60, allow_inf_nan=False)]
User = Annotated[str | None, BeforeValidator(_user_name)]
EnvTable = Annotated[dict[str, str], AfterValidator(_env_table)]
Text = Annotated[str, AfterValidator(_no_nul)]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TaskSection(_Section):
    name: Annotated[str, Field(max_length=MAX_NAME_CHARS), AfterValidator(_one_line)] | None = None
    description: Text | None = None
    # lhtb: the instruction relies on git history shipped in the image (otherwise `tasks check` refuses .git).
    allow_git_history: bool = False


class MetadataSection(_Section):
    author_name: Text = "unknown"
    author_email: Text = "unknown"
    difficulty: Literal["easy", "medium", "hard", "expert"] = "medium"
    category: Text = "uncategorized"
    tags: list[Text] = Field(default_factory=list)
    expert_time_estimate_min: Minutes | None = None
    junior_time_estimate_min: Minutes | None = None


class AgentSection(_Section):
    timeout_sec: Seconds = 600.0
    # The user the agent's commands run as (the agent container's user); None: the image's USER.
    user: User = None
    # lhtb: keep the agent working until its time is up (docs/long-horizon.md).
    continue_until_timeout: bool = False
    # lhtb: reward at or above which the agent is not resumed.
    pass_threshold: float = Field(default=1.0, ge=0, le=1, allow_inf_nan=False)
    # lhtb: agent seconds between reward checkpoints; None uses LHTB_CHECKPOINT_INTERVAL_SEC.
    checkpoint_interval_sec: Seconds | None = None


class VerifierSection(_Section):
    timeout_sec: Seconds = 600.0
    env: EnvTable = Field(default_factory=dict)
    user: User = None
    # "separate": grade a copy of the artifacts in a fresh container (default, lhtb's tasks);
    # "shared": grade inside the agent's container (Harbor compatibility, for live state).
    environment_mode: VerifierMode = "separate"
    restart_environment: bool = False
    # lhtb: the verifier's own copies of files the image ships (generators, engines), so the agent cannot alter
    # what grades it: path under tests/ -> path under environment/. `lhtb tasks check` requires them identical.
    copies: dict[str, str] = Field(default_factory=dict)

    @field_validator("copies")
    @classmethod
    def _relative_paths(cls, value: dict[str, str]) -> dict[str, str]:
        for path in (*value, *value.values()):
            if not path or path.startswith("/") or ".." in path.split("/") or "\x00" in path:
                raise ValueError(f"copy path {path!r} must be relative (to tests/ or environment/), without '..'")
        return value


class EnvironmentSection(_Section):
    build_timeout_sec: Seconds = 900.0
    docker_image: Text | None = None
    cpus: float = Field(default=1.0, gt=0, le=MAX_CPUS, allow_inf_nan=False)
    memory_mb: int = Field(default=2048, ge=MIN_MEMORY_MB, le=MAX_MEMORY_MB)
    storage_mb: int | None = Field(default=None, gt=0, le=MAX_MEMORY_MB * 1024)
    gpus: int = Field(default=0, ge=0, le=1024)
    network_mode: Literal["none", "bridge", "host"] | None = None
    allow_internet: bool = False
    workdir: Text = "/app"
    env: EnvTable = Field(default_factory=dict)
    # lhtb: process limit for every container of the task.
    pids_limit: int = Field(default=4096, gt=0, le=MAX_PIDS)

    @field_validator("workdir")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError(f"workdir must be an absolute path, got {value!r}")
        return value.rstrip("/") or "/"

    @property
    def effective_network(self) -> str:
        if self.network_mode is not None:
            return self.network_mode
        return "bridge" if self.allow_internet else "none"


class SolutionSection(_Section):
    env: EnvTable = Field(default_factory=dict)


Reason = Annotated[str, AfterValidator(_one_line)]
Ceiling = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
DEFAULT_SHORTCUT_CEILING = 0.3


class QaSection(_Section):
    """lhtb: what `lhtb tasks check` needs to know beyond the files (docs/authoring.md, the QA gates)."""

    # Highest reward a scripted shortcut (tests/shortcuts/NAME.sh) may score; per-script overrides below.
    shortcut_ceiling: Ceiling = DEFAULT_SHORTCUT_CEILING
    shortcuts: dict[str, Ceiling] = Field(default_factory=dict)
    # Subtask name -> why its score may use a number the agent's program prints about itself (no-self-report gate).
    self_report: dict[str, Reason] = Field(default_factory=dict)
    # Workdir paths of public files the gold solution's programs read while graded -> why (inputs gate).
    runtime_inputs: dict[str, Reason] = Field(default_factory=dict)

    def ceiling(self, shortcut: str) -> float:
        return self.shortcuts.get(shortcut, self.shortcut_ceiling)


class TaskConfig(_Section):
    version: str = "1.0"
    task: TaskSection = Field(default_factory=TaskSection)
    metadata: MetadataSection = Field(default_factory=MetadataSection)
    agent: AgentSection = Field(default_factory=AgentSection)
    verifier: VerifierSection = Field(default_factory=VerifierSection)
    environment: EnvironmentSection = Field(default_factory=EnvironmentSection)
    solution: SolutionSection = Field(default_factory=SolutionSection)
    qa: QaSection = Field(default_factory=QaSection)
    # Absolute paths in the agent container copied to the verifier; default: the workdir.
    artifacts: list[str] = Field(default_factory=list)

    @field_validator("version")
    @classmethod
    def _supported(cls, value: str) -> str:
        if not value.startswith("1."):
            raise ValueError(f"unsupported task.toml version {value!r}; lhtb reads schema 1.x")
        return value

    @field_validator("artifacts")
    @classmethod
    def _artifact_paths(cls, value: list[str]) -> list[str]:
        for path in value:
            if not path.startswith("/") or ".." in path.split("/") or "\x00" in path:
                raise ValueError(f"artifact {path!r} must be an absolute path without '..'")
        return value

    @property
    def artifact_paths(self) -> list[str]:
        return self.artifacts or [self.environment.workdir]
