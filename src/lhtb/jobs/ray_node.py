"""What a cluster node does with one trial (the body of the Ray task; plain Python, testable without Ray).

The node gets the trial's spec and task as the submitting machine made them, a copy of the task directory (or
a path every node shares), and runs the trial exactly as a local job does — same lifecycle, same Docker
provider, the image built or reused on this node by its content hash — into a scratch directory. What it
reports is a stream of updates: phases and changed files while the trial runs, and the whole trial directory
when its reward is known. The stream (and the Ray task, and its slot) ends there: container removal goes on
beside the node's next trial, as it does beside a local job's, and its files (the result with the teardown
time) are handed to ``on_teardown``.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import lhtb
from lhtb.environments.tarsafe import safe_extract
from lhtb.jobs.trial_sync import DirTracker
from lhtb.results.models import TrialSpec
from lhtb.tasks.loader import Task
from lhtb.trial.background import Background
from lhtb.trial.lifecycle import TrialPlan, run_trial
from lhtb.verifier import VERIFIER_PROTOCOL

if TYPE_CHECKING:
    from lhtb.environments.base import EnvironmentProvider

# "phase" (str), "files" (a tar of changed files), "result" (a tar of the whole trial directory: the last update),
# "refused" (str: this node cannot run the trial).
UpdateKind = Literal["phase", "files", "result", "refused"]
Update = tuple[UpdateKind, str | bytes]
Teardown = Callable[[bytes | None], None]  # the files container removal rewrote (None: nothing, or it failed)
CACHE_ENV = "LHTB_RAY_CACHE"  # where a node keeps task copies and scratch trial directories


@dataclass(frozen=True)
class NodeTrial:
    """Everything a node needs for one trial, made on the submitting machine."""

    spec_json: str  # the TrialSpec, exactly the trial's config.json
    task: Task  # as loaded (and --base-image substituted) there; its path is the submitter's
    task_digest: str  # tree_digest of the task directory
    shared_path: bool  # True: every node sees the task directory at the submitter's path
    teardown_key: str = ""  # where the submitter waits for the teardown's files (one per attempt)
    lhtb_version: str = lhtb.__version__
    verifier_protocol: int = VERIFIER_PROTOCOL
    sync_interval_sec: float = 10.0


def tree_digest(root: Path) -> str:
    """A hash of every path, mode and byte under ``root``: the same task directory on any machine."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_symlink():
            digest.update(f"L {relative} -> {os.readlink(path)}\n".encode())
        elif path.is_file():
            digest.update(f"F {relative} {path.stat().st_mode & 0o777}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        elif path.is_dir():
            digest.update(f"D {relative}\n".encode())
    return digest.hexdigest()


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir(), "lhtb-ray"))


def materialise_task(trial: NodeTrial, archive: bytes | None) -> Path:
    """The node's copy of the task directory: the shared path (checked to hold the same content), or the
    shipped archive unpacked once per content digest (atomically: concurrent trials on one node share it)."""
    if trial.shared_path:
        path = trial.task.path
        if not path.is_dir():
            raise NodeRefusal(f"task directory {path} is not on this node (shared-path mode needs it at that path)")
        if tree_digest(path) != trial.task_digest:
            raise NodeRefusal(f"task directory {path} on this node differs from the submitter's copy")
        return path
    if archive is None:
        raise NodeRefusal("no task archive was shipped")
    target = cache_root() / "tasks" / trial.task_digest / trial.task.path.name
    if target.is_dir():
        return target
    target.parent.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent.parent))
    try:
        safe_extract(archive, staging / trial.task.path.name)
        if tree_digest(staging / trial.task.path.name) != trial.task_digest:
            raise NodeRefusal("the shipped task archive does not match its digest")
        try:
            staging.rename(target.parent)
        except OSError:  # another trial unpacked it first
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


async def _orphaned(parent: int) -> None:
    while os.getppid() == parent:
        await asyncio.sleep(1.0)


class NodeLost(Exception):
    """The node this trial ran on left the cluster; the trial is retried elsewhere."""


class NodeRefusal(Exception):
    """This node cannot run the trial (another lhtb, no copy of the task): an infrastructure error, retried."""


