"""``lhtb tasks check``: every gate for every task, as one report (docs/authoring.md explains each gate)."""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lhtb.environments.images import ensure_task_image
from lhtb.errors import LhtbError
from lhtb.qa.layers import scan_image
from lhtb.qa.probe import Probe, probe
from lhtb.qa.static import content_digests, drifted_copies, files_missing_canary, foreign_bases
from lhtb.results.models import QaGate, QaTaskReport, VerifierOutcome
from lhtb.tasks.loader import Task, TaskLoad

NOP_MAX = 0.05
BASELINE_RANGE = (0.05, 0.6)
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
    shared = task.config.verifier.environment_mode == "shared"
    _gate(report, "separate verifier", not shared, "shared mode grades live state", blocking=False)


def reward_gates(task: Task, report: QaTaskReport, probes: dict[str, Probe]) -> None:
    oracle, nop, baseline = probes["oracle"], probes["nop"], probes["baseline"]
    for item in probes.values():
        report.rewards[item.agent] = item.reward
    _gate(report, "oracle = 1.0", oracle.reward == 1.0, _describe(oracle))
    _gate(report, f"nop ≤ {NOP_MAX}", nop.reward is not None and nop.reward <= NOP_MAX, _describe(nop))
    low, high = BASELINE_RANGE
    ok = baseline.reward is not None and low < baseline.reward < high
    _gate(report, f"baseline in ({low}, {high})", ok, _describe(baseline))
    graded = [p for p in (baseline, oracle) if len(p.verdicts) >= 2]
    deterministic = bool(graded) and all(_same(p.verdicts[0], p.verdicts[1]) for p in graded)
    detail = "; ".join(f"{p.agent}: {[v.reward for v in p.verdicts]}" for p in graded)
    _gate(report, "deterministic", deterministic, detail)
    subtasks = oracle.verdicts[0].subtasks if oracle.verdicts else []
    report.subtasks = list(subtasks)
    total = math.fsum(s.weight for s in subtasks)
    hidden = math.fsum(s.weight for s in subtasks if s.visibility == "hidden")
    share = hidden / total if total else 0.0
    _gate(report, f"hidden ≥ {HIDDEN_MIN_SHARE:.0%}", share >= HIDDEN_MIN_SHARE, f"{share:.0%} of weight hidden")
    _gate(report, f"≥ {MIN_SUBTASKS} subtasks", len(subtasks) >= MIN_SUBTASKS, f"{len(subtasks)} subtasks")
    verdicts = [v for p in probes.values() for v in p.verdicts]
    slowest = max((v.duration_sec for v in verdicts), default=0.0)
    report.verifier_sec = slowest
    timeout = task.config.verifier.timeout_sec
    timed_out = any(v.error is not None and v.error.error_class.value == "verifier_timeout" for v in verdicts)
    _gate(report, "verifier in time", not timed_out and slowest < timeout, f"slowest {slowest:.1f}s of {timeout:.0f}s")


def _describe(item: Probe) -> str:
    if item.error:
        return item.error[:200]
    errors = [v.error.message for v in item.verdicts if v.error is not None]
    reward = "—" if item.reward is None else f"{item.reward:.4f}"
    return reward + (f" ({errors[0][:160]})" if errors else "")


async def check_task(load: TaskLoad, work_dir: Path, *, scan_layers: bool = True, audit: bool = True) -> QaTaskReport:
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
        image, _ = await ensure_task_image(
            task.name, task.environment_dir, timeout_sec=task.config.environment.build_timeout_sec
        )
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
        scan = await asyncio.to_thread(scan_image, image, hidden)
        _gate(
            report, "no hidden content in image", not scan.leaked, "; ".join(scan.leaked[:3]) or f"{scan.n_files} files"
        )
        git_ok = not scan.git_dirs or task.config.task.allow_git_history
        _gate(report, "no .git history", git_ok, ", ".join(scan.git_dirs[:3]))
    task_dir = work_dir / task.name
    gradings = {"oracle": 2, "nop": 1, "baseline": 2}
    probes = await asyncio.gather(*(probe(task, image, agent, task_dir, gradings=n) for agent, n in gradings.items()))
    reward_gates(task, report, {p.agent: p for p in probes})
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
    progress: Progress = lambda _m: None,
) -> list[QaTaskReport]:
    semaphore = asyncio.Semaphore(concurrency)
    with tempfile.TemporaryDirectory(prefix="lhtb-qa-") as tmp:

        async def one(load: TaskLoad) -> QaTaskReport:
            async with semaphore:
                report = await check_task(load, Path(tmp), scan_layers=scan_layers, audit=audit)
                progress(f"{report.task}: {'pass' if report.passed else 'FAIL'}")
                return report

        return list(await asyncio.gather(*(one(load) for load in loads)))
