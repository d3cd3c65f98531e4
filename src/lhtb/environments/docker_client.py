"""One shared Docker Engine API client per process, with a clear error when no engine is running."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypeVar

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

_T = TypeVar("_T")
# Engine calls block a thread for as long as they last (an exec's output stream: the whole command). On the loop's
# default executor (cpus + 4 threads: 6 on two cores) a few long commands held every thread, so the kill of a
# timed-out command and container removals on Ctrl-C queued behind them. Threads are made only when needed.
_ENGINE_THREADS = ThreadPoolExecutor(max_workers=256, thread_name_prefix="lhtb-engine")


async def in_engine_thread(fn: Callable[..., _T], /, *args: object) -> _T:
    """``asyncio.to_thread`` on the engine's own pool (context variables carried, like ``to_thread``)."""
    call = functools.partial(contextvars.copy_context().run, fn, *args)
    return await asyncio.get_running_loop().run_in_executor(_ENGINE_THREADS, call)


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
