"""The QA lock: per task, the content it was checked with and what QA measured, so CI re-checks only what changed.

A task's digest covers everything that can change its grade: the task directory (its ``task.toml`` by meaning, see
:func:`config_meaning`), the grading SDK its verifier
imports inside its container (hashed), the host side's verification protocol and the gates' version (numbers,
bumped with any change of meaning: the host side is also plumbing, which a refactor must not make stale). CI
checks every task whose entry is missing or stale (and fails: the lock must be refreshed with ``--update-lock``
and committed), the sample tasks, and a rotating subset of the rest chosen by the commit, whose fresh results
must equal their entries exactly.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

import lhtb
from lhtb.errors import ConfigError
from lhtb.fs import first_problem, write_model_atomic
from lhtb.results.models import QaGate, QaLock, QaLockAudit, QaLockEntry, QaTaskReport
from lhtb.tasks.loader import Task, TaskLoad
from lhtb.verifier import VERIFIER_PROTOCOL

_T = TypeVar("_T")
GATES_VERSION = 2  # bump when a gate's rule changes: every entry becomes stale
_HARNESS_PARTS = ("grading",)  # the code that runs inside the verifier container
REWARD_TOLERANCE = 1e-6


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.relative_to(root).parts)


def _hash_trees(digest: hashlib._Hash, roots: list[tuple[str, Path]], replaced: dict[Path, bytes] | None = None) -> str:
    for label, root in roots:
        for path in _files(root):
            name = f"{label}/{path.relative_to(root).as_posix()}".encode()
            if replaced and path in replaced:
                data = replaced[path]
            else:
                data = path.read_bytes() if not path.is_symlink() else b"symlink:" + str(path.readlink()).encode()
            digest.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def config_meaning(task: Task) -> bytes:
    """What ``task.toml`` means, not how it is written: every key with its value after parsing, defaults
    included, and its canary lines (a gate checks them). Writing out a key at its default value, or editing a
    comment, leaves the digest as it was; changing what any key means (a value, or a default the task relies
    on) changes it."""
    meaning = task.config.model_dump(mode="json", by_alias=True)
    canary = [
        line.strip() for line in (task.path / "task.toml").read_text(encoding="utf-8").splitlines() if "canary" in line
    ]
    return json.dumps({"config": meaning, "canary": canary}, sort_keys=True, separators=(",", ":")).encode()


def task_digest(task: Task) -> str:
    package = Path(lhtb.__file__).resolve().parent
    roots = [("task", task.path)] + [(f"lhtb/{part}", package / part) for part in _HARNESS_PARTS]
    header = f"lhtb-qa-gates/{GATES_VERSION}\0verifier-protocol/{VERIFIER_PROTOCOL}\0"
    replaced = {task.path / "task.toml": config_meaning(task)}
    return _hash_trees(hashlib.sha256(header.encode()), roots, replaced)


def audit_digest(digest: str, exploits: tuple[str, ...], modes: tuple[str, ...]) -> str:
    """What a task-specific audit's outcome depends on beyond the harness (which the sample tasks' full audit
    covers in every CI run): the task's content, the exploit agents' code, and which exploits and modes ran."""
    package = Path(lhtb.__file__).resolve().parent
    header = f"lhtb-qa-audit\0{digest}\0{','.join(sorted(exploits))}\0{','.join(sorted(modes))}\0"
    return _hash_trees(hashlib.sha256(header.encode()), [("lhtb/qa/exploits", package / "qa" / "exploits")])


def read_lock(path: Path) -> QaLock:
    """The lock at ``path`` (empty when absent); a broken lock is an error naming the file and the field."""
    if not path.exists():
        return QaLock()
    try:
        return QaLock.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        raise ConfigError(f"{path}: {first_problem(exc)}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the QA lock: {exc.strerror}") from None


def write_lock(path: Path, lock: QaLock) -> None:
    lock.tasks = dict(sorted(lock.tasks.items()))
    write_model_atomic(path, lock)


def change_lock(path: Path, change: Callable[[QaLock], _T]) -> _T:
    """Apply ``change`` to the lock as it is on disk now and write it back, holding an exclusive lock on its
    directory meanwhile: two checks that update one lock keep each other's entries."""
    path.parent.mkdir(parents=True, exist_ok=True)
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(directory, fcntl.LOCK_EX)
        lock = read_lock(path)
        outcome = change(lock)
        write_lock(path, lock)
        return outcome
    finally:
        os.close(directory)  # closing the descriptor releases the flock


