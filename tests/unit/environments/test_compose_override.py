"""The Compose override lhtb writes for a sandbox's sidecars: its network only, lhtb's labels, the task's limits
where a service sets none, and a main that Compose can never start."""

from __future__ import annotations

from pathlib import Path

from lhtb.environments.base import ContainerSpec, Sidecars
from lhtb.environments.compose_env import _services, network_name, override, project_name

COMPOSE = """\
services:
  db:
    image: lhtb/python:bookworm
    mem_limit: 64m
  cache:
    build: ./cache
  main:
    depends_on: [db]
"""


def _spec(tmp_path: Path) -> ContainerSpec:
    path = tmp_path / "docker-compose.yaml"
    path.write_text(COMPOSE)
    return ContainerSpec(
        image="lhtb-task/t:abc",
        name="lhtb-Task.One__oracle__1-agent-1a2b3c",
        job="job",
        trial="trial",
        role="agent",
        cpus=1.5,
        memory_mb=512,
        pids_limit=100,
        sidecars=Sidecars(compose_file=str(path), services=("cache", "db"), internal=True, timeout_sec=60),
    )


def test_sidecars_join_only_the_sandbox_network_with_labels_and_the_tasks_limits(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    services = _services(str(tmp_path / "docker-compose.yaml"))
    out = override(spec, spec.sidecars, {"lhtb.managed": "1", "lhtb.role": "agent"}, services)  # type: ignore[arg-type]
    assert out["networks"] == {"sandbox": {"external": True, "name": network_name(spec)}}
    db, cache = out["services"]["db"], out["services"]["cache"]
    assert db["networks"] == cache["networks"] == ["sandbox"]
    assert db["labels"] == {"lhtb.managed": "1", "lhtb.role": "sidecar", "lhtb.service": "db"}
    assert "mem_limit" not in db and db["cpus"] == 1.5 and db["pids_limit"] == 100  # its own memory limit stays
    assert cache["mem_limit"] == "512m"
    assert out["services"]["main"] == {"image": "lhtb-task/t:abc", "profiles": ["lhtb-main-runs-outside-compose"]}


def test_project_names_are_what_compose_accepts(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    assert project_name(spec) == "lhtb-task-one__oracle__1-agent-1a2b3c"
    assert network_name(spec) == project_name(spec) + "-net"
