"""Where trials run: the Environment protocol, its Docker implementation, base images and garbage collection."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lhtb.environments.base import EnvironmentProvider


def default_provider() -> EnvironmentProvider:
    """The local Docker engine: what a job uses unless it is handed another provider."""
    from lhtb.environments.docker_env import DockerProvider  # lazy: keeps `lhtb --help` fast

    return DockerProvider()