def entry_for(report: QaTaskReport, digest: str, *, full: bool) -> QaLockEntry:
    return QaLockEntry(
        digest=digest,
        gate_set="full" if full else "basic",
        checked_at=datetime.now(UTC),
        lhtb_version=lhtb.__version__,
        seeds=report.seeds,
        rewards={agent: dict(rewards) for agent, rewards in sorted(report.seed_rewards.items())},
        gates={gate.name: gate.passed for gate in report.gates},
    )


def differences(entry: QaLockEntry, report: QaTaskReport) -> list[str]:
    """Where a fresh check's rewards differ from the lock's (gradings both ran); empty when they agree."""
    found = []
    for agent, rewards in report.seed_rewards.items():
        for label, reward in rewards.items():
            locked = entry.rewards.get(agent, {}).get(label, reward)
            if not _equal(locked, reward):
                found.append(f"{agent} {label}: {reward} now, {locked} in the lock")
    return found


def _equal(first: float | None, second: float | None) -> bool:
    """Equal rewards, up to float noise a library point release could add (a real change is far larger)."""
    if first is None or second is None:
        return first is second
    return abs(first - second) <= REWARD_TOLERANCE


def commit_number(root: Path) -> int:
    """How many commits the checkout has (which subset rotates in: consecutive commits walk through all the
    tasks in turn); 0 outside a git checkout."""
    try:
        count = subprocess.run(
            ["git", "-C", str(root), "rev-list", "--count", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.strip()
        return int(count)
    except (OSError, subprocess.SubprocessError, ValueError):
        return 0


def rotation(names: list[str], size: int, number: int) -> list[str]:
    """``size`` of ``names`` chosen by ``number``: consecutive numbers walk through all of them in turn."""
    if size <= 0 or not names:
        return []
    ordered = sorted(names)
    groups = -(-len(ordered) // size)
    start = (number % groups) * size
    return ordered[start : start + size]


def require_lock_path(path: Path | None, update: bool) -> None:
    if update and path is None:
        raise ConfigError("--update-lock needs --lock FILE")


def task_digests(loads: list[TaskLoad]) -> dict[str, str]:
    return {load.task.name: task_digest(load.task) for load in loads if load.task is not None}


def select_for_check(
    loads: list[TaskLoad], lock: QaLock | None, digests: dict[str, str], rotate: int | None, lock_path: Path | None
) -> tuple[list[TaskLoad], list[str]]:
    """The tasks to check now, and the unchanged ones the lock stands for (``--rotate``: CI's incremental QA)."""
    if lock is None or rotate is None or lock_path is None:
        return loads, []
    names = [load.task.name for load in loads if load.task is not None]
    held = held_by_lock(names, lambda name: _current(lock.tasks.get(name), digests[name]), rotate, lock_path)
    return [load for load in loads if load.task is None or load.task.name not in held], held


def _current(entry: QaLockEntry | None, digest: str) -> bool:
    return entry is not None and entry.digest == digest


def held_by_lock(names: list[str], current: Callable[[str], bool], rotate: int, lock_path: Path) -> list[str]:
    """The tasks the lock stands for: current entries, minus ``sample-*`` and the ``rotate`` chosen by the commit."""
    steady = [name for name in names if not name.startswith("sample-") and current(name)]
    rotating = set(rotation(steady, rotate, commit_number(lock_path.resolve().parent)))
    return [name for name in steady if name not in rotating]


def hold_to_lock(
    lock: QaLock,
    lock_path: Path,
    reports: list[QaTaskReport],
    digests: dict[str, str],
    *,
    update: bool,
    full: bool,
) -> None:
    """Write fresh entries (``--update-lock``), or hold each report to its entry: current, and the same rewards."""
    fresh: dict[str, QaLockEntry] = {}
    for report in reports:
        digest = digests.get(report.task)
        if digest is None:
            continue
        entry = lock.tasks.get(report.task)
        if update:
            if report.passed:
                fresh[report.task] = entry_for(report, digest, full=full)
            continue
        if entry is None or entry.digest != digest:
            state = "no entry" if entry is None else "stale entry (the task or the grading code changed)"
            hint = f"re-run `lhtb tasks check {report.path} --lock {lock_path} --update-lock` and commit the lock"
            report.gates.append(QaGate(name="lock current", passed=False, detail=f"{state}: {hint}"))
            continue
        changed = differences(entry, report)
        detail = "; ".join(changed[:3]) or f"rewards equal the lock's ({entry.checked_at:%Y-%m-%d})"
        report.gates.append(QaGate(name="matches lock", passed=not changed, detail=detail))
    if update:
        lock.tasks.update(change_lock(lock_path, lambda current: _put_entries(current, fresh)))


def _put_entries(lock: QaLock, fresh: dict[str, QaLockEntry]) -> dict[str, QaLockEntry]:
    """Store fresh entries, each keeping the recorded audit of the entry it replaces (the audit's own digest says
    whether it still stands for the new content)."""
    for name, entry in fresh.items():
        previous = lock.tasks.get(name)
        lock.tasks[name] = entry.model_copy(update={"audit": previous.audit if previous is not None else None})
    return {name: lock.tasks[name] for name in fresh}


def held_report(name: str, lock_path: Path) -> QaTaskReport:
    """A task CI did not re-check: unchanged since the lock entry that stands for it."""
    report = QaTaskReport(task=name, path="")
    report.gates.append(QaGate(name="lock current", passed=True, detail=f"unchanged since its entry in {lock_path}"))
    return report


def _audit_state(lock: QaLock, name: str, audit_digest_now: str) -> str | None:
    """Why the lock does not hold a current audit for task ``name`` (None: it does)."""
    entry = lock.tasks.get(name)
    if entry is None or entry.audit is None:
        return "no audit recorded"
    return None if entry.audit.digest == audit_digest_now else "the recorded audit is stale"


def audit_held(lock: QaLock, audit_digests: dict[str, str], rotate: int, lock_path: Path) -> list[str]:
    """The tasks whose recorded audit stands for this run (``lhtb tasks audit --lock --rotate``)."""

    def current(name: str) -> bool:
        return _audit_state(lock, name, audit_digests[name]) is None

    return held_by_lock(sorted(audit_digests), current, rotate, lock_path)


def record_audits(
    lock_path: Path,
    held: dict[str, bool],
    digests: dict[str, str],
    audit_digests: dict[str, str],
    exploits: tuple[str, ...],
    modes: tuple[str, ...],
) -> list[str]:
    """Record the audits that held (``--update-lock``) in tasks' current QA entries; the tasks that have none."""

    def record(lock: QaLock) -> list[str]:
        problems = []
        for name, passed in sorted(held.items()):
            entry = lock.tasks.get(name)
            if entry is None or entry.digest != digests[name]:
                problems.append(
                    f"{name}: no current QA entry to record the audit in: run `lhtb tasks check` on it with "
                    f"--lock {lock_path} --update-lock first"
                )
            elif passed:
                entry.audit = QaLockAudit(
                    digest=audit_digests[name],
                    checked_at=datetime.now(UTC),
                    exploits=sorted(exploits),
                    modes=sorted(modes),
                )
        return problems

    return change_lock(lock_path, record)


def unrecorded_audits(lock: QaLock, lock_path: Path, names: list[str], audit_digests: dict[str, str]) -> list[str]:
    """The audited tasks whose audit the lock does not record for this content: CI audits them every run (the
    lock caches audits that held; it does not stand in for one) until they are recorded."""
    notes = []
    for name in sorted(names):
        if (state := _audit_state(lock, name, audit_digests[name])) is not None:
            notes.append(f"{name}: {state}: record it with `lhtb tasks audit` --lock {lock_path} --update-lock")
    return notes
