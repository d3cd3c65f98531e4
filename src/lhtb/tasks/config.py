"""task.toml: Harbor's schema (0.26, schema 1.x) plus lhtb's own keys (marked "lhtb"), every key with its meaning.

Behavioural sections (top level, [agent], [verifier], [environment], [solution], [qa]) are strict: an unknown
or misspelled key is an error naming the file and the key. Descriptive ones ([task], [metadata]) keep unknown
keys, as Harbor does. Deprecated Harbor forms are migrated here (``memory = "4G"`` -> ``memory_mb``). Types are
strict ("600" is not 600, true is not 1; a TOML integer is accepted where a float is expected) and every number
is finite and bounded. A key absent from the file means what it meant before Harbor's keys were added (lhtb's
defaults, not Harbor's). docs/task-format.md has the key-by-key mapping.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    field_validator,
    model_validator,
)

from lhtb.results.models import VerifierMode
from lhtb.tasks.fields import (
    MAX_CPUS,
    MAX_MEMORY_MB,
    MAX_NAME_CHARS,
    MAX_PIDS,
    MIN_MEMORY_MB,
    RUNS_AS,
    Delay,
    EnvTable,
    Hosts,
    Line,
    Minutes,
    NetworkMode,
    OpenSection,
    Seconds,
    Service,
    StrictSection,
    Text,
    User,
    http_alias,
    lower,
    one_line,
    size_to_mb,
)


class NetworkPolicy(StrictSection):
    """Harbor's network policy: [environment] sets the task's, [agent] and [verifier] override it per phase."""

    network_mode: NetworkMode | None = None
    allowed_hosts: Hosts = None

    @model_validator(mode="after")
    def _hosts_need_allowlist(self) -> NetworkPolicy:
        if self.allowed_hosts is not None and self.network_mode != "allowlist":
            raise ValueError("allowed_hosts is only valid with network_mode = 'allowlist'")
        return self


class Author(OpenSection):
    name: Text
    email: Text | None = None


class TaskSection(OpenSection):
    name: Annotated[str, Field(max_length=MAX_NAME_CHARS), AfterValidator(one_line)] | None = None
    description: Text | None = None
    # lhtb: the instruction relies on git history shipped in the image (otherwise `tasks check` refuses .git).
    allow_git_history: bool = False
    version: Annotated[Text, Field(min_length=1)] | None = None  # Harbor: the task package's version
    authors: list[Author] = Field(default_factory=list)
    keywords: list[Text] = Field(default_factory=list)


class MetadataSection(OpenSection):
    author_name: Text = "unknown"
    author_email: Text = "unknown"
    difficulty: Line = "medium"  # lhtb's tasks use easy, medium, hard, expert; Harbor's also "unknown"
    category: Text = "uncategorized"
    tags: list[Text] = Field(default_factory=list)
    expert_time_estimate_min: Minutes | None = None
    junior_time_estimate_min: Minutes | None = None


class AgentSection(NetworkPolicy):
    timeout_sec: Seconds = 600.0
    # The user the agent's commands run as (the agent container's user); None: the image's USER.
    user: User = None
    # lhtb: keep the agent working until its time is up (docs/long-horizon.md).
    continue_until_timeout: bool = False
    # lhtb: reward at or above which the agent is not resumed.
    pass_threshold: float = Field(default=1.0, ge=0, le=1, allow_inf_nan=False)
    # lhtb: agent seconds between reward checkpoints; None uses LHTB_CHECKPOINT_INTERVAL_SEC.
    checkpoint_interval_sec: Seconds | None = None


class Healthcheck(StrictSection):
    """Harbor: a readiness command retried after the environment starts (Docker HEALTHCHECK's options)."""

    command: Text
    interval_sec: Seconds = 5.0
    timeout_sec: Seconds = 30.0
    start_period_sec: Delay = 0.0
    start_interval_sec: Seconds = 5.0
    retries: int = Field(default=3, ge=0, le=10_000)


class Tpu(StrictSection):
    type: Annotated[Line, Field(min_length=1)]
    topology: Annotated[str, Field(pattern=r"^[1-9]\d*(x[1-9]\d*)+$")]


class McpServer(StrictSection):
    """Harbor: an MCP server offered to the agent; HTTP transports need a url, stdio a command."""

    name: Line
    transport: Annotated[Literal["stdio", "sse", "streamable-http"], BeforeValidator(http_alias)] = "sse"
    url: Text | None = None
    command: Text | None = None
    args: list[Text] = Field(default_factory=list)
    headers: dict[str, Line] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _transport_needs(self) -> McpServer:
        if self.transport == "stdio" and (not self.command or self.headers):
            raise ValueError("a stdio MCP server needs 'command' and takes no 'headers'")
        if self.transport != "stdio" and not self.url:
            raise ValueError(f"an MCP server with transport {self.transport!r} needs 'url'")
        return self


class EnvironmentSection(NetworkPolicy):
    build_timeout_sec: Seconds = 900.0
    docker_image: Text | None = None
    os: Annotated[Literal["linux", "windows"], BeforeValidator(lower)] = "linux"
    cpus: float = Field(default=1.0, gt=0, le=MAX_CPUS, allow_inf_nan=False)
    memory_mb: int = Field(default=2048, ge=MIN_MEMORY_MB, le=MAX_MEMORY_MB)
    storage_mb: int | None = Field(default=None, gt=0, le=MAX_MEMORY_MB * 1024)
    gpus: int = Field(default=0, ge=0, le=1024)
    gpu_types: list[Line] | None = None
    tpu: Tpu | None = None
    allow_internet: bool | None = None  # Harbor's deprecated form; unset with no network_mode: public
    # Unset: the image's WORKDIR (Harbor's rule), found when the image is built (``workdir_from_image``); until
    # then this reads "/app", lhtb's old default. lhtb's own tasks state theirs.
    workdir: Text = "/app"
    env: EnvTable = Field(default_factory=dict)
    mcp_servers: list[McpServer] = Field(default_factory=list)
    skills_dir: Text | None = None
    healthcheck: Healthcheck | None = None
    # lhtb: process limit for every container of the task.
    pids_limit: int = Field(default=4096, gt=0, le=MAX_PIDS)
    # The task's [agent] network_mode, which decides the agent container's network (set by TaskConfig).
    _agent_network: NetworkMode | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _migrate_sizes(cls, data: Any) -> Any:
        """TB 2.0's ``memory = "4G"`` / ``storage = "10G"`` become ``memory_mb`` / ``storage_mb``, as in Harbor."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for old, new in (("memory", "memory_mb"), ("storage", "storage_mb")):
            if old not in data:
                continue
            size = data.pop(old)
            if not isinstance(size, str):
                raise ValueError(f"'{old}' (deprecated) must be a size string like '4G'; or use '{new}' (MiB)")
            mb = size_to_mb(size)
            if data.setdefault(new, mb) != mb:
                raise ValueError(f"'{old}' = {size!r} ({mb} MiB) contradicts '{new}' = {data[new]!r}")
        return data

    @field_validator("workdir")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError(f"workdir must be an absolute path, got {value!r}")
        return value.rstrip("/") or "/"

    @property
    def workdir_from_image(self) -> bool:
        return "workdir" not in self.model_fields_set

    @property
    def effective_network(self) -> str:
        """The agent container's Docker network; an allowlist (refused at load) never widens to a network. A task
        that says nothing gets Harbor's default, the public network (lhtb's own tasks say ``allow_internet =
        false``)."""
        mode = self._agent_network or self.network_mode
        if mode is not None:
            return RUNS_AS.get(mode, "none")
        return "none" if self.allow_internet is False else "bridge"


class CollectHook(StrictSection):
    """Harbor: a command run in a service after the agent's phase, to snapshot state for the verifier."""

    command: Text
    service: Service = "main"
    timeout_sec: Seconds = 60.0
    user: User = None


