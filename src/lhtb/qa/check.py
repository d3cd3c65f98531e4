"""``lhtb tasks check``: every gate for every task, as one report (docs/authoring.md explains each gate)."""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lhtb.agents.builtin import SHORTCUTS_DIR
from lhtb.environments import default_provider
from lhtb.environments.base import EnvironmentProvider
from lhtb.errors import LhtbError
from lhtb.grading.stress import SEED_ENV
from lhtb.jobs.seeds import trial_seed
from lhtb.qa.probe import Grading, Probe, Round, probe, rounds
from lhtb.qa.static import (
    content_digests,
    drifted_copies,
    files_missing_canary,
    foreign_bases,
    seed_readers,
    self_reported_reads,
)
from lhtb.results.models import AgentSpec, QaGate, QaTaskReport, VerifierOutcome
from lhtb.tasks.loader import Task, TaskLoad

NOP_MAX = 0.05
BASELINE_RANGE = (0.05, 0.6)
BASELINE_SPREAD = 0.03  # the baseline's reward stays within ± this of its mid-range over the seeds
SEEDS = 5
MIN_SHORTCUTS = 3
QA_JOB_SEED = 20261201  # the job seed QA's per-task seeds derive from (lhtb/jobs/seeds.py)
HIDDEN_MIN_SHARE = 0.6
MIN_SUBTASKS = 5
Progress = Callable[[str], None]


def _gate(report: QaTaskReport, name: str, passed: bool, detail: str = "", *, blocking: bool = True) -> None:
    report.gates.append(QaGate(name=name, passed=passed, detail=detail, blocking=blocking))


def _same(first: VerifierOutcome, second: VerifierOutcome) -> bool:
    scores = lambda v: [(s.name, s.score, s.weight) for s in v.subtasks]  # noqa: E731
    return first.reward == second.reward and scores(first) == scores(second)


def static_gates(task: Task, report: QaTaskReport) -> None:
    missing = files_missing_canary(task)
    _gate(report, "canary", not missing, ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else ""))
    foreign = foreign_bases(task)
    _gate(report, "offline base", not foreign, ", ".join(foreign) or "FROM lhtb/*")
    drifted = drifted_copies(task)
    copies = len(task.config.verifier.copies)
    _gate(report, "verifier copies identical", not drifted, "; ".join(drifted) or f"{copies} declared")
    _gate(report, "baseline present", (task.path / "baseline" / "solve.sh").is_file(), "baseline/solve.sh")
    shared = task.config.verifier.mode == "shared"
    _gate(report, "separate verifier", not shared, "shared mode grades live state", blocking=False)
    seeded = seed_readers(task)
    _gate(report, "seeded by the harness", bool(seeded), ", ".join(seeded) or f"no tests/ file reads {SEED_ENV}")
    claimed = self_reported_reads(task)
    detail = "; ".join(claimed[:4]) + (" ..." if len(claimed) > 4 else "")
    _gate(report, "no self-report", not claimed, detail or "no score reads the program's own counters")


def reward_gates(task: Task, report: QaTaskReport, probes: dict[str, Probe]) -> None:
    oracle, nop, baseline = probes["oracle"], probes["nop"], probes["baseline"]
    for item in probes.values():
        report.rewards[item.agent] = item.reward
        report.seed_rewards[item.agent] = {label: v.reward for label, v in item.verdicts.items()}
    _gate(report, "oracle = 1.0", oracle.reward == 1.0, _describe(oracle))
    _gate(report, f"nop ≤ {NOP_MAX}", nop.reward is not None and nop.reward <= NOP_MAX, _describe(nop))
    low, high = BASELINE_RANGE
    ok = baseline.reward is not None and low < baseline.reward < high
    _gate(report, f"baseline in ({low}, {high})", ok, _describe(baseline))
    pairs = [p for p in (baseline, oracle) if {"seed-0", "seed-0-again"} <= p.verdicts.keys()]
    deterministic = bool(pairs) and all(_same(p.verdicts["seed-0"], p.verdicts["seed-0-again"]) for p in pairs)
    detail = "; ".join(f"{p.agent}: {[p.verdicts[k].reward for k in ('seed-0', 'seed-0-again')]}" for p in pairs)
    # A probe run again after an infrastructure failure: what its earlier attempts graded must grade the same.
    unrepeated = {f"{p.agent} {label}": pair for p in probes.values() for label, pair in p.unrepeated.items()}
    if unrepeated:
        deterministic = False
        detail += "; not repeated after a retry: " + ", ".join(f"{k} {a} then {b}" for k, (a, b) in unrepeated.items())
    _gate(report, "deterministic", deterministic, detail)
    subtasks = oracle.first.subtasks if oracle.first else []
    report.subtasks = list(subtasks)
    total = math.fsum(s.weight for s in subtasks)
    hidden = math.fsum(s.weight for s in subtasks if s.visibility == "hidden")
    share = hidden / total if total else 0.0
    _gate(report, f"hidden ≥ {HIDDEN_MIN_SHARE:.0%}", share >= HIDDEN_MIN_SHARE, f"{share:.0%} of weight hidden")
    _gate(report, f"≥ {MIN_SUBTASKS} subtasks", len(subtasks) >= MIN_SUBTASKS, f"{len(subtasks)} subtasks")
    verdicts = [v for p in probes.values() for v in p.verdicts.values()]
    slowest = max((v.duration_sec for v in verdicts), default=0.0)
    report.verifier_sec = slowest
    timeout = task.config.verifier.timeout_sec
    timed_out = any(v.error is not None and v.error.error_class.value == "verifier_timeout" for v in verdicts)
    _gate(report, "verifier in time", not timed_out and slowest < timeout, f"slowest {slowest:.1f}s of {timeout:.0f}s")


