"""What running trials through Ray costs against the local executor, on one machine.

A local Ray cluster of a head (no trial slot) and two worker nodes with one ``lhtb_docker`` slot each, all on
127.0.0.1 and sharing this machine's Docker engine. Jobs of N trivial oracle trials (``bench/tasks/trivial``,
attempts 1..N) run alternately through the local executor with ``-n 2`` and through the Ray executor, R rounds,
so drift on the machine hits both sides equally. Reported:

- per-trial overhead of Ray: the submitting side's time for a trial (``executor.run``: placement, the stream,
  the trial directory landing) minus the trial's own time on the node (its result's ``started_at`` to
  ``finished_at``); median and p90 against the 0.15 s target;
- throughput: trials per minute of each job (connection to the cluster excluded and reported apart), the
  ratio Ray / local against the 0.90 target.

    .venv/bin/python bench/ray_overhead.py --n 8 --rounds 2

A benchmark, not a test: the exit code is 0 whatever the figures, non-zero only when something crashed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.update({"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"})  # loopback only

from lhtb.jobs.executor import LocalExecutor, TrialExecutor
from lhtb.jobs.job_runner import JobRunner, new_job_config
from lhtb.jobs.ray_executor import RayExecutor
from lhtb.results.models import AgentSpec, TrialResult
from lhtb.trial.lifecycle import PhaseCallback, TrialPlan

TASK_DIR = Path(__file__).resolve().parent / "tasks" / "trivial"
OVERHEAD_TARGET_SEC = 0.15
THROUGHPUT_TARGET = 0.90


class Timed:
    """An executor whose ``run`` is timed from the submitting side."""

    def __init__(self, inner: TrialExecutor) -> None:
        self.inner = inner
        self.overheads: list[float] = []

    async def start(self) -> None:
        await self.inner.start()

    async def run(self, plan: TrialPlan, on_phase: PhaseCallback) -> TrialResult:
        started = time.monotonic()
        result = await self.inner.run(plan, on_phase)
        outside = time.monotonic() - started
        self.overheads.append(outside - (result.finished_at - result.started_at).total_seconds())
        return result

    async def settle(self) -> None:
        await self.inner.settle()

    async def collect_garbage(self, job: str) -> None:
        await self.inner.collect_garbage(job)

    async def remove_leftovers(self, job: str) -> None:
        await self.inner.remove_leftovers(job)

    async def close(self) -> None:
        await self.inner.close()


async def one_job(executor: Timed, jobs: Path, name: str, n: int) -> dict[str, Any]:
    config = new_job_config(
        TASK_DIR, None, [AgentSpec(name="oracle")], job_name=name, attempts=n, concurrency=2, max_retries=0,
        verify_seed=1,
    )  # fmt: skip
    connect_started = time.monotonic()
    await executor.start()
    connected = time.monotonic()
    runner = JobRunner(config, jobs, executor=executor)
    try:
        job = await runner.run()
    finally:
        ran = time.monotonic()
        await executor.remove_leftovers(name)
        await executor.close()
    rewards = [a.mean_reward for a in job.agents]
    if job.n_finished != n or rewards != [1.0]:
        raise SystemExit(f"{name}: {job.n_finished}/{n} trials, mean reward {rewards}: not a clean run")
    return {"connect_sec": connected - connect_started, "run_sec": ran - connected}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=8, help="trials per job")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False, "node_ip_address": "127.0.0.1"},
    )
    for _ in range(2):
        cluster.add_node(num_cpus=2, resources={"lhtb_docker": 1}, node_ip_address="127.0.0.1")
    cluster.wait_for_nodes()
    samples: dict[str, list[dict[str, Any]]] = {"local": [], "ray": []}
    overheads: dict[str, list[float]] = {"local": [], "ray": []}
    try:
        with tempfile.TemporaryDirectory(prefix="lhtb-bench-ray-") as scratch:
            jobs = Path(scratch)
            asyncio.run(one_job(Timed(LocalExecutor()), jobs, "warm", 2))  # the task image, built once
            for round_ in range(args.rounds):
                for side in ("local", "ray"):
                    inner: TrialExecutor = LocalExecutor() if side == "local" else RayExecutor(cluster.address)
                    timed = Timed(inner)
                    figures = asyncio.run(one_job(timed, jobs, f"{side}-{round_}", args.n))
                    samples[side].append(figures)
                    overheads[side].extend(timed.overheads)
                    print(f"round {round_} {side}: {args.n} trials in {figures['run_sec']:.2f} s", flush=True)
    finally:
        cluster.shutdown()

    def rate(side: str) -> float:
        return 60 * args.n * len(samples[side]) / sum(s["run_sec"] for s in samples[side])

    ray_overhead = sorted(overheads["ray"])
    report = {
        "cluster": "head (1 CPU, no slot) + 2 worker nodes (2 CPUs, lhtb_docker=1 each), 127.0.0.1, one Docker",
        "trials_per_job": args.n,
        "rounds": args.rounds,
        "ray_overhead_median_sec": round(statistics.median(ray_overhead), 4),
        "ray_overhead_p90_sec": round(ray_overhead[int(0.9 * (len(ray_overhead) - 1))], 4),
        "local_overhead_median_sec": round(statistics.median(overheads["local"]), 4),
        "local_trials_per_min": round(rate("local"), 2),
        "ray_trials_per_min": round(rate("ray"), 2),
        "throughput_ratio": round(rate("ray") / rate("local"), 3),
        "ray_connect_sec_median": round(statistics.median(s["connect_sec"] for s in samples["ray"]), 2),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report, indent=2))
    verdict = (
        f"overhead median {report['ray_overhead_median_sec']:.3f} s (target <= {OVERHEAD_TARGET_SEC}); "
        f"throughput ratio {report['throughput_ratio']:.3f} (target >= {THROUGHPUT_TARGET})"
    )
    print(verdict)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
