"""Trials on a Ray cluster: each one a Ray task on a node with a Docker engine, its directory shipped back here.

The job stays on the submitting machine: its directory, config, retries, resume and report are the job
runner's, unchanged. A trial asks Ray for one ``lhtb_docker`` slot plus its task's cpus and memory; the node
runs it with the same lifecycle as a local job (lhtb.jobs.ray_node) and streams its phases and files here,
where they land atomically. A trial lost with its node (worker killed, raylet gone) comes back as a
retryable infrastructure error — never scored, and never run twice to a result: the stream of a lost attempt
is dropped before the retry starts. See docs/distributed.md.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import tempfile
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lhtb.environments.tarsafe import tar_directory
from lhtb.errors import ERROR_POLICY, ConfigError, ErrorClass
from lhtb.fs import write_model_atomic
from lhtb.jobs.ray_node import NodeTrial, tree_digest
from lhtb.jobs.trial_sync import apply_batch
from lhtb.results.models import ErrorInfo, TrialResult
from lhtb.trial.background import Background

if TYPE_CHECKING:
    from lhtb.tasks.loader import Task
    from lhtb.trial.lifecycle import PhaseCallback, TrialPlan

RAY_VERSION = "2.60.0"  # pinned in pyproject.toml; a node with another Ray cannot join the cluster anyway
DOCKER_RESOURCE = "lhtb_docker"  # a node's trial slots: `ray start ... --resources '{"lhtb_docker": 2}'`
TaskShipping = Literal["ship", "shared"]
# Environment variables the trials' agents may need (model keys and endpoints, lhtb's own settings): passed
# to every worker in the job's runtime environment, never written to a result file.
_FORWARDED = re.compile(
    r"^(LHTB_|OPENAI_|ANTHROPIC_|AZURE_|GEMINI_|GOOGLE_|VERTEX|MISTRAL_|GROQ_|TOGETHER|DEEPSEEK_|XAI_|OPENROUTER_"
    r"|HF_|HUGGINGFACE|COHERE_|FIREWORKS_|AWS_|LITELLM_)|(_API_KEY|_API_BASE|_BASE_URL|_API_VERSION)$"
)
_NOT_FORWARDED = frozenset({"LHTB_RAY_CACHE"})  # a node's own setting
_LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"  # "0": Ray's addresses are 127.0.0.1 (a one-machine cluster)
_STALE_ADDRESS_FILE = Path(tempfile.gettempdir(), "ray", "ray_current_cluster")
TEARDOWN_WAIT_SEC = 120.0  # container removal on a loaded node; past it the trial's result stands without it


def forwarded_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    source = os.environ if environ is None else environ
    return {k: v for k, v in source.items() if _FORWARDED.search(k) and k not in _NOT_FORWARDED}


def _auto_address() -> str | None:
    """The address ``ray start`` recorded on this machine (or RAY_ADDRESS), if a cluster answers there."""
    address = os.environ.get("RAY_ADDRESS") or ""
    if not address and _STALE_ADDRESS_FILE.is_file():
        address = _STALE_ADDRESS_FILE.read_text(encoding="utf-8").strip()
    return address if address and _answers(address) else None


def _answers(address: str) -> bool:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=3):
            return True
    except (OSError, ValueError):
        return False


def _loopback(address: str) -> bool:
    host = address.removeprefix("ray://").rpartition(":")[0].strip("[]")
    return host == "localhost" or host == "::1" or host.startswith("127.")


def _describe(exc: BaseException) -> str:
    import ray.exceptions

    if isinstance(exc, ray.exceptions.NodeDiedError | ray.exceptions.WorkerCrashedError):
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"the Ray node running the trial was lost ({type(exc).__name__}: {first[:300]})"
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = exc.cause if exc.cause is not None else exc
        return f"lhtb failed on the Ray node: {type(cause).__name__}: {str(cause)[:500]}"
    return f"{type(exc).__name__}: {str(exc)[:500]}"


def _run_on_node(trial: NodeTrial, archive: bytes | None, mailbox: Any) -> Any:
    from lhtb.jobs.ray_node import trial_updates

    def post(batch: bytes | None) -> None:
        mailbox.post.remote(trial.teardown_key, batch)

    yield from trial_updates(trial, archive, on_teardown=post)


def _node_facts() -> tuple[str, str, int]:
    """A node's id and lhtb; importing what a trial needs now spares the first trial a cold worker."""
    import ray

    import lhtb
    import lhtb.jobs.ray_node
    from lhtb.environments import default_provider
    from lhtb.verifier import VERIFIER_PROTOCOL

    default_provider()  # the Docker provider's modules

    return ray.get_runtime_context().get_node_id(), lhtb.__version__, VERIFIER_PROTOCOL


