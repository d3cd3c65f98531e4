"""What a task's ``environment/docker-compose.yaml`` asks for, checked against what lhtb runs faithfully.

Harbor runs a task's Compose file beside its own: ``main`` is the agent's container, every other service is a
sidecar on the task's network, reachable by its service name. lhtb does the same with the real Docker Compose v2
(src/lhtb/environments/compose_env.py): ``main`` stays lhtb's own container (its image, limits, labels, mounts),
the sidecars are started by Compose on a network lhtb creates for the sandbox. What would break lhtb's
guarantees is refused at load with the file and the key: a sidecar that publishes host ports, joins the host's
namespaces, gains privileges, binds host paths or picks its own networks; named volumes or networks outside the
sandbox; ``main`` settings other than ``network_mode: none`` (no network; then no sidecar either),
``depends_on`` (the sidecars are up before main starts) and ``environment`` (added to the task's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lhtb.errors import TaskInvalidError

COMPOSE_NAMES = ("docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml")
MAX_COMPOSE_BYTES = 256 * 1024

# A sidecar may set these; anything else (ports, network_mode, networks, privileged, cap_add, devices, pid, ipc,
# volumes, userns_mode, security_opt, sysctls, ...) is refused. Limits it leaves out are the task's own.
SIDECAR_KEYS = frozenset(
    {
        "image", "build", "command", "entrypoint", "environment", "env_file", "working_dir", "user", "healthcheck",
        "depends_on", "expose", "tmpfs", "restart", "stop_signal", "stop_grace_period", "init", "hostname",
        "labels", "cpus", "mem_limit", "memswap_limit", "pids_limit", "shm_size", "ulimits", "platform",
        "pull_policy", "read_only", "tty", "stdin_open", "container_name",
    }
)  # fmt: skip
# What a sidecar's `build` may say: no host secrets, SSH agents or contexts beyond environment/.
BUILD_KEYS = frozenset(
    {"context", "dockerfile", "dockerfile_inline", "args", "target", "labels", "shm_size", "cache_from", "pull"}
)
MAIN_KEYS = frozenset({"network_mode", "depends_on", "environment", "build", "image"})
TOP_LEVEL_KEYS = frozenset({"services", "version", "name"})


@dataclass(frozen=True)
class ComposeNeeds:
    path: Path
    no_network: bool  # main: network_mode: none
    sidecars: tuple[str, ...] = ()  # service names other than main, sorted
    main_env: tuple[tuple[str, str], ...] = field(default=())  # main's environment, added to the task's


def compose_file(environment_dir: Path) -> Path | None:
    return next((environment_dir / name for name in COMPOSE_NAMES if (environment_dir / name).is_file()), None)


def _refuse(path: Path, where: str, keys: list[str], why: str) -> None:
    if keys:
        raise TaskInvalidError(f"{path}: {where} sets {', '.join(sorted(keys))}: {why}")


def _environment(path: Path, where: str, value: object) -> dict[str, str]:
    """Compose's two spellings of an environment: a mapping, or a list of ``KEY=VALUE``."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {str(k): "" if v is None else str(v) for k, v in value.items()}
    if isinstance(value, list):
        pairs = [str(item).partition("=") for item in value]
        return {key: rest for key, _eq, rest in pairs}
    raise TaskInvalidError(f"{path}: {where}.environment must be a mapping or a list of KEY=VALUE")


def _inside(root: Path, value: str) -> bool:
    """Whether a path the Compose file names stays in ``root`` (a URL or absolute path does not)."""
    if "://" in value or value.startswith(("git@", "/")):
        return False
    return (root / value).resolve().is_relative_to(root.resolve())


