"""One shared Docker Engine API client per process, with a clear error when no engine is running."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from lhtb.errors import EnvironmentStartError

if TYPE_CHECKING:
    import docker

LABEL_MANAGED = "lhtb.managed"
LABEL_JOB = "lhtb.job"
LABEL_TRIAL = "lhtb.trial"
LABEL_ROLE = "lhtb.role"
LABEL_OWNER_PID = "lhtb.owner-pid"
LABEL_OWNER_HOST = "lhtb.owner-host"
LABEL_CONTENT_HASH = "lhtb.content-hash"


@functools.cache
def get_client() -> docker.DockerClient:
    import docker  # lazy: keeps `lhtb --help` fast

    try:
        client = docker.from_env(timeout=600, max_pool_size=64)
        client.ping()
    except docker.errors.DockerException as exc:
        raise EnvironmentStartError(
            f"cannot reach the Docker engine ({exc}); start it with `dockerd &` or run scripts/setup.sh"
        ) from exc
    return client