class _Mailbox:
    """Where nodes leave the teardown files of finished trials (their Ray tasks have ended by then); an actor
    on the submitting machine's node."""

    def __init__(self) -> None:
        self._items: dict[str, bytes | None] = {}
        self._arrived: dict[str, asyncio.Event] = {}

    def _event(self, key: str) -> asyncio.Event:
        return self._arrived.setdefault(key, asyncio.Event())

    async def post(self, key: str, batch: bytes | None) -> None:
        self._items[key] = batch
        self._event(key).set()

    async def take(self, key: str, timeout: float) -> tuple[bool, bytes | None]:
        try:
            await asyncio.wait_for(self._event(key).wait(), timeout)
        except TimeoutError:
            return False, None
        self._arrived.pop(key, None)
        return True, self._items.pop(key, None)


def _gc_on_node(job: str | None, everything: bool, images: bool, dry_run: bool) -> NodeGc:
    """On one node: remove the job's containers whose owner died (``everything``: all the job still has)."""
    import ray

    from lhtb.environments import default_provider
    from lhtb.environments.gc import collect

    node = ray.get_runtime_context().get_node_id()
    if everything:
        return NodeGc(node, [f"{default_provider().remove_owned(job=job)} of job {job}"], [])
    report = collect(job=job, images=images, dry_run=dry_run)
    return NodeGc(node, report.containers + report.networks, report.images)


@dataclass(frozen=True)
class NodeGc:
    node_id: str
    removed: list[str]  # containers and sandbox networks
    images: list[str]