class VerifierSection(NetworkPolicy):
    timeout_sec: Seconds = 600.0
    env: EnvTable = Field(default_factory=dict)
    user: User = None
    # "separate": grade a copy of the artifacts in a fresh container (lhtb's tasks say so);
    # "shared": grade inside the agent's container (live state). Unset: Harbor's rule, see ``mode``.
    environment_mode: VerifierMode | None = None
    restart_environment: bool = False
    # Harbor: the separate verifier's own environment (image, limits).
    environment: EnvironmentSection | None = None
    collect: list[CollectHook] = Field(default_factory=list)
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

    @property
    def mode(self) -> VerifierMode:
        """Where the verifier runs: as written, else Harbor's default: separate when a verifier environment is
        given, shared otherwise."""
        if self.environment_mode is not None:
            return self.environment_mode
        return "separate" if self.environment is not None else "shared"

    @model_validator(mode="after")
    def _shared_has_no_environment(self) -> VerifierSection:
        if self.environment_mode == "shared" and self.environment is not None:
            raise ValueError("environment_mode = 'shared' grades in the agent's container: drop [verifier.environment]")
        return self


class SolutionSection(StrictSection):
    env: EnvTable = Field(default_factory=dict)


def _artifact_source(path: str) -> str:
    if not path.startswith("/") or ".." in path.split("/") or "\x00" in path:
        raise ValueError(f"artifact {path!r} must be an absolute path without '..'")
    return path


def _artifact_destination(path: str | None) -> str | None:
    if path and (path.startswith("/") or ".." in path.split("/") or "\\" in path or path == "manifest.json"):
        raise ValueError(f"artifact destination {path!r} must be relative, without '..', and not manifest.json")
    return path or None


class Artifact(StrictSection):
    """Harbor's table form of an artifact; the string form is its ``source`` alone."""

    source: Annotated[str, AfterValidator(_artifact_source)]
    destination: Annotated[str | None, AfterValidator(_artifact_destination)] = None
    exclude: list[Text] = Field(default_factory=list)
    service: Service | None = None


