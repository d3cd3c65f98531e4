"""Per-trial overhead of lhtb against a raw replay of the same container operations with the docker CLI.

Runs N trivial oracle trials through lhtb's real trial code path (``run_trial`` with a ``Background``, as
``JobRunner`` calls it) and N raw replays, alternating A B A B so drift on the machine hits both sides
equally, then prints medians, p90s and the ratio of medians against the 1.2x target.

    .venv/bin/python bench/trial_overhead.py --n 10

A benchmark, not a test: the exit code is 0 whatever the ratio, non-zero only when something crashed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.environments import default_provider
from lhtb.environments.images import ensure_task_image
from lhtb.jobs.layout import JobLayout, trial_name
from lhtb.results.models import AgentSpec
from lhtb.tasks.loader import Task, load_task
from lhtb.trial.background import Background
from lhtb.trial.lifecycle import TrialPlan, run_trial

TASK_DIR = Path(__file__).resolve().parent / "tasks" / "trivial"
TARGET_RATIO = 1.2
PHASES = ("build", "start", "agent_setup", "agent", "verifier", "teardown")
BENCH_LABEL = "lhtb.bench"  # on every raw container, so cleanup finds them even after a crash


@dataclass
class Samples:
    """Wall seconds per trial, by series name, plus lhtb's own per-phase timings from result.json."""

    series: dict[str, list[float]] = field(default_factory=dict)
    phases: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.series.setdefault(name, []).append(seconds)


# ---- lhtb side ---------------------------------------------------------------------------------------------


class LhtbSide:
    """Trials through ``lhtb.trial.lifecycle.run_trial``, each with a fresh trial directory under ``jobs_dir``."""

    def __init__(self, task: Task, jobs_dir: Path, job_name: str) -> None:
        self.task = task
        self.job_name = job_name
        self.layout = JobLayout(jobs_dir / job_name)
        self.agent = AgentSpec(name="oracle")
        self.count = 0

    def _plan(self) -> TrialPlan:
        self.count += 1
        name = trial_name(self.task.name, self.agent, self.count)
        return TrialPlan.new(
            self.task,
            self.layout.trial_dir(name),
            job_name=self.job_name,
            trial_name=name,
            agent=self.agent,
            attempt=self.count,
            agent_timeout_sec=self.task.config.agent.timeout_sec,
        )

    async def trial(self) -> tuple[float, float, dict[str, float | None]]:
        """Seconds until result.json is written, seconds until teardown drained, and the phase timings."""
        plan = self._plan()
        background = Background()
        started = time.perf_counter()
        result = await run_trial(plan, background, lambda _name, _phase: None, default_provider())
        to_result = time.perf_counter() - started
        await background.drain()
        to_drained = time.perf_counter() - started
        if result.error is not None or result.reward != 1.0:
            raise RuntimeError(f"lhtb trial {plan.spec.trial_name} failed: reward={result.reward} error={result.error}")
        if background.errors:
            raise RuntimeError(f"lhtb teardown of {plan.spec.trial_name} failed: {background.errors!r}")
        # The background teardown rewrote result.json with the teardown time.
        final = json.loads((plan.trial_dir / "result.json").read_text(encoding="utf-8"))
        return to_result, to_drained, final["timings"]


# ---- raw side ----------------------------------------------------------------------------------------------


def _docker(*args: str, stdin: bytes | None = None) -> bytes:
    proc = subprocess.run(["docker", *args], input=stdin, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"docker {' '.join(args)} exited {proc.returncode}: {proc.stderr.decode().strip()}")
    return proc.stdout


class RawSide:
    """The same container operations as an lhtb trial, with one plain ``docker`` CLI call each."""

    def __init__(self, task: Task, image: str, scratch: Path, run_id: str) -> None:
        self.task = task
        self.image = image
        self.scratch = scratch
        self.label = f"{BENCH_LABEL}={run_id}"
        self.count = 0

    def _run_detached(self, *mounts: str) -> str:
        argv = ["run", "-d", "--init", "--network", "none", "--label", self.label, *mounts]
        return _docker(*argv, self.image, "sleep", "infinity").decode().strip()

    def trial(self) -> tuple[float, float]:
        """Seconds until the reward is read, and until both containers are removed (rm on the critical path)."""
        self.count += 1
        out_dir = self.scratch / f"raw-{self.count}" / "verifier"
        out_dir.mkdir(parents=True)
        containers: list[str] = []
        started = time.perf_counter()
        try:
            agent = self._run_detached()
            containers.append(agent)
            _docker("cp", f"{self.task.solution_dir}/.", f"{agent}:/solution")
            _docker("exec", agent, "bash", "/solution/solve.sh")
            artifact_tar = _docker("cp", f"{agent}:/app", "-")
            verifier = self._run_detached("-v", f"{self.task.tests_dir}:/tests:ro", "-v", f"{out_dir}:/logs/verifier")
            containers.append(verifier)
            _docker("cp", "-", f"{verifier}:/", stdin=artifact_tar)
            _docker("exec", verifier, "bash", "/tests/test.sh")
            reward = float((out_dir / "reward.txt").read_text(encoding="utf-8"))
            to_reward = time.perf_counter() - started
        finally:
            if containers:
                _docker("rm", "-f", *containers)
        to_removed = time.perf_counter() - started
        if reward != 1.0:
            raise RuntimeError(f"raw trial {self.count} read reward {reward}, expected 1")
        return to_reward, to_removed