class RayExecutor:
    """Places trials on a Ray cluster (``address``: ``auto`` joins the cluster ``ray start`` made on this
    machine or starts a private one on loopback; ``host:port`` joins that one)."""

    def __init__(
        self,
        address: str,
        *,
        slots: int = 1,
        tasks: TaskShipping = "ship",
        sync_interval_sec: float = 10.0,
        log: Any = None,
    ) -> None:
        self.address = address
        self.slots = slots
        self.tasks = tasks
        self.sync_interval_sec = sync_interval_sec
        self.background = Background()
        self._log = log or (lambda _message: None)
        self._archives: dict[str, tuple[str, Any]] = {}  # task path -> (digest, object ref of its tar)
        self._connected_here = False
        self._remote: Any = None
        self._gc_remote: Any = None
        self._mailbox: Any = None
        self.joined: str = ""  # the cluster address in use, once connected

    # -- connection -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        await asyncio.to_thread(self._connect)

    def _connect(self) -> None:
        address = self.address
        if address == "auto":
            address = _auto_address() or ""
        elif not address.startswith("ray://") and not _answers(address):
            raise ConfigError(f"--ray {address}: no Ray cluster answers there")
        if not address or _loopback(address):
            # Read when Ray is imported. A private cluster binds to 127.0.0.1 only; and without it Ray would
            # turn a loopback address into this machine's network address, where a loopback cluster is not.
            os.environ.setdefault(_LOOPBACK_ENV, "0")
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            import ray
        except ImportError as exc:
            raise ConfigError(f"--ray needs Ray: pip install 'lhtb[ray]' (ray=={RAY_VERSION})") from exc
        if ray.is_initialized():
            raise ConfigError("--ray: this process is already connected to a Ray cluster")
        env_vars = forwarded_env()
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,  # the workers' output stays in the node's Ray logs, not in the live table
            "logging_level": logging.ERROR,
            "runtime_env": {"env_vars": env_vars} if env_vars else None,
        }
        # In a worker thread (start() runs it so): Ray then leaves the job's SIGINT/SIGTERM handling alone.
        try:
            if address:
                ray.init(address=address, **options)
            else:  # as many trial slots as the job's concurrency
                ray.init(num_cpus=os.cpu_count() or 1, resources={DOCKER_RESOURCE: self.slots}, **options)
        except (OSError, RuntimeError, ValueError, ConnectionError) as exc:
            where = f"join the cluster at {address}" if address else "start a private cluster on this machine"
            raise ConfigError(f"--ray {self.address}: Ray could not {where}: {type(exc).__name__}: {exc}") from exc
        self._connected_here = True
        self.joined = ray.get_runtime_context().gcs_address
        slots = self._cluster_slots()
        if slots < 1:
            raise ConfigError(
                f"--ray {self.address}: no node of the cluster at {self.joined} offers the {DOCKER_RESOURCE} "
                f"resource; start each node that has a Docker engine with "
                f"`ray start --address {self.joined} --resources '{{\"{DOCKER_RESOURCE}\": 2}}'` (docs/distributed.md)"
            )
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self._remote = ray.remote(_run_on_node)
        self._gc_remote = ray.remote(_gc_on_node)
        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=True)
        self._mailbox = ray.remote(_Mailbox).options(num_cpus=0, scheduling_strategy=here).remote()
        self._check_nodes()

    def _check_nodes(self) -> None:
        """Every node with trial slots answers (a worker started there, lhtb imported) with the same lhtb as
        here; one that differs is named now (its trials would be refused and retried elsewhere)."""
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        import lhtb
        from lhtb.verifier import VERIFIER_PROTOCOL

        facts = ray.remote(_node_facts)
        refs = [
            facts.options(
                num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
            ).remote()
            for n in self._docker_nodes()
        ]
        for ref in refs:
            try:
                node, version, protocol = ray.get(ref, timeout=120)
            except Exception as exc:
                self._log(f"a Ray node did not answer: {_describe(exc)}")
                continue
            if (version, protocol) != (lhtb.__version__, VERIFIER_PROTOCOL):
                self._log(
                    f"Ray node {node[:12]} runs lhtb {version} (verifier protocol {protocol}), this machine "
                    f"{lhtb.__version__} ({VERIFIER_PROTOCOL}): its trials will be refused"
                )

    def _docker_nodes(self) -> list[dict[str, Any]]:
        import ray

        return [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get(DOCKER_RESOURCE, 0) >= 1]

    def _cluster_slots(self) -> float:
        return sum(n["Resources"][DOCKER_RESOURCE] for n in self._docker_nodes())

    async def close(self) -> None:
        await self.background.drain()
        if self._connected_here:
            import ray

            await asyncio.to_thread(ray.shutdown)
            self._connected_here = False

    # -- trials ---------------------------------------------------------------------------------------------

    def _infeasible(self, task: Task) -> str | None:
        env = task.config.environment
        memory = env.memory_mb * 2**20
        for node in self._docker_nodes():
            resources = node["Resources"]
            if resources.get("CPU", 0) >= env.cpus and resources.get("memory", 0) >= memory:
                return None
        return (
            f"no node of the Ray cluster has a {DOCKER_RESOURCE} slot with {env.cpus:g} CPU(s) and "
            f"{env.memory_mb} MB of memory, as task {task.name} asks ([environment] cpus / memory_mb)"
        )

    async def _task_archive(self, task: Task) -> tuple[str, Any]:
        """The task directory's digest and, when shipping, its tar in the object store (put once per job)."""
        key = str(task.path)
        if key not in self._archives:
            digest = await asyncio.to_thread(tree_digest, task.path)
            ref = None
            if self.tasks == "ship":
                import ray

                data = await asyncio.to_thread(tar_directory, task.path)
                ref = await asyncio.to_thread(ray.put, data)
            self._archives[key] = (digest, ref)
        return self._archives[key]

    async def run(self, plan: TrialPlan, on_phase: PhaseCallback) -> TrialResult:
        started = datetime.now(UTC)
        name = plan.spec.trial_name
        problem = self._infeasible(plan.task)
        if problem:
            return _error_result(plan, started, ErrorClass.ENVIRONMENT_START, problem)
        digest, archive = await self._task_archive(plan.task)
        node_trial = NodeTrial(
            spec_json=plan.spec.model_dump_json(by_alias=True),
            task=plan.task,
            task_digest=digest,
            shared_path=self.tasks == "shared",
            teardown_key=f"{name}#{plan.spec.retries}#{uuid.uuid4().hex}",
            sync_interval_sec=self.sync_interval_sec,
        )
        env = plan.task.config.environment
        stream = self._remote.options(
            num_cpus=env.cpus,
            memory=env.memory_mb * 2**20,
            resources={DOCKER_RESOURCE: 1},
            max_retries=0,  # a lost trial is retried by the job runner, which archives the lost attempt first
            num_returns="streaming",
        ).remote(node_trial, archive, self._mailbox)
        try:
            async for ref in stream:
                kind, data = await ref
                if kind == "phase":
                    on_phase(name, str(data))
                elif kind == "files":
                    await asyncio.to_thread(apply_batch, plan.trial_dir, data, final=False)
                elif kind == "refused":
                    return _error_result(plan, started, ErrorClass.HARNESS_ERROR, f"Ray node refused: {data}")
                elif kind == "result":
                    await asyncio.to_thread(apply_batch, plan.trial_dir, data, final=True)
                    result = TrialResult.model_validate_json((plan.trial_dir / "result.json").read_text("utf-8"))
                    self.background.spawn(self._teardown(node_trial.teardown_key, plan))
                    return result
        except asyncio.CancelledError:
            await asyncio.to_thread(_cancel, stream)
            raise
        except Exception as exc:  # the node or its worker was lost, or lhtb failed there
            await asyncio.to_thread(_cancel, stream)  # whatever is left of this attempt must not run on
            return _error_result(plan, started, ErrorClass.HARNESS_ERROR, _describe(exc))
        return _error_result(plan, started, ErrorClass.HARNESS_ERROR, "the Ray task ended without a result")

    async def _teardown(self, key: str, plan: TrialPlan) -> None:
        """The files a finished trial's teardown rewrote (its result with the teardown time), once the node has
        removed its containers. A node lost meanwhile loses only that time: the result stands, and its
        containers are collected later."""
        try:
            arrived, batch = await self._mailbox.take.remote(key, TEARDOWN_WAIT_SEC)
        except Exception as exc:
            self._log(f"{plan.spec.trial_name}: teardown not reported ({_describe(exc)})")
            return
        if not arrived:
            self._log(f"{plan.spec.trial_name}: teardown not reported within {TEARDOWN_WAIT_SEC:.0f} s")
        elif batch is not None:
            await asyncio.to_thread(apply_batch, plan.trial_dir, batch, final=False)

    async def settle(self) -> None:
        await self.background.drain()

    # -- garbage --------------------------------------------------------------------------------------------

    async def collect_garbage(self, job: str) -> None:
        await asyncio.to_thread(self.gc_every_node, job, everything=False)

    async def remove_leftovers(self, job: str) -> None:
        if self._gc_remote is not None:
            await asyncio.to_thread(self.gc_every_node, job, everything=True)

    def gc_every_node(
        self, job: str | None, *, everything: bool = False, images: bool = False, dry_run: bool = False
    ) -> list[NodeGc]:
        """Run the garbage collection on every alive node that has a Docker engine, pinned to it."""
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        refs = [
            self._gc_remote.options(
                num_cpus=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
                max_retries=0,
            ).remote(job, everything, images, dry_run)
            for node in self._docker_nodes()
        ]
        reports = []
        for ref in refs:
            try:
                reports.append(ray.get(ref, timeout=120))
            except Exception as exc:  # a node lost meanwhile: its containers go when it returns
                self._log(f"garbage collection on a node failed: {_describe(exc)}")
        return reports


def _cancel(stream: Any) -> None:
    import ray

    try:
        ray.cancel(stream, force=True)
    except Exception:
        logging.getLogger(__name__).debug("cancelling a trial's Ray task failed", exc_info=True)


def _error_result(plan: TrialPlan, started: datetime, error_class: ErrorClass, message: str) -> TrialResult:
    """A trial the cluster could not bring to a result: written like any other, so a retry archives it."""
    result = TrialResult(
        spec=plan.spec,
        started_at=started,
        finished_at=datetime.now(UTC),
        error=ErrorInfo(error_class=error_class, message=message, retryable=ERROR_POLICY[error_class].retry),
    )
    plan.trial_dir.mkdir(parents=True, exist_ok=True)
    write_model_atomic(plan.trial_dir / "result.json", result)
    return result