def validity_gates(task: Task, report: QaTaskReport, probes: dict[str, Probe]) -> None:
    """The task-validity gates: seeds, load, inputs and shortcuts (docs/authoring.md)."""
    oracle, baseline = probes["oracle"], probes["baseline"]
    seeded = {k: v.reward for k, v in oracle.verdicts.items() if k.startswith("seed-") and k != "seed-0-again"}
    loaded = {k: r for k, r in seeded.items() if k != "seed-0"}
    _gate(report, f"oracle = 1.0 on {SEEDS} seeds", len(seeded) == SEEDS and all(r == 1.0 for r in seeded.values()),
          _rewards(seeded) or _describe(oracle))  # fmt: skip
    low, high = BASELINE_RANGE
    base = {k: v.reward for k, v in baseline.verdicts.items() if k != "seed-0-again"}
    values = [r for r in base.values() if r is not None]
    inside = len(values) == SEEDS and all(low < r < high for r in values)
    spread = max(values) - min(values) if values else math.inf
    _gate(report, f"baseline in band on {SEEDS} seeds", inside, _rewards(base) or _describe(baseline))
    _gate(report, f"baseline spread ≤ ±{BASELINE_SPREAD}", spread <= 2 * BASELINE_SPREAD + 1e-12,
          f"max - min = {spread:.4f}")  # fmt: skip
    ok = len(loaded) == SEEDS - 1 and all(r == 1.0 for r in loaded.values())
    _gate(report, "oracle = 1.0 under load", ok, f"two at a time beside a busy process per core: {_rewards(loaded)}")
    spoiled = oracle.verdicts.get("spoiled-inputs")
    unchanged = spoiled is not None and oracle.reward is not None and spoiled.reward == oracle.reward
    names = ", ".join(oracle.spoiled[:4]) + (" ..." if len(oracle.spoiled) > 4 else "")
    detail = f"reward {None if spoiled is None else spoiled.reward} with {len(oracle.spoiled)} public inputs spoiled"
    _gate(report, "inputs from tests/", unchanged, detail + (f" ({names})" if names else ""))
    scripts = shortcut_scripts(task)
    _gate(report, f"≥ {MIN_SHORTCUTS} shortcuts", len(scripts) >= MIN_SHORTCUTS, ", ".join(scripts) or "none")
    for name in scripts:
        item = probes.get(f"shortcut:{name}")
        ceiling = task.config.qa.ceiling(name)
        reward = None if item is None else item.reward
        report.rewards[f"shortcut:{name}"] = reward
        _gate(report, f"shortcut {name} ≤ {ceiling}", reward is not None and reward <= ceiling,
              _describe(item) if item is not None else "not run")  # fmt: skip


def shortcut_scripts(task: Task) -> list[str]:
    folder = task.path / SHORTCUTS_DIR
    return sorted(p.stem for p in folder.glob("*.sh") if p.is_file()) if folder.is_dir() else []


def _rewards(rewards: dict[str, float | None]) -> str:
    return ", ".join(f"{k}: {'—' if r is None else f'{r:.4f}'}" for k, r in rewards.items())


def _describe(item: Probe) -> str:
    retried = f"; run {len(item.retried) + 1} times, infrastructure: {item.retried[0][:120]}" if item.retried else ""
    if item.error:
        return item.error[:200] + retried
    errors = [v.error.message for v in item.verdicts.values() if v.error is not None]
    reward = "—" if item.reward is None else f"{item.reward:.4f}"
    return reward + (f" ({errors[0][:160]})" if errors else "") + retried


def qa_seeds(task_name: str, n: int) -> list[int]:
    """The verify seeds QA grades a task on: fixed per task, so a lock entry can be reproduced."""
    return [trial_seed(QA_JOB_SEED, task_name, index) for index in range(n)]


