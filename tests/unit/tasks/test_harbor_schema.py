"""Harbor-format task.toml files load with their meaning; lhtb's own tasks mean what they meant before."""

from __future__ import annotations

import json
import subprocess
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest
from taskfactory import REPO, write_task

from lhtb.errors import TaskInvalidError
from lhtb.tasks.config import Artifact, TaskConfig, size_to_mb
from lhtb.tasks.loader import Task, TaskStep, load_task, unrunnable, unused_keys

FIXTURES = REPO / "tests" / "fixtures" / "harbor"
SNAPSHOT = FIXTURES / "lhtb_tasks_snapshot.json"  # TaskConfig.model_dump() of each, taken before Harbor's keys
HARBOR_PYTHON = REPO / "build" / "harbor-venv" / "bin" / "python"

# The task.toml texts of the snapshot's entries that are not under tasks/ (verbatim: the snapshot was made from
# them).
SNAPSHOT_TEXTS = {
    "(empty task.toml)": "",
    "(allow_internet only)": "[environment]\nallow_internet = true\n",
    "(lhtb variants)": """
version = "1.1"
artifacts = ["/app/out", "/data"]
[task]
name = "x"
[metadata]
difficulty = "expert"
tags = ["a"]
[agent]
user = 1000
timeout_sec = 60
[verifier]
user = "nobody:nogroup"
environment_mode = "shared"
restart_environment = true
env = {A = "1"}
[environment]
allow_internet = true
network_mode = "host"
memory_mb = 512
storage_mb = 1024
gpus = 1
workdir = "/work/"
env = {B = "2"}
pids_limit = 100
[solution]
env = {C = "3"}
[qa]
shortcut_ceiling = 0.5
""",
}


def _parse(text: str) -> TaskConfig:
    return TaskConfig.model_validate(tomllib.loads(text))


def _fixture(name: str) -> TaskConfig:
    return _parse((FIXTURES / name).read_text())


def _as_before(dump: Any, before: Any) -> Any:
    """``dump`` cut down to the keys ``before`` has: the fields that existed when the snapshot was taken."""
    if isinstance(before, dict) and isinstance(dump, dict):
        return {key: _as_before(dump.get(key, "<missing>"), value) for key, value in before.items()}
    return dump


def _snapshot_texts() -> dict[str, str]:
    texts = {path.parent.name: path.read_text() for path in sorted((REPO / "tasks").glob("*/task.toml"))}
    return texts | SNAPSHOT_TEXTS


# Where a task is silent lhtb now applies Harbor's defaults (docs/task-format.md): these two fields of a silent
# task read as unset (a shared verifier, the public network) where the snapshot has lhtb's old defaults. Every
# bundled task states both, so its meaning is unchanged.
HARBOR_DEFAULTS = {("environment", "allow_internet"): False, ("verifier", "environment_mode"): "separate"}


@pytest.mark.parametrize(("name", "text"), sorted(_snapshot_texts().items()))
def test_tasks_that_loaded_before_keep_their_meaning(name: str, text: str) -> None:
    before = json.loads(SNAPSHOT.read_text())
    if name not in before:
        pytest.skip(f"{name} was added after {SNAPSHOT.name} was taken: it has no earlier meaning to keep")
    now = _as_before(_parse(text).model_dump(mode="json"), before[name])
    if name in SNAPSHOT_TEXTS:
        for (section, key), old_default in HARBOR_DEFAULTS.items():
            if now[section][key] is None:
                assert before[name][section][key] == old_default
                now[section][key] = old_default
    assert now == before[name]


def test_silent_tasks_get_harbors_defaults_and_lhtbs_tasks_say_theirs() -> None:
    silent = _parse("")
    assert silent.environment.effective_network == "bridge" and silent.verifier.mode == "shared"
    assert _parse("[verifier.environment]\n").verifier.mode == "separate"  # Harbor: an environment implies it
    assert _parse(SNAPSHOT_TEXTS["(allow_internet only)"]).environment.effective_network == "bridge"
    assert _parse(SNAPSHOT_TEXTS["(lhtb variants)"]).environment.effective_network == "host"
    assert _parse("[environment]\nallow_internet = false\n").environment.effective_network == "none"
    for toml in sorted((REPO / "tasks").glob("*/task.toml")):
        config = _parse(toml.read_text())
        assert config.verifier.mode == "separate" and config.environment.effective_network == "none", toml


