"""task.toml, modelled strictly: an unknown or misspelled key is an error naming the file and the key.

Accepts Harbor's documented keys (schema 1.x) plus lhtb's own (marked "lhtb" below). The full schema is
written out in docs/task-format.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskSection(_Section):
    name: str | None = None
    description: str | None = None
    # lhtb: the instruction relies on git history shipped in the image (otherwise `tasks check` refuses .git).
    allow_git_history: bool = False


class MetadataSection(_Section):
    author_name: str = "unknown"
    author_email: str = "unknown"
    difficulty: Literal["easy", "medium", "hard", "expert"] = "medium"
    category: str = "uncategorized"
    tags: list[str] = Field(default_factory=list)
    expert_time_estimate_min: float | None = None
    junior_time_estimate_min: float | None = None


class AgentSection(_Section):
    timeout_sec: float = Field(default=600.0, gt=0)
    user: str | None = None
    # lhtb: keep the agent working until its time is up (docs/long-horizon.md).
    continue_until_timeout: bool = False
    # lhtb: reward at or above which the agent is not resumed.
    pass_threshold: float = Field(default=1.0, ge=0, le=1)
    # lhtb: agent seconds between reward checkpoints; None uses LHTB_CHECKPOINT_INTERVAL_SEC.
    checkpoint_interval_sec: float | None = Field(default=None, gt=0)


class VerifierSection(_Section):
    timeout_sec: float = Field(default=600.0, gt=0)
    env: dict[str, str] = Field(default_factory=dict)
    user: str | None = None
    # "separate": grade a copy of the artifacts in a fresh container (default, lhtb's tasks);
    # "shared": grade inside the agent's container (Harbor compatibility, for live state).
    environment_mode: Literal["separate", "shared"] = "separate"
    restart_environment: bool = False
    # lhtb: the verifier's own copies of files the image ships (generators, engines), so the agent cannot alter
    # what grades it: path under tests/ -> path under environment/. `lhtb tasks check` requires them identical.
    copies: dict[str, str] = Field(default_factory=dict)

    @field_validator("copies")
    @classmethod
    def _relative_paths(cls, value: dict[str, str]) -> dict[str, str]:
        for path in (*value, *value.values()):
            if not path or path.startswith("/") or ".." in path.split("/"):
                raise ValueError(f"copy path {path!r} must be relative (to tests/ or environment/), without '..'")
        return value


class EnvironmentSection(_Section):
    build_timeout_sec: float = Field(default=900.0, gt=0)
    docker_image: str | None = None
    cpus: float = Field(default=1.0, gt=0)
    memory_mb: int = Field(default=2048, gt=0)
    storage_mb: int | None = Field(default=None, gt=0)
    gpus: int = Field(default=0, ge=0)
    network_mode: Literal["none", "bridge", "host"] | None = None
    allow_internet: bool = False
    workdir: str = "/app"
    env: dict[str, str] = Field(default_factory=dict)
    # lhtb: process limit for every container of the task.
    pids_limit: int = Field(default=4096, gt=0)

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
    env: dict[str, str] = Field(default_factory=dict)


class TaskConfig(_Section):
    version: str = "1.0"
    task: TaskSection = Field(default_factory=TaskSection)
    metadata: MetadataSection = Field(default_factory=MetadataSection)
    agent: AgentSection = Field(default_factory=AgentSection)
    verifier: VerifierSection = Field(default_factory=VerifierSection)
    environment: EnvironmentSection = Field(default_factory=EnvironmentSection)
    solution: SolutionSection = Field(default_factory=SolutionSection)
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
            if not path.startswith("/") or ".." in path.split("/"):
                raise ValueError(f"artifact {path!r} must be an absolute path without '..'")
        return value

    @property
    def artifact_paths(self) -> list[str]:
        return self.artifacts or [self.environment.workdir]