def oracle_plan(seeds: list[int]) -> list[Round]:
    """Seed 0 twice (determinism); the other seeds two at a time beside a CPU hog (load); seed 0 with the
    public inputs spoiled (inputs)."""
    plan = rounds(seeds[0], repeat_first=True)
    others = [Grading(f"seed-{i}", seed) for i, seed in enumerate(seeds) if i]
    plan += [Round(tuple(others[i : i + 2]), under_load=True) for i in range(0, len(others), 2)]
    plan.append(Round((Grading("spoiled-inputs", seeds[0], spoil_inputs=True),)))
    return plan


async def check_task(
    load: TaskLoad,
    work_dir: Path,
    *,
    scan_layers: bool = True,
    audit: bool = True,
    full: bool = True,
    provider: EnvironmentProvider | None = None,
) -> QaTaskReport:
    """Every gate for one task; ``full=False`` leaves out the validity gates (seeds, load, inputs, shortcuts)."""
    provider = provider or default_provider()
    name = load.task.name if load.task else load.path.name
    report = QaTaskReport(task=name, path=str(load.path))
    if load.task is None:
        _gate(report, "valid", False, load.error or "invalid")
        return report
    task = load.task
    report.category = task.config.metadata.category
    report.description = task.config.task.description or ""
    report.expert_time_estimate_min = task.config.metadata.expert_time_estimate_min
    report.agent_timeout_sec = task.config.agent.timeout_sec
    _gate(report, "valid", True)
    static_gates(task, report)
    started = time.monotonic()
    try:
        image, _ = await provider.prepare_image(task)
    except LhtbError as exc:
        _gate(report, "builds offline", False, str(exc)[:300])
        return report
    report.build_sec = round(time.monotonic() - started, 1)
    _gate(report, "builds offline", True, f"{report.build_sec}s (cache hit when fast)")
    if scan_layers:
        # Files the image legitimately ships (the build context) are public even if tests/ holds a copy.
        public = content_digests([task.environment_dir], min_bytes=0)
        hidden = content_digests([task.tests_dir, task.solution_dir, task.path / "baseline"])
        hidden = {digest: path for digest, path in hidden.items() if digest not in public}
        from lhtb.environments.image_layers import scan_image  # QA of Docker images: the layers' files

        scan = await asyncio.to_thread(scan_image, image, hidden)
        _gate(
            report, "no hidden content in image", not scan.leaked, "; ".join(scan.leaked[:3]) or f"{scan.n_files} files"
        )
        git_ok = not scan.git_dirs or task.config.task.allow_git_history
        _gate(report, "no .git history", git_ok, ", ".join(scan.git_dirs[:3]))
    task_dir = work_dir / task.name
    seeds = qa_seeds(task.name, SEEDS if full else 1)
    plans: dict[str, tuple[AgentSpec, list[Round]]] = {
        "oracle": (AgentSpec(name="oracle"), oracle_plan(seeds) if full else rounds(seeds[0], repeat_first=True)),
        "nop": (AgentSpec(name="nop"), rounds(seeds[0])),
        "baseline": (AgentSpec(name="baseline"), rounds(*seeds, repeat_first=True)),
    }
    if full:
        for name in shortcut_scripts(task):
            plans[f"shortcut:{name}"] = (AgentSpec(name="shortcut", kwargs={"script": name}), rounds(seeds[0]))
    found = await asyncio.gather(
        *(probe(provider, task, spec, label, task_dir, plan) for label, (spec, plan) in plans.items())
    )
    probes = {p.agent: p for p in found}
    report.seeds = seeds
    reward_gates(task, report, probes)
    if full:
        validity_gates(task, report, probes)
    if audit:  # one gate per exploit class and verifier mode (docs/integrity.md)
        from lhtb.qa.audit import audit_gates

        report.gates.extend(await audit_gates(task, task_dir / "audit"))
    return report


async def check_tasks(
    loads: list[TaskLoad],
    *,
    concurrency: int = 1,
    scan_layers: bool = True,
    audit: bool = True,
    full: bool = True,
    progress: Progress = lambda _m: None,
    provider: EnvironmentProvider | None = None,
) -> list[QaTaskReport]:
    semaphore = asyncio.Semaphore(concurrency)
    with tempfile.TemporaryDirectory(prefix="lhtb-qa-") as tmp:

        async def one(load: TaskLoad) -> QaTaskReport:
            async with semaphore:
                report = await check_task(
                    load, Path(tmp), scan_layers=scan_layers, audit=audit, full=full, provider=provider
                )
                progress(f"{report.task}: {'pass' if report.passed else 'FAIL'}")
                return report

        return list(await asyncio.gather(*(one(load) for load in loads)))