def test_harbor_init_task_loads_with_its_meaning() -> None:
    """tests/fixtures/harbor/hello-init.toml: written by Harbor 0.26.0's `harbor init --task` (8 errors before)."""
    config = _fixture("hello-init.toml")
    assert config.version == "1.4"  # schema_version
    assert config.task.name == "lhtb/hello-init"
    assert config.task.version == "1.0.0"
    assert [(a.name, a.email) for a in config.task.authors] == [("Ada Lovelace", "ada@example.com")]
    assert config.task.keywords == []
    assert config.metadata.difficulty == "unknown"
    assert config.verifier.environment_mode == "separate"
    assert config.verifier.collect == []
    assert config.environment.os == "linux"
    assert config.environment.mcp_servers == []
    assert config.environment.network_mode == "public"
    assert config.environment.effective_network == "bridge"
    assert config.environment.build_timeout_sec == 600
    assert unrunnable(config) == [] and unused_keys(config) == []


@pytest.mark.parametrize("name", ["hello-init.toml", "plain-init.toml"])
def test_harbor_init_tasks_load_as_task_directories(tmp_path: Path, name: str) -> None:
    task = write_task(tmp_path, "init")
    (task / "task.toml").write_text((FIXTURES / name).read_text())
    loaded = load_task(task)
    assert loaded.name == f"lhtb/{name.removesuffix('.toml')}"
    assert loaded.notes == ()


def test_descriptive_sections_keep_unknown_keys() -> None:
    config = _fixture("task-and-metadata.toml")
    assert config.source == "https://github.com/example/suite"
    assert config.task.version == "2.1.0"
    assert [a.email for a in config.task.authors] == ["grace@example.com", None]
    assert config.task.keywords == ["parsing", "cli"]
    assert config.task.model_extra == {"homepage": "https://example.com/task"}
    assert config.metadata.difficulty == "unknown"
    assert config.metadata.expert_time_estimate_min == 30
    assert config.metadata.author_email == "unknown"  # lhtb's default when absent
    assert config.metadata.model_extra == {"canary": "DO NOT TRAIN", "benchmark": {"suite": "tb2", "split": "test"}}


def test_environment_keys() -> None:
    config = _fixture("environment-keys.toml")
    env = config.environment
    assert env.os == "linux"  # case-insensitive, as in Harbor
    assert (env.cpus, env.memory_mb, env.storage_mb, env.gpus) == (2, 4096, 20480, 1)
    assert env.gpu_types == ["H100", "A100"]
    assert env.tpu is not None and (env.tpu.type, env.tpu.topology) == ("v6e", "2x4")
    assert env.skills_dir == "/opt/skills"
    assert env.workdir == "/workspace"
    assert env.healthcheck is not None
    assert (env.healthcheck.interval_sec, env.healthcheck.start_interval_sec, env.healthcheck.retries) == (2, 5, 5)
    assert [(s.name, s.transport) for s in env.mcp_servers] == [
        ("search", "sse"),
        ("files", "stdio"),
        ("docs", "streamable-http"),  # Harbor's alias "http"
    ]
    assert env.mcp_servers[1].args == ["--root", "/workspace"]
    assert (config.agent.user, config.verifier.user) == ("1000", "tester")
    assert env.effective_network == "bridge"
    assert "[environment] mcp_servers is read but not used by lhtb yet" in unused_keys(config)


def test_deprecated_tb2_forms_are_migrated() -> None:
    config = _fixture("deprecated-tb2.toml")
    assert config.version == "1.0"
    assert (config.environment.memory_mb, config.environment.storage_mb) == (4096, 10240)
    assert config.environment.effective_network == "bridge"  # allow_internet = true


