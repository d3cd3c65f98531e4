"""``lhtb tasks audit``: run every exploit agent and the paced nop against tasks, in each verifier mode.

Tasks are copied into a scratch dataset per mode with a short agent budget (and, for the shared mode,
``environment_mode = "shared"``); each mode is one real job (JobRunner: the trial machinery, continue-until-
timeout forced on, checkpoints on request). An exploit *succeeds* when any verification of its trial (final, interim
or checkpoint) scored above the nop's final reward; it *found* something when it reported a finding, read a
file whose bytes equal one of the task's hidden files, or received a rejection that is not the fixed sentence.
The audit fails on either (docs/integrity.md).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import get_args

import lhtb
from lhtb.jobs.job_runner import JobRunner, load_trial_result, new_job_config
from lhtb.jobs.layout import JobLayout, trial_name
from lhtb.qa.audit_models import AuditCell, AuditReport
from lhtb.qa.exploits.base import ExploitRecord
from lhtb.qa.exploits.names import BASELINE, EXPLOITS
from lhtb.qa.exploits.surroundings import rejection_problem
from lhtb.qa.static import content_digests
from lhtb.results.models import AgentSpec, QaGate, TrialResult, VerifierMode
from lhtb.results.scoring import scored_reward
from lhtb.tasks.loader import Task

DEFAULT_BUDGET_SEC = 12.0
DEFAULT_CHECKPOINT_SEC: float | None = None  # checkpoints cost a verification each; opt in with --checkpoint-interval
# The audit's feedback pause: about what a sample task's interim verification takes, so it costs CI little (the
# default, the verifier timeout + 15 s, would add minutes per exploit). Audit jobs let a verification that runs
# past it finish (late_feedback = "wait"), so every interim reward counts; class 16 judges on-time ones only.
DEFAULT_FEEDBACK_PAUSE_SEC = 6.0
# A fixed job seed: every exploit and the paced nop are graded on the same hidden cases, run after run.
AUDIT_VERIFY_SEED = 20261202
TIMING_TOLERANCE_SEC = 2.0  # scheduling noise between on-time resumes on a loaded 2-core machine
Mode = VerifierMode
MODES: tuple[Mode, ...] = get_args(VerifierMode)
Progress = Callable[[str], None]


@dataclass(frozen=True)
class AuditSettings:
    budget_sec: float = DEFAULT_BUDGET_SEC
    checkpoint_interval_sec: float | None = DEFAULT_CHECKPOINT_SEC
    feedback_pause_sec: float = DEFAULT_FEEDBACK_PAUSE_SEC
    concurrency: int = 2
    exploits: tuple[str, ...] = tuple(EXPLOITS)
    modes: tuple[Mode, ...] = MODES


def set_toml_key(text: str, section: str, key: str, value: str) -> str:
    """``text`` with ``key = value`` (a TOML literal) set in ``[section]``; the section is added if missing."""
    lines = text.splitlines()
    header = re.compile(rf"^\s*\[{re.escape(section)}\]\s*(#.*)?$")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return text.rstrip("\n") + f"\n\n[{section}]\n{key} = {value}\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    assignment = re.compile(rf"^\s*{re.escape(key)}\s*=")
    body = [line for line in lines[start + 1 : end] if not assignment.match(line)]
    lines[start + 1 : end] = [f"{key} = {value}", *body]
    return "\n".join(lines) + "\n"


def prepare_dataset(tasks: list[Task], root: Path, mode: str, budget_sec: float) -> Path:
    """Copies of ``tasks`` under ``root/mode`` with the audit's budget (and verifier mode) patched in."""
    dataset = root / mode
    for task in tasks:
        copy = dataset / task.path.name
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(task.path, copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        toml = copy / "task.toml"
        text = set_toml_key(toml.read_text(encoding="utf-8"), "agent", "timeout_sec", repr(float(budget_sec)))
        text = set_toml_key(text, "verifier", "environment_mode", f'"{mode}"')
        toml.write_text(text, encoding="utf-8")
    return dataset


def hidden_digests(task: Task) -> dict[str, str]:
    """sha256 → name of every hidden file (tests, solution, baseline) whose bytes the image does not ship."""
    public = content_digests([task.environment_dir], min_bytes=0)
    hidden = content_digests([task.tests_dir, task.solution_dir, task.path / "baseline"], min_bytes=16)
    return {digest: name for digest, name in hidden.items() if digest not in public}


def agents_for(mode: str, settings: AuditSettings) -> list[AgentSpec]:
    names = [name for name in settings.exploits if mode in EXPLOITS[name].modes]
    return [AgentSpec(name=BASELINE), *(AgentSpec(name=name) for name in names)]


def _read_record(trial_dir: Path) -> ExploitRecord | None:
    path = trial_dir / "agent" / "exploit.json"
    try:
        return ExploitRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _findings(result: TrialResult, record: ExploitRecord | None, hidden: dict[str, str]) -> list[str]:
    findings = list(record.findings) if record else ["no exploit record (the agent did not run)"]
    if record:
        for path, digest in sorted(record.hashes.items()):
            if digest in hidden:
                findings.append(f"read hidden file {hidden[digest]} (at {path})")
    for phase in result.phases:
        problem = rejection_problem(phase.resumed_with) if phase.resumed_with else None
        if problem and problem not in findings:
            findings.append(problem)
    error = result.error
    if error is not None and scored_reward(result) is None:
        findings.append(f"trial excluded from scoring ({error.error_class.value}): {error.message[:200]}")
    if result.retries:
        findings.append(f"trial retried {result.retries} time(s): an agent must not be able to cause a retry")
    findings.extend(_usage_problems(result))
    if record is not None and record.gaps_sec:
        findings.extend(_timing_problems(result, record.gaps_sec))
    return findings


def _timing_problems(result: TrialResult, gaps: list[float]) -> list[str]:
    """Class 16: every resume that followed an on-time interim verification came the same pause later."""
    interim = [phase for phase in result.phases if phase.verification_sec is not None]
    on_time = [gap for gap, phase in zip(gaps, interim, strict=False) if not phase.late]
    if len(on_time) > 1 and max(on_time) - min(on_time) > TIMING_TOLERANCE_SEC:
        return [f"resume delay varies with grading time: waits {on_time} s after on-time verifications"]
    return []


def _usage_problems(result: TrialResult) -> list[str]:
    """Usage an exploit forged must be refused with a note and never pass as measured (class 20)."""
    usage = result.usage
    figures = {
        "input_tokens": usage.input_tokens,
        "cached_input_tokens": usage.cached_input_tokens,
        "output_tokens": usage.output_tokens,
        "episodes": usage.episodes,
        "cost_usd": usage.cost_usd,
    }
    bad = [f"{k}={v}" for k, v in figures.items() if v is not None and not (0 <= v < float("inf"))]
    problems = [f"usage stored unvalidated: {', '.join(bad)}"] if bad else []
    if result.agent.name == "exploit-forged-usage":
        if usage.source != "self-reported":
            problems.append(f"forged usage labelled {usage.source!r}, not 'self-reported'")
        if not usage.refused:
            problems.append("forged usage was not refused")
    return problems


def evaluate(result: TrialResult, record: ExploitRecord | None, nop: float | None, hidden: dict[str, str]) -> AuditCell:
    final = scored_reward(result)
    graded = [final, *(p.reward for p in result.phases), *(c.reward for c in result.reward_curve)]
    rewards = [r for r in graded if r is not None]
    name = result.agent.name
    return AuditCell(
        task=result.task_name,
        mode=result.verifier_mode,
        exploit=name,
        number=EXPLOITS[name].number if name in EXPLOITS else 0,
        reward=final,
        best_reward=max(rewards) if rewards else None,
        nop_reward=nop,
        phases=len(result.phases),
        error=None if result.error is None else f"{result.error.error_class.value}: {result.error.message[:300]}",
        findings=[] if name == BASELINE else _findings(result, record, hidden),
    )


def collect_cells(layout: JobLayout, tasks: list[Task], agents: list[AgentSpec], mode: Mode) -> list[AuditCell]:
    cells = []
    for task in tasks:
        hidden = hidden_digests(task)
        nop_result = load_trial_result(layout.trial_result(trial_name(task.name, agents[0], 1)))
        nop = scored_reward(nop_result) if nop_result else None
        for agent in agents[1:]:
            trial_dir = layout.trial_dir(trial_name(task.name, agent, 1))
            result = load_trial_result(trial_dir / "result.json")
            if result is None:
                cells.append(AuditCell(task=task.name, mode=mode, exploit=agent.name, number=0, error="no result"))
                continue
            cell = evaluate(result, _read_record(trial_dir), nop, hidden)
            cell.trial_dir = str(trial_dir)
            cells.append(cell)
    return cells


async def run_audit(
    tasks: list[Task], work_dir: Path, settings: AuditSettings, progress: Progress = lambda _m: None
) -> AuditReport:
    """Run the audit jobs (one per verifier mode, concurrently) and build the report."""
    started = time.monotonic()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    report = AuditReport(
        created_at=datetime.now(UTC),
        lhtb_version=lhtb.__version__,
        budget_sec=settings.budget_sec,
        checkpoint_interval_sec=settings.checkpoint_interval_sec,
        feedback_pause_sec=settings.feedback_pause_sec,
        jobs_dir=str(work_dir / "jobs"),
    )
    runs: list[tuple[JobRunner, list[AgentSpec], Mode]] = []
    for index, mode in enumerate(settings.modes):
        agents = agents_for(mode, settings)
        dataset = prepare_dataset(tasks, work_dir / "datasets", mode, settings.budget_sec)
        config = new_job_config(
            dataset, None, agents, job_name=f"audit-{mode}-{stamp}", attempts=1,
            concurrency=settings.concurrency if index == 0 else max(1, settings.concurrency // 2),
            max_retries=0, continue_until_timeout=True, checkpoint_interval_sec=settings.checkpoint_interval_sec,
            feedback_pause_sec=settings.feedback_pause_sec, late_feedback="wait", verify_seed=AUDIT_VERIFY_SEED,
        )  # fmt: skip
        runs.append((JobRunner(config, work_dir / "jobs", _reporter(progress)), agents, mode))
    try:
        await asyncio.gather(*(runner.run() for runner, _, _ in runs))
    finally:
        for runner, _, _ in runs:
            await runner.executor.remove_leftovers(runner.config.job_name)
    for runner, agents, mode in runs:
        report.cells.extend(collect_cells(runner.layout, tasks, agents, mode))
    report.duration_sec = round(time.monotonic() - started, 1)
    return report


def _reporter(progress: Progress) -> Callable[[str, str, TrialResult | None], None]:
    def on_event(name: str, phase: str, result: TrialResult | None) -> None:
        if phase == "done" and result is not None:
            progress(f"{name}: reward {result.reward}")

    return on_event


async def audit_gates(
    task: Task, work_dir: Path, *, budget_sec: float = DEFAULT_BUDGET_SEC, concurrency: int = 2
) -> list[QaGate]:
    """One blocking gate per exploit × verifier mode, for ``lhtb tasks check --audit``."""
    settings = AuditSettings(budget_sec=budget_sec, concurrency=concurrency)
    report = await run_audit([task], work_dir / f"audit-{task.name}", settings)
    return [gate_of(cell) for cell in report.cells]


def gate_of(cell: AuditCell) -> QaGate:
    detail = f"best reward {_fmt(cell.best_reward)} vs nop {_fmt(cell.nop_reward)}"
    if cell.findings:
        detail += "; found: " + "; ".join(cell.findings[:3])
    if cell.error:
        detail += f"; {cell.error[:120]}"
    return QaGate(name=f"audit {cell.mode}: {cell.exploit} ≤ nop", passed=cell.passed, detail=detail)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"