def _refusal(trial: NodeTrial) -> str | None:
    if trial.lhtb_version != lhtb.__version__ or trial.verifier_protocol != VERIFIER_PROTOCOL:
        return (
            f"this node runs lhtb {lhtb.__version__} (verifier protocol {VERIFIER_PROTOCOL}), the submitter "
            f"{trial.lhtb_version} ({trial.verifier_protocol}): install the same lhtb on every node"
        )
    return None


def trial_updates(
    trial: NodeTrial,
    archive: bytes | None,
    provider_factory: Callable[[], EnvironmentProvider] | None = None,
    on_teardown: Teardown | None = None,
) -> Iterator[Update]:
    """Run the trial on this node and yield its updates, ending with "result"; the trial runs on its own thread
    and event loop (a slow consumer never pauses it), which goes on after the last update to remove the
    trial's containers, then calls ``on_teardown`` and removes the scratch directory."""
    refusal = _refusal(trial)
    if refusal:
        yield ("refused", refusal)
        return
    try:
        task_dir = materialise_task(trial, archive)
    except NodeRefusal as exc:
        yield ("refused", str(exc))
        return
    spec = TrialSpec.model_validate_json(trial.spec_json)
    scratch_parent = cache_root() / "trials"
    scratch_parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="trial-", dir=scratch_parent))
    plan = TrialPlan(spec=spec, task=trial.task.moved_to(task_dir), trial_dir=scratch / "trial")
    updates: queue.Queue[Update | BaseException | None] = queue.Queue()
    # A Ray worker's parent is its node's raylet: when it dies, the node is lost to the cluster and the trial
    # must stop here too (containers removed), or it would run on beside its retry elsewhere.
    parent = os.getppid()
    runner = threading.Thread(
        target=_run,
        args=(plan, trial.sync_interval_sec, updates.put, provider_factory, parent, on_teardown, scratch),
        daemon=True,
    )
    runner.start()
    while (item := updates.get()) is not None:
        if isinstance(item, BaseException):
            runner.join()
            raise item
        yield item
        if item[0] == "result":
            return


def _run(
    plan: TrialPlan,
    sync_sec: float,
    put: Callable[[Update | BaseException | None], None],
    provider_factory: Callable[[], EnvironmentProvider] | None,
    parent: int,
    on_teardown: Teardown | None,
    scratch: Path,
) -> None:
    try:
        asyncio.run(_drive(plan, sync_sec, put, provider_factory, parent, on_teardown))
    except BaseException as exc:  # a bug here must reach the submitter as an error, not hang the stream
        put(exc)
    finally:
        put(None)
        shutil.rmtree(scratch, ignore_errors=True)


async def _drive(
    plan: TrialPlan,
    sync_sec: float,
    put: Callable[[Update | BaseException | None], None],
    provider_factory: Callable[[], EnvironmentProvider] | None,
    parent: int,
    on_teardown: Teardown | None,
) -> None:
    from lhtb.environments import default_provider

    provider = (provider_factory or default_provider)()
    # Containers of this job whose owner died on this node (a trial lost with its raylet, a killed job) go now.
    await asyncio.to_thread(provider.collect_garbage, job=plan.spec.job_name)
    tracker = DirTracker(plan.trial_dir)

    def ship_changes() -> None:
        batch = tracker.changed()
        if batch is not None:
            put(("files", batch))

    def on_phase(_trial: str, phase: str) -> None:
        put(("phase", phase))
        ship_changes()

    async def periodically() -> None:
        while True:
            await asyncio.sleep(sync_sec)
            await asyncio.to_thread(ship_changes)

    background = Background()
    syncing = asyncio.ensure_future(periodically())
    running = asyncio.ensure_future(run_trial(plan, background, on_phase, provider))
    watch = asyncio.ensure_future(_orphaned(parent))
    try:
        await asyncio.wait({running, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        syncing.cancel()
        watch.cancel()
    if not running.done():
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await background.drain()  # the cancelled trial's containers are removed
        raise NodeLost("the node's raylet is gone: the trial was stopped there and its containers removed")
    put(("result", await asyncio.to_thread(tracker.everything)))
    batch = None
    try:
        await background.drain()  # container removal, then result.json rewritten with the teardown time
        batch = await asyncio.to_thread(tracker.changed, include_result=True)
    finally:
        if on_teardown is not None:
            on_teardown(batch)
