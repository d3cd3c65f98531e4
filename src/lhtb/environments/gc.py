"""Find and remove containers, sandbox networks and snapshot images left behind by jobs whose process is gone."""

from __future__ import annotations

import contextlib
import os
import socket
from dataclasses import dataclass, field

from lhtb.environments.docker_client import (
    LABEL_JOB,
    LABEL_MANAGED,
    LABEL_OWNER_HOST,
    LABEL_OWNER_PID,
    LABEL_ROLE,
    get_client,
)
from lhtb.environments.docker_env import SNAPSHOT_REPO, SNAPSHOT_ROLE, remove_container, remove_image
from lhtb.environments.images import TASK_IMAGE_REPO


@dataclass
class GcReport:
    containers: list[str]
    images: list[str]
    networks: list[str] = field(default_factory=list)  # sandbox networks of tasks with Compose sidecars


def _owner_alive(labels: dict[str, str]) -> bool:
    if labels.get(LABEL_OWNER_HOST) != socket.gethostname():
        return True  # another machine's job: not ours to judge
    try:
        os.kill(int(labels.get(LABEL_OWNER_PID, "0")), 0)
    except (ProcessLookupError, ValueError):
        return False
    except PermissionError:
        return True
    return int(labels.get(LABEL_OWNER_PID, "0")) > 0


def remove_containers(*, job: str | None = None, owner_pid: int | None = None) -> int:
    containers = get_client().api.containers(all=True, filters={"label": _managed(job)})
    removed = 0
    for container in containers:
        labels = container.get("Labels") or {}
        if owner_pid is not None and labels.get(LABEL_OWNER_PID) != str(owner_pid):
            continue
        remove_container(container["Id"])
        removed += 1
    for snapshot in _snapshots(job):
        if owner_pid is None or (snapshot.get("Labels") or {}).get(LABEL_OWNER_PID) == str(owner_pid):
            remove_image(snapshot["Id"])
    for network in _networks(job):
        if owner_pid is None or (network.get("Labels") or {}).get(LABEL_OWNER_PID) == str(owner_pid):
            _remove_network(network["Id"])
    return removed


def _managed(job: str | None) -> list[str]:
    """The label filter of what lhtb made: all of it, or one job's."""
    return [f"{LABEL_MANAGED}=1"] + ([f"{LABEL_JOB}={job}"] if job else [])


def _snapshots(job: str | None) -> list[dict]:
    """Images committed for a sibling verifier (role ``snapshot``); never a task image."""
    return list(get_client().api.images(filters={"label": [*_managed(job), f"{LABEL_ROLE}={SNAPSHOT_ROLE}"]}))


def _networks(job: str | None) -> list[dict]:
    return list(get_client().api.networks(filters={"label": _managed(job)}))


def _remove_network(network_id: str) -> None:
    """Remove a sandbox network; one still in use (its sandbox alive elsewhere, or mid-teardown) is left."""
    import docker

    with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):
        get_client().api.remove_network(network_id)


def collect(*, images: bool = False, dry_run: bool = False, job: str | None = None) -> GcReport:
    """Containers whose owning lhtb process is dead (of one job, or all); with ``images``, cached task images."""
    client = get_client()
    report = GcReport(containers=[], images=[])
    for container in client.api.containers(all=True, filters={"label": _managed(job)}):
        labels = container.get("Labels") or {}
        if _owner_alive(labels):
            continue
        report.containers.append((container.get("Names") or [container["Id"][:12]])[0].lstrip("/"))
        if not dry_run:
            remove_container(container["Id"])
    for network in _networks(job):
        if _owner_alive(network.get("Labels") or {}):
            continue
        report.networks.append(str(network.get("Name") or network["Id"][:12]))
        if not dry_run:
            _remove_network(network["Id"])
    for snapshot in _snapshots(job):  # a sibling verifier's image, left behind
        if _owner_alive(snapshot.get("Labels") or {}):
            continue
        report.images.append(f"{SNAPSHOT_REPO} {str(snapshot['Id']).removeprefix('sha256:')[:12]}")
        if not dry_run:
            remove_image(snapshot["Id"])
    if images:
        for image in client.images.list(name=TASK_IMAGE_REPO + "/*"):
            for tag in image.tags:
                report.images.append(tag)
                if not dry_run:
                    client.images.remove(tag, force=False, noprune=False)
    return report
