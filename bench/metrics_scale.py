"""Time ``lhtb report`` on 100,000 synthetic trial results written to disk as real job directories.

Generates N trial results (agents x tasks x attempts, with errors, phases, checkpoints, activity, usage, unknown
prices mixed in), writes them as ``result.json`` files under two jobs (one with a non-default timeout, so it
is flagged), then times, per repeat: loading every file as ``lhtb report`` does (read, parse, validate the
fields metrics use, project to rows), computing the report, and rendering each format. Target: load + compute +
render(table) under 3 s. Nothing is cached between repeats: each one reads and parses all 100,000 files. It
also times the real ``lhtb report`` command in a fresh process (startup and imports included), and for
reference the load with full ``TrialResult`` validation (``full_validation=True``) and the same report from
TrialResult models already in memory (validated beforehand, untimed): projection + compute + table. It checks
that the fast loader gives exactly the rows ``to_row`` gives from fully validated results, curves included.

    .venv/bin/python bench/metrics_scale.py --trials 100000 --repeats 3

A benchmark, not a test: exit code 0 whatever the timing, non-zero only when something crashed.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from lhtb.errors import ErrorClass
from lhtb.jobs.layout import trial_name
from lhtb.metrics.models import MetricSettings
from lhtb.report.leaderboard import build_report
from lhtb.report.loading import load_jobs
from lhtb.report.render import FORMATS, render
from lhtb.results.models import (
    ActivityRecord,
    AgentOutcome,
    AgentSpec,
    CheckpointRecord,
    ErrorInfo,
    JobConfig,
    PhaseRecord,
    PhaseTimings,
    Subtask,
    TrialResult,
    Usage,
)

TARGET_SEC = 3.0
AGENTS = [AgentSpec(name="terminus", model=m) for m in ("model-a", "model-b", "model-c", "model-d")] + [
    AgentSpec(name="claude-code", model="model-e"),
    AgentSpec(name="codex", model="model-f"),
    AgentSpec(name="oracle"),
    AgentSpec(name="nop"),
]
CATEGORIES = ["software-engineering", "data", "games-puzzles", "security", "scientific", "sysadmin"]
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def synthetic_trial(
    rng: random.Random, job: str, agent: AgentSpec, skill: float, task: str, attempt: int
) -> TrialResult:
    """One plausible trial: reward from agent skill and noise, 1-3 phases, checkpoints, usage, some errors."""
    roll = rng.random()
    timeout = 1800.0
    error = None
    if roll < 0.02:
        error = ErrorInfo(error_class=ErrorClass.ENVIRONMENT_START, message="synthetic start failure")
    elif roll < 0.03:
        error = ErrorInfo(error_class=ErrorClass.VERIFIER_ERROR, message="synthetic verifier crash")
    reward = None if error else min(1.0, max(0.0, rng.gauss(skill, 0.3)))
    agent_sec = rng.uniform(60, timeout)
    stop: Literal["completed", "timeout"] = "timeout" if agent_sec > 0.95 * timeout else "completed"
    n_phases = rng.randint(1, 3)
    phases = [
        PhaseRecord(
            index=i,
            started_at=T0,
            finished_at=T0 + timedelta(seconds=agent_sec / n_phases),
            stop_reason=stop if i == n_phases - 1 else "completed",
            reward=None if reward is None else reward * (i + 1) / n_phases,
            agent_sec=agent_sec / n_phases,
        )
        for i in range(n_phases)
    ]
    curve = [
        CheckpointRecord(agent_sec=s, reward=None if reward is None else reward * s / agent_sec)
        for s in range(300, int(agent_sec), 300)
    ]
    priced = agent.model != "model-f"  # one model with an unknown price: its cost must stay unknown
    usage = Usage(
        input_tokens=rng.randint(10_000, 400_000),
        cached_input_tokens=rng.randint(0, 200_000),
        output_tokens=rng.randint(1_000, 40_000),
        cost_usd=round(rng.uniform(0.05, 3.0), 4) if priced else None,
        episodes=rng.randint(5, 120),
    )
    # Most agents were working until they stopped; some stalled minutes before their time ran out.
    idle = rng.expovariate(1 / 600) if rng.random() < 0.2 else rng.uniform(0, 20)
    activity = ActivityRecord(
        last_active_sec=round(max(0.0, agent_sec - idle), 3),
        poll_interval_sec=30.0,
        cpu_floor=0.02,
        samples=int(agent_sec // 30),
        agent_steps=usage.episodes * 2,
    )
    subtasks = [Subtask(name=f"check-{i}", weight=1.0, score=reward or 0.0, detail="synthetic") for i in range(4)]
    return TrialResult(
        trial_name=trial_name(task, agent, attempt),
        job_name=job,
        task_name=task,
        category=CATEGORIES[zlib.crc32(task.encode()) % len(CATEGORIES)],
        agent=agent,
        attempt=attempt,
        started_at=T0,
        finished_at=T0 + timedelta(seconds=agent_sec + 30),
        reward=reward,
        subtasks=subtasks if reward is not None else [],
        error=error,
        agent_outcome=AgentOutcome(stop_reason=stop, usage=usage),
        timings=PhaseTimings(build=1.0, start=0.5, agent_setup=0.2, agent=agent_sec, verifier=4.0, teardown=0.1),
        phases=phases,
        reward_curve=curve,
        activity=activity,
        usage=usage,
        agent_timeout_sec=timeout,
        continue_until_timeout=n_phases > 1,
    )


def write_job(root: Path, name: str, agents: list[AgentSpec], tasks: int, attempts: int, multiplier: float) -> int:
    """A job directory with config.json and one result.json per trial; returns the number of trials."""
    rng = random.Random(f"{name}-{tasks}-{attempts}")
    task_names = [f"task-{i:04d}" for i in range(tasks)]
    config = JobConfig(
        job_name=name,
        created_at=T0,
        dataset_path="synthetic",
        task_names=task_names,
        agents=agents,
        attempts=attempts,
        concurrency=8,
        max_retries=0,
        agent_timeout_multiplier=multiplier,
        lhtb_version="bench",
    )
    job_dir = root / name
    (job_dir / "trials").mkdir(parents=True, exist_ok=True)
    (job_dir / "config.json").write_text(config.model_dump_json(by_alias=True, indent=2))
    count = 0
    for index, agent in enumerate(agents):
        skill = 1.0 if agent.name == "oracle" else 0.0 if agent.name == "nop" else 0.35 + 0.08 * index
        for task in task_names:
            difficulty = (zlib.crc32(task.encode()) % 100) / 250
            for attempt in range(1, attempts + 1):
                result = synthetic_trial(rng, name, agent, skill - difficulty, task, attempt)
                trial_dir = job_dir / "trials" / result.trial_name
                trial_dir.mkdir(exist_ok=True)
                (trial_dir / "result.json").write_text(result.model_dump_json(by_alias=True, indent=2))
                count += 1
    return count


def generate(root: Path, trials: int, attempts: int) -> list[Path]:
    """90 % of the trials in a default job with every agent, 10 % in a flagged job (timeouts x2)."""
    main_tasks = max(1, round(0.9 * trials / (len(AGENTS) * attempts)))
    flagged_tasks = max(1, round(0.1 * trials / (2 * attempts)))
    started = time.perf_counter()
    n = write_job(root, "main", AGENTS, main_tasks, attempts, 1.0)
    n += write_job(root, "long-timeouts", AGENTS[:2], flagged_tasks, attempts, 2.0)
    print(f"wrote {n} trial results under {root} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return [root / "main", root / "long-timeouts"]


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the loader's worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def time_once(job_dirs: list[Path], workers: int | None) -> dict[str, tuple[float, float]]:
    """Per step: (wall seconds, CPU seconds of every process). CPU time is what a loaded machine cannot inflate."""
    timings: dict[str, tuple[float, float]] = {}

    def step(name: str, started: tuple[float, float]) -> tuple[float, float]:
        now = (time.perf_counter(), _cpu())
        timings[name] = (now[0] - started[0], now[1] - started[1])
        return now

    mark = (time.perf_counter(), _cpu())
    loaded = load_jobs(job_dirs, workers=workers, curves=False)  # as `lhtb report` loads
    mark = step("load (read + validate + project)", mark)
    if loaded.problems:
        raise SystemExit(f"unexpected unreadable results: {loaded.problems[:3]}")
    settings = MetricSettings(ks=(1, max(row.attempt for row in loaded.rows)))
    report = build_report(loaded, settings)
    mark = step("compute report", mark)
    for fmt in FORMATS:
        render(report, fmt)
        mark = step(f"render {fmt}", mark)
    parts = [timings[k] for k in ("load (read + validate + project)", "compute report", "render table")]
    timings["TOTAL load + compute + table"] = (sum(p[0] for p in parts), sum(p[1] for p in parts))
    timings["_n_rows"] = (len(loaded.rows), 0.0)
    load_jobs(job_dirs, workers=workers, curves=False, full_validation=True)
    step("_load, full TrialResult validation (reference)", mark)
    return timings


def check_rows(job_dirs: list[Path], results: list[tuple[TrialResult, tuple[str, ...]]]) -> None:
    """The fast loader's rows equal ``to_row`` of the fully validated results, field by field, curves included."""
    from lhtb.metrics.rows import to_row

    fast = {(row.job_name, row.trial_name): row for row in load_jobs(job_dirs, curves=True).rows}
    full = {(r.job_name, r.trial_name): to_row(r, flags, with_curve=True) for r, flags in results}
    if fast.keys() != full.keys():
        raise SystemExit(f"loaders disagree on which trials exist ({len(fast)} vs {len(full)})")
    for key, row in full.items():
        if fast[key] != row or any(type(a) is not type(b) for a, b in zip(fast[key], row, strict=True)):
            raise SystemExit(f"row mismatch for {key}:\n  fast {fast[key]}\n  full {row}")
    print(f"rows check: {len(full)} rows identical (fast loader vs to_row of TrialResult)", file=sys.stderr)