@pytest.mark.parametrize(("size", "mb"), [("4G", 4096), ("1.5g", 1536), (" 512M ", 512), ("2048K", 2)])
def test_size_strings(size: str, mb: int) -> None:
    assert size_to_mb(size) == mb


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[environment]\nmemory = "4G"\nmemory_mb = 2048\n', "contradicts 'memory_mb'"),
        ("[environment]\nmemory = 4096\n", "must be a size string"),
        ('[environment]\nstorage = "10T"\n', "is not a size"),
        ('schema_version = "1.4"\nversion = "1.0"\n', "contradicts version"),
        ('schema_version = "2.0"\n', "unsupported task.toml version"),
        ('[environment]\nallowed_hosts = ["pypi.org"]\n', "only valid with network_mode = 'allowlist'"),
        ('[environment]\nnetwork_mode = "allowlist"\nallowed_hosts = ["https://x.org/"]\n', "not an IP address"),
        ('[environment]\nnetwork_mode = "internet"\n', "network_mode"),
        ('[environment]\nos = "macos"\n', "os"),
        ('[environment.tpu]\ntype = "v4"\ntopology = "2by2"\n', "topology"),
        ('[[environment.mcp_servers]]\nname = "x"\n', "needs 'url'"),
        ('[[environment.mcp_servers]]\nname = "x"\ntransport = "stdio"\n', "needs 'command'"),
        ('[verifier]\nenvironment_mode = "shared"\n[verifier.environment]\ncpus = 1\n', "drop"),
        ('artifacts = [{ source = "/a", destination = "../up" }]\n', "destination"),
        ('artifacts = [{ source = "relative" }]\n', "absolute path"),
        ('[[steps]]\nname = "a/b"\n', "name"),
        ('[[steps]]\nname = "a"\nartifacts = ["relative"]\n', "absolute path"),
    ],
)
def test_harbor_values_are_checked(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _parse(text)


def test_verifier_and_phase_networks() -> None:
    config = _fixture("verifier-separate.toml")
    assert config.verifier.environment_mode == "separate"
    assert config.verifier.environment is not None and config.verifier.environment.memory_mb == 1024
    assert config.verifier.user == "0"
    assert config.environment.network_mode == "public"
    assert config.agent.network_mode == "no-network"
    # The agent container has the agent phase's network: the [agent] override narrows the task's.
    assert config.environment.effective_network == "none"
    widened = _parse('[environment]\nnetwork_mode = "no-network"\n[agent]\nnetwork_mode = "public"\n')
    assert widened.environment.effective_network == "bridge"
    shared = _fixture("verifier-shared.toml")
    assert (shared.verifier.environment_mode, shared.verifier.timeout_sec) == ("shared", 450)
    assert (shared.environment.cpus, shared.environment.memory_mb) == (0.5, 512)


def test_artifacts_in_both_forms() -> None:
    config = _fixture("artifacts.toml")
    assert config.artifact_paths == ["/app/out", "/var/log/app", "/data/results.json"]
    table = config.artifacts[1]
    assert isinstance(table, Artifact) and (table.destination, table.exclude) == ("logs/app", ["*.tmp"])
    assert unrunnable(config) == []
    sidecar = _parse('artifacts = [{ source = "/dump.sql", service = "db" }, "/app"]\n')
    assert unrunnable(sidecar) == [] and sidecar.artifact_sources == [("db", "/dump.sql"), ("main", "/app")]
    assert sidecar.artifact_paths == ["/app"]  # the agent container's


def test_artifacts_and_hooks_name_services_the_task_runs(tmp_path: Path) -> None:
    task = write_task(tmp_path, "svc", top='artifacts = [{ source = "/dump.sql", service = "db" }]\n')
    with pytest.raises(TaskInvalidError, match=r"'/dump\.sql' names service 'db', not a service of the task"):
        load_task(task)
    (task / "environment" / "docker-compose.yaml").write_text("services:\n  db:\n    image: lhtb/python:bookworm\n")
    assert load_task(task).config.artifact_sources == [("db", "/dump.sql")]
    text = (task / "task.toml").read_text().replace('service = "db" }]', 'service = "db" }, "/dump.sql"]')
    (task / "task.toml").write_text(text)
    with pytest.raises(TaskInvalidError, match="declared from both 'db' and 'main'"):
        load_task(task)


def test_multi_step_tasks_are_read_with_each_steps_meaning(tmp_path: Path) -> None:
    config = _fixture("multi-step.toml")
    assert config.multi_step_reward_strategy == "final"
    assert config.steps is not None
    first, second = config.steps
    assert (first.name, first.min_reward, first.agent.timeout_sec, first.artifacts) == (
        "scaffold",
        0.5,
        300,
        ["/app/step1"],
    )
    assert second.min_reward == {"correctness": 1.0}
    assert second.healthcheck is not None and second.healthcheck.command == "test -f /app/ready"
    task = write_task(tmp_path, "steps")
    (task / "task.toml").write_text((FIXTURES / "multi-step.toml").read_text())
    with pytest.raises(TaskInvalidError, match=r"steps/scaffold: the directory of step 'scaffold'"):
        load_task(task)
    for step in ("scaffold", "finish"):
        (task / "steps" / step).mkdir(parents=True)
        (task / "steps" / step / "instruction.md").write_text(f"do {step}\n")
    loaded = load_task(task)
    scaffold, finish = (loaded.for_step(name) for name in ("scaffold", "finish"))
    assert (scaffold.config.agent.timeout_sec, finish.config.agent.timeout_sec) == (
        300,
        loaded.config.agent.timeout_sec,
    )
    assert scaffold.config.verifier.timeout_sec == 60 and scaffold.config.artifact_paths == ["/app/step1"]
    assert finish.instruction == "do finish\n" and finish.tests_dir == task / "tests"  # the task's, shared
    assert any("[steps] healthcheck is read but not used" in note for note in loaded.notes)


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        ("network-allowlist.toml", "cannot enforce a host allowlist"),
        ("verifier-collect.toml", r"\[verifier\] collect\[0\] service 'db' is not a service of the task \(main\)"),
    ],
)
def test_what_lhtb_cannot_run_is_refused_when_loaded(tmp_path: Path, fixture: str, message: str) -> None:
    task = write_task(tmp_path, "refused")
    (task / "task.toml").write_text((FIXTURES / fixture).read_text())
    with pytest.raises(TaskInvalidError, match=message) as info:
        load_task(task)
    assert str(task / "task.toml") in str(info.value)


