"""What a task's ``environment/docker-compose.yaml`` asks for, and whether lhtb can run it faithfully yet.

Harbor runs a task's Compose file beside its own (``main`` is the agent's container, other services are sidecars
on the task's network). lhtb does not run Compose services yet, so a task that needs one is refused at load with
the reason, never run without its services. The one form lhtb honours is ``main`` with ``network_mode: none``
alone (what ``lhtb tasks export --harbor`` writes for a task without network): the task then has no network.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from lhtb.errors import TaskInvalidError

COMPOSE_NAMES = ("docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml")
MAX_COMPOSE_BYTES = 256 * 1024


@dataclass(frozen=True)
class ComposeNeeds:
    path: Path
    no_network: bool  # main: network_mode: none


def compose_file(environment_dir: Path) -> Path | None:
    return next((environment_dir / name for name in COMPOSE_NAMES if (environment_dir / name).is_file()), None)


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
    sidecars = sorted(str(name) for name in services if name != "main")
    if sidecars:
        raise TaskInvalidError(
            f"{path}: services {', '.join(sidecars)}: lhtb does not run Compose sidecars yet (it would run the "
            "task without them)"
        )
    main = services.get("main") or {}
    other = sorted(str(key) for key in (main if isinstance(main, dict) else {}) if key != "network_mode")
    if other or not isinstance(main, dict):
        raise TaskInvalidError(
            f"{path}: services.main sets {', '.join(other) or 'a non-mapping'}: lhtb does not apply Compose "
            "settings yet (only network_mode: none)"
        )
    mode = main.get("network_mode")
    if mode not in (None, "none"):
        raise TaskInvalidError(f"{path}: services.main.network_mode {mode!r}: lhtb applies only 'none' from Compose")
    return ComposeNeeds(path=path, no_network=mode == "none")