def validated_results(job_dirs: list[Path]) -> list[tuple[TrialResult, tuple[str, ...]]]:
    from lhtb.metrics.rows import job_flags

    results = []
    for job_dir in job_dirs:
        flags = job_flags(JobConfig.model_validate_json((job_dir / "config.json").read_bytes()))
        for path in sorted((job_dir / "trials").glob("*/result.json")):
            results.append((TrialResult.model_validate_json(path.read_bytes()), flags))
    return results


def time_in_memory(results: list[tuple[TrialResult, tuple[str, ...]]], repeats: int) -> list[float]:
    """The report from TrialResult models already in memory (validated untimed): project + compute + table."""
    from lhtb.metrics.rows import to_row
    from lhtb.report.loading import LoadedJobs

    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        loaded = LoadedJobs(rows=[to_row(result, flags, with_curve=False) for result, flags in results])
        report = build_report(loaded, MetricSettings(ks=(1, max(row.attempt for row in loaded.rows))))
        render(report, "table")
        times.append(time.perf_counter() - started)
    return times


def time_cli(job_dirs: list[Path], repeats: int) -> list[float]:
    """Wall time of the real command, ``lhtb report JOB...`` in a fresh process: startup, imports, load,
    compute and the table printed to a pipe. This is what a researcher waits for."""
    command = [sys.executable, "-m", "lhtb.cli", "report", *map(str, job_dirs)]
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--attempts", type=int, default=25)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="loader processes (default: CPU count)")
    parser.add_argument("--dir", type=Path, default=None, help="reuse or keep the generated jobs here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lhtb-metrics-scale-") as tmp:
        root = args.dir or Path(tmp)
        job_dirs = [root / "main", root / "long-timeouts"]
        if not (root / "main" / "config.json").is_file():
            job_dirs = generate(root, args.trials, args.attempts)
        runs = [time_once(job_dirs, args.workers) for _ in range(args.repeats)]
        cli = time_cli(job_dirs, args.repeats)
        results = validated_results(job_dirs)  # after the timed runs: 100,000 live models would slow the GC
        check_rows(job_dirs, results)
        in_memory = time_in_memory(results, args.repeats)
    print(f"{int(runs[0]['_n_rows'][0])} trials, {os.cpu_count()} CPUs, workers={args.workers or os.cpu_count()}")
    print("| step | wall median (s) | wall min (s) | wall max (s) | CPU median (s) |\n|---|---|---|---|---|")
    for key in runs[0]:
        if key == "_n_rows":
            continue
        wall = [run[key][0] for run in runs]
        cpu = statistics.median(run[key][1] for run in runs)
        print(f"| {key.lstrip('_')} | {statistics.median(wall):.3f} | {min(wall):.3f} | {max(wall):.3f} | {cpu:.3f} |")
    print(
        f"| in memory: project + compute + table | {statistics.median(in_memory):.3f} | "
        f"{min(in_memory):.3f} | {max(in_memory):.3f} | |"
    )
    print(
        f"| `lhtb report` command, fresh process | {statistics.median(cli):.3f} | {min(cli):.3f} | {max(cli):.3f} | |"
    )
    total = statistics.median(run["TOTAL load + compute + table"][0] for run in runs)
    print(f"from files: target < {TARGET_SEC} s: {'PASS' if total < TARGET_SEC else 'MISS'} ({total:.2f} s median)")
    command = statistics.median(cli)
    print(f"command: target < {TARGET_SEC} s: {'PASS' if command < TARGET_SEC else 'MISS'} ({command:.2f} s median)")
    memory = statistics.median(in_memory)
    print(f"in memory: target < {TARGET_SEC} s: {'PASS' if memory < TARGET_SEC else 'MISS'} ({memory:.2f} s median)")
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