def test_allowlist_is_validated_and_never_widened() -> None:
    config = _fixture("network-allowlist.toml")
    assert config.environment.allowed_hosts == ["pypi.org", "*.pythonhosted.org", "10.0.0.0/8", "2001:db8::1"]
    assert config.environment.effective_network == "none"
    assert _parse('[agent]\nnetwork_mode = "allowlist"\n').environment.effective_network == "none"
    assert unrunnable(_parse('[environment]\nos = "Windows"\n')) == ["os = 'windows': lhtb runs Linux containers only"]


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ("[agent]\ntimout_sec = 5\n", "unknown key 'agent.timout_sec' (did you mean 'timeout_sec'?)"),
        ('[environment]\nnetwork = "public"\n', "unknown key 'environment.network' (did you mean 'network_mode'?)"),
        ("[verifier]\nenvironment_mod = 'shared'\n", "(did you mean 'environment_mode'?)"),
        ("[[verifier.collect]]\ncomand = 'x'\n", "unknown key 'verifier.collect.0.comand' (did you mean 'command'?)"),
        ('[solution]\nenvs = {A = "1"}\n', "unknown key 'solution.envs' (did you mean 'env'?)"),
        (
            'artifacts = [{ source = "/a", exclud = [] }]\n',
            "unknown key 'artifacts.0.exclud' (did you mean 'exclude'?)",
        ),
        ('schema_versio = "1.4"\n', "unknown key 'schema_versio' (did you mean 'schema_version'?)"),
        ('[environment]\nmemroy = "4G"\n', "unknown key 'environment.memroy' (did you mean 'memory'?)"),
        ("[environment]\nzzz = 1\n", "unknown key 'environment.zzz'; "),
    ],
)
def test_unknown_behavioural_keys_are_errors_with_a_suggestion(tmp_path: Path, tables: str, message: str) -> None:
    task = write_task(tmp_path, "typo")
    (task / "task.toml").write_text(tables + "[task]\nname = 'typo'\n" if tables.startswith("[") else tables)
    with pytest.raises(TaskInvalidError) as info:
        load_task(task)
    assert str(task / "task.toml") in str(info.value)
    assert message.rstrip("; ") in str(info.value)