# One error per bad entry (not one per union member); loader._describe_key leaves the tags out of key names.
ArtifactEntry = Annotated[
    Annotated[str, Tag("path")] | Annotated[Artifact, Tag("table")],
    Discriminator(lambda entry: "path" if isinstance(entry, str) else "table"),
]


def _artifact_paths(entries: list[str | Artifact]) -> list[str | Artifact]:
    for entry in entries:
        if isinstance(entry, str):
            _artifact_source(entry)  # checked here, so the error names 'artifacts' (a table's names its key)
    return entries


Artifacts = Annotated[list[ArtifactEntry], AfterValidator(_artifact_paths)]


_STEP_NAME_BAD = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')
_DEVICE_NAME = re.compile(r"^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|(?:COM|LPT)[1-9¹²³])$", re.IGNORECASE)


def _step_name(name: str) -> str:
    """Harbor's rule: one portable directory name (steps/NAME/), on every host OS."""
    if (
        not name.strip()
        or name in {".", ".."}
        or name.endswith((".", " "))
        or _STEP_NAME_BAD.search(name)
        or _DEVICE_NAME.fullmatch(name.partition(".")[0].rstrip(" "))
    ):
        raise ValueError(
            f"invalid step name {name!r}: it must be one portable directory name (no path separators, control "
            "or reserved characters, device names, or trailing dots and spaces)"
        )
    if len(name.encode("utf-8")) > 255:
        raise ValueError("a step name is at most 255 UTF-8 bytes")
    return name


class Step(StrictSection):
    """Harbor: one step of a multi-step task, run in order in the same agent container (docs/task-format.md).

    Its ``[steps.agent]`` and ``[steps.verifier]`` keys override the task's for this step only."""

    name: Annotated[str, AfterValidator(_step_name)]
    agent: AgentSection = Field(default_factory=AgentSection)
    verifier: VerifierSection = Field(default_factory=VerifierSection)
    # Stop the remaining steps unless this step's reward (a number) or each named reward (a table) reaches it.
    min_reward: float | dict[str, float] | None = None
    healthcheck: Healthcheck | None = None
    artifacts: Artifacts = Field(default_factory=list)  # added to the task's for this step


def _unique_steps(steps: list[Step] | None) -> list[Step] | None:
    seen: set[str] = set()
    for step in steps or []:
        key = unicodedata.normalize("NFC", step.name).casefold()  # one directory on case-insensitive disks
        if key in seen:
            raise ValueError(f"step names must be unique (ignoring case and Unicode normalisation): {step.name!r}")
        seen.add(key)
    return steps or None  # Harbor: an empty list is a single-step task


Reason = Annotated[str, AfterValidator(one_line)]
Ceiling = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
DEFAULT_SHORTCUT_CEILING = 0.3


class QaSection(StrictSection):
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


class TaskConfig(StrictSection):
    version: str = "1.0"  # Harbor's schema_version (its older name, lhtb's key)
    source: Text | None = None  # Harbor: where the task came from
    task: TaskSection = Field(default_factory=TaskSection)
    metadata: MetadataSection = Field(default_factory=MetadataSection)
    agent: AgentSection = Field(default_factory=AgentSection)
    verifier: VerifierSection = Field(default_factory=VerifierSection)
    environment: EnvironmentSection = Field(default_factory=EnvironmentSection)
    solution: SolutionSection = Field(default_factory=SolutionSection)
    qa: QaSection = Field(default_factory=QaSection)
    steps: Annotated[list[Step] | None, AfterValidator(_unique_steps)] = None
    multi_step_reward_strategy: Literal["mean", "final"] | None = None
    # Absolute paths in the agent container copied to the verifier; default: the workdir.
    artifacts: Artifacts = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _schema_version(cls, data: Any) -> Any:
        """Harbor renamed ``version`` to ``schema_version``; both name the one schema version."""
        if not isinstance(data, dict) or "schema_version" not in data:
            return data
        data = dict(data)
        schema = data.pop("schema_version")
        if data.setdefault("version", schema) != schema:
            raise ValueError(f"schema_version {schema!r} contradicts version {data['version']!r}; keep one")
        return data

    @field_validator("version")
    @classmethod
    def _supported(cls, value: str) -> str:
        if not value.startswith("1."):
            raise ValueError(f"unsupported task.toml version {value!r}; lhtb reads schema 1.x")
        return value

    @model_validator(mode="after")
    def _agent_phase_network(self) -> TaskConfig:
        self.environment._agent_network = self.agent.network_mode
        return self

    @property
    def artifact_paths(self) -> list[str]:
        """The artifact paths in the agent's container (``main``)."""
        return [path for service, path in self.artifact_sources if service == "main"]

    @property
    def artifact_sources(self) -> list[tuple[str, str]]:
        """(Compose service, path) of every artifact: ``main`` unless a table names a sidecar; none declared:
        the workdir. The verifier gets each at its path."""
        sources = [
            ("main", entry) if isinstance(entry, str) else (entry.service or "main", entry.source)
            for entry in self.artifacts
        ]
        return sources or [("main", self.environment.workdir)]