def _check_sidecar(path: Path, name: str, service: Any) -> None:
    where = f"services.{name}"
    if not isinstance(service, dict):
        raise TaskInvalidError(f"{path}: {where} must be a mapping")
    _refuse(
        path,
        where,
        [str(k) for k in service if str(k) not in SIDECAR_KEYS and not str(k).startswith("x-")],
        "lhtb does not let a sidecar reach the host or leave the sandbox's network",
    )
    if "image" not in service and "build" not in service:
        raise TaskInvalidError(f"{path}: {where} has neither image nor build")
    if "container_name" in service:
        raise TaskInvalidError(f"{path}: {where}.container_name: a fixed name would collide between trials")
    _environment(path, where, service.get("environment"))
    build = service.get("build")
    context = build.get("context", ".") if isinstance(build, dict) else build
    if isinstance(build, dict):
        _refuse(
            path,
            f"{where}.build",
            [str(k) for k in build if str(k) not in BUILD_KEYS],
            "a build reads only environment/",
        )
        dockerfile = build.get("dockerfile")
        if dockerfile is not None and not _inside(path.parent / str(context or "."), str(dockerfile)):
            raise TaskInvalidError(
                f"{path}: {where}.build.dockerfile {dockerfile!r}: outside the task's environment/ directory"
            )
    files = service.get("env_file") or []
    for key, value in (("build", context), *(("env_file", f) for f in ([files] if isinstance(files, str) else files))):
        if isinstance(value, dict):
            value = value.get("path")
        if value is not None and not _inside(path.parent, str(value)):
            raise TaskInvalidError(f"{path}: {where}.{key} {value!r}: outside the task's environment/ directory")
    depends = service.get("depends_on") or []
    if "main" in (depends if isinstance(depends, (list, dict)) else []):
        raise TaskInvalidError(f"{path}: {where}.depends_on main: main starts after its sidecars, as lhtb's container")


def read_compose(environment_dir: Path) -> ComposeNeeds | None:
    """None without a Compose file; TaskInvalidError naming the file when lhtb cannot run what it asks for."""
    path = compose_file(environment_dir)
    if path is None:
        return None
    if path.stat().st_size > MAX_COMPOSE_BYTES:
        raise TaskInvalidError(f"{path}: larger than {MAX_COMPOSE_BYTES // 1024} KiB")
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise TaskInvalidError(f"{path}: not valid YAML: {exc}") from None
    services = document.get("services") if isinstance(document, dict) else None
    if not isinstance(services, dict):
        raise TaskInvalidError(f"{path}: 'services' must be a mapping of service names")
    _refuse(
        path,
        "the file",
        [str(k) for k in document if str(k) not in TOP_LEVEL_KEYS and not str(k).startswith("x-")],
        "lhtb runs only services (named volumes and networks would outlive or widen the sandbox)",
    )
    sidecars = sorted(str(name) for name in services if name != "main")
    for name in sidecars:
        _check_sidecar(path, name, services[name])
    main = services.get("main") or {}
    if not isinstance(main, dict):
        raise TaskInvalidError(f"{path}: services.main must be a mapping")
    _refuse(
        path,
        "services.main",
        [str(k) for k in main if str(k) not in MAIN_KEYS],
        "lhtb runs main as its own container (only network_mode: none, depends_on and environment apply)",
    )
    if "image" in main:  # a build of main is the one lhtb makes anyway, from environment/Dockerfile
        raise TaskInvalidError(f"{path}: services.main.image: main is built from environment/Dockerfile")
    mode = main.get("network_mode")
    if mode not in (None, "none"):
        raise TaskInvalidError(f"{path}: services.main.network_mode {mode!r}: lhtb applies only 'none' from Compose")
    if mode == "none" and sidecars:
        raise TaskInvalidError(
            f"{path}: services.main.network_mode none with sidecars ({', '.join(sidecars)}): main could not reach them"
        )
    main_env = _environment(path, "services.main", main.get("environment"))
    return ComposeNeeds(
        path=path, no_network=mode == "none", sidecars=tuple(sidecars), main_env=tuple(sorted(main_env.items()))
    )