def remove_leftovers(run_id: str, job_name: str) -> int:
    """Remove any container this run started (raw ones by bench label, lhtb ones by job label)."""
    ids: list[str] = []
    for label in (f"{BENCH_LABEL}={run_id}", f"lhtb.job={job_name}"):
        ids += _docker("ps", "-aq", "--filter", f"label={label}").decode().split()
    if ids:
        _docker("rm", "-f", *ids)
    return len(ids)


# ---- the run -----------------------------------------------------------------------------------------------


async def measure(n: int, scratch: Path, run_id: str, job_name: str) -> Samples:
    task = load_task(TASK_DIR)
    image, built = await ensure_task_image(
        task.name, task.environment_dir, timeout_sec=task.config.environment.build_timeout_sec
    )
    print(f"task image {image} ({'built' if built else 'cached'})", flush=True)
    lhtb_side = LhtbSide(task, scratch / "jobs", job_name)
    raw_side = RawSide(task, image, scratch, run_id)
    # Untimed warm-up of both sides: image cache hit, Docker client pool, worker threads, page cache.
    await lhtb_side.trial()
    raw_side.trial()
    samples = Samples()
    for index in range(n):
        to_result, to_drained, timings = await lhtb_side.trial()
        samples.add("lhtb to result", to_result)
        samples.add("lhtb to teardown drained", to_drained)
        samples.add("lhtb teardown after result", to_drained - to_result)
        for phase in PHASES:
            seconds = timings.get(phase)
            if seconds is not None:
                samples.phases.setdefault(phase, []).append(seconds)
        to_reward, to_removed = raw_side.trial()
        samples.add("raw to reward (before rm)", to_reward)
        samples.add("raw to rm done", to_removed)
        print(
            f"  {index + 1:>2}/{n}  lhtb {to_result:.3f} s (drained {to_drained:.3f} s)"
            f"   raw {to_removed:.3f} s (reward at {to_reward:.3f} s)",
            flush=True,
        )
    return samples


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def report(samples: Samples, n: int) -> str:
    lines = [
        f"trivial oracle trial, n={n} each, alternating lhtb/raw",
        "",
        "| series | median (s) | p90 (s) | min (s) |",
        "|---|---|---|---|",
    ]
    for name, values in samples.series.items():
        lines.append(f"| {name} | {statistics.median(values):.3f} | {p90(values):.3f} | {min(values):.3f} |")
    raw = statistics.median(samples.series["raw to rm done"])
    to_result = statistics.median(samples.series["lhtb to result"]) / raw
    to_drained = statistics.median(samples.series["lhtb to teardown drained"]) / raw
    lines += [
        "",
        f"ratio of medians, lhtb to result / raw:            {to_result:.2f}x",
        f"ratio of medians, lhtb to teardown drained / raw:  {to_drained:.2f}x",
        "",
        "lhtb phase timings from result.json (median / p90, s):",
    ]
    for phase, values in samples.phases.items():
        lines.append(f"  {phase:<12} {statistics.median(values):.3f} / {p90(values):.3f}")
    verdict = "PASS" if to_result <= TARGET_RATIO else "FAIL"
    lines += [
        "",
        f"{verdict}: lhtb to result is {to_result:.2f}x the raw replay (target <= {TARGET_RATIO}x);"
        f" to teardown drained {to_drained:.2f}x",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10, help="timed trials per side (default 10)")
    args = parser.parse_args()
    if args.n < 1:
        parser.error("--n must be at least 1")
    run_id = uuid.uuid4().hex[:8]
    job_name = f"bench-trial-overhead-{run_id}"
    with tempfile.TemporaryDirectory(prefix="lhtb-bench-") as tmp:
        try:
            samples = asyncio.run(measure(args.n, Path(tmp), run_id, job_name))
        finally:
            left = remove_leftovers(run_id, job_name)
            if left:
                print(f"removed {left} leftover container(s)", file=sys.stderr)
    print()
    print(report(samples, args.n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