_HARBOR_MEANING = textwrap.dedent(
    """
    import json, sys, tomllib, warnings
    warnings.simplefilter("ignore")  # deprecated keys warn
    from harbor.models.task.config import TaskConfig
    from harbor.models.task.verifier_mode import resolve_step_verifier_mode, resolve_task_verifier_mode

    def meaning(path):
        raw = tomllib.load(open(path, "rb"))
        config = TaskConfig.model_validate(raw)
        env, raw_env = config.environment, raw.get("environment", {})
        out = {
            "agent.timeout_sec": config.agent.timeout_sec,
            "verifier.timeout_sec": config.verifier.timeout_sec,
            "environment.cpus": env.cpus,
            "environment.memory_mb": env.memory_mb,
            "environment.storage_mb": env.storage_mb,
            "environment.gpus": env.gpus,
            "agent.user": config.agent.user,
            "verifier.user": config.verifier.user,
            "agent.network_mode": config.agent.network_mode and config.agent.network_mode.value,
            "environment.allowed_hosts": env.allowed_hosts,
            "artifacts": [a if isinstance(a, str) else a.source for a in config.artifacts],
        }
        if "build_timeout_sec" in raw_env:
            out["environment.build_timeout_sec"] = env.build_timeout_sec
        out["network"] = env.network_mode.value  # Harbor's default (public) when silent: lhtb's too
        out["verifier.environment_mode"] = resolve_task_verifier_mode(config).value  # silent: shared in both
        if config.steps:  # each step as Harbor's trial runs it (trial/multi_step.py, trial/trial.py)
            strategy = config.multi_step_reward_strategy
            out["multi_step_reward_strategy"] = strategy.value if strategy else "mean"
            out["steps"] = [
                {
                    "name": step.name,
                    "agent.timeout_sec": step.agent.timeout_sec if step.agent.timeout_sec is not None
                    else config.agent.timeout_sec,
                    "verifier.timeout_sec": step.verifier.timeout_sec,
                    "verifier.user": step.verifier.user if step.verifier.user is not None else config.verifier.user,
                    "verifier.environment_mode": resolve_step_verifier_mode(config, step).value,
                    "min_reward": step.min_reward,
                    "artifacts": [a if isinstance(a, str) else a.source for a in [*config.artifacts, *step.artifacts]],
                }
                for step in config.steps
            ]
        return out

    print(json.dumps({path: meaning(path) for path in sys.argv[1:]}))
    """
)
# What lhtb runs for each Harbor network policy (an allowlist is refused at load; the model says none).
_LHTB_NETWORK = {"public": "bridge", "no-network": "none", "allowlist": "none"}


def _lhtb_meaning(config: TaskConfig, harbor: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {
        "agent.network_mode": config.agent.network_mode,
        "environment.allowed_hosts": config.environment.allowed_hosts,
        "artifacts": [a if isinstance(a, str) else a.source for a in config.artifacts],
        "network": config.environment.network_mode
        or ("no-network" if config.environment.allow_internet is False else "public"),
        "verifier.environment_mode": config.verifier.mode,
    }
    if config.steps:
        values["multi_step_reward_strategy"] = config.multi_step_reward_strategy or "mean"
        task = Task(
            path=Path("/nonexistent"),
            config=config,
            instruction="",
            steps=tuple(TaskStep(config=step, instruction="") for step in config.steps),
        )
        values["steps"] = [
            {
                "name": step.name,
                "agent.timeout_sec": view.config.agent.timeout_sec,
                "verifier.timeout_sec": view.config.verifier.timeout_sec,
                "verifier.user": view.config.verifier.user,
                "verifier.environment_mode": view.config.verifier.mode,
                "min_reward": step.min_reward,
                "artifacts": [a if isinstance(a, str) else a.source for a in view.config.artifacts],
            }
            for step in config.steps
            for view in [task.for_step(step.name)]
        ]
    for key in harbor:
        if key not in values:
            section, field = key.split(".")
            values[key] = getattr(getattr(config, section), field)
    return {key: values[key] for key in harbor}


@pytest.mark.skipif(not HARBOR_PYTHON.exists(), reason=f"Harbor's venv is absent ({HARBOR_PYTHON}): no cross-check")
def test_harbor_reads_the_same_meaning() -> None:
    files = sorted(str(path) for path in FIXTURES.glob("*.toml"))
    result = subprocess.run(
        [str(HARBOR_PYTHON), "-c", _HARBOR_MEANING, *files],
        capture_output=True,
        text=True,
        timeout=120,
        env={"HARBOR_TELEMETRY": "0", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    compared = 0
    for path, harbor in json.loads(result.stdout).items():
        harbor = {key: value for key, value in harbor.items() if value is not None}  # unset: defaults differ
        for key in ("agent.user", "verifier.user"):
            if key in harbor:
                harbor[key] = str(harbor[key])  # Harbor keeps a uid as an int, lhtb as the string Docker takes
        config = _parse(Path(path).read_text())
        lhtb = _lhtb_meaning(config, harbor)
        for harbor_step, lhtb_step in zip(harbor.get("steps", []), lhtb.get("steps", []), strict=True):
            for key in [key for key, value in harbor_step.items() if value is None]:  # unset: defaults differ
                del harbor_step[key], lhtb_step[key]
            compared += len(harbor_step)
        agent_phase = harbor.get("agent.network_mode", harbor["network"])  # its override, else the task's policy
        assert config.environment.effective_network == _LHTB_NETWORK[agent_phase], path
        assert lhtb == harbor, path
        compared += len(harbor)
    assert compared > 60  # the fixtures set these keys; a silent empty comparison would prove nothing
