"""Every case of the bad-input corpus (tests/badinput/generate.py) beside a good task: the exact outcome.

For each case: the bad task is task_invalid with a message naming the file and the field or cause; the good
task loads; nothing raises; the planned trials are one per task, agent and attempt, with distinct directories;
no file of the dataset is changed; ``lhtb tasks list`` exits 1 (0 when everything is valid, 2 when the path
itself is refused).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

import pytest

from lhtb.cli.commands import tasks_list_command
from lhtb.errors import ErrorClass, TaskInvalidError
from lhtb.jobs.job_runner import new_job_config, plan_trials
from lhtb.jobs.layout import trial_name
from lhtb.results.models import AgentSpec
from lhtb.tasks.loader import load_task, scan_dataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from badinput.generate import Case, all_cases, write_task

CASES = all_cases()
AGENTS = [AgentSpec(name="oracle"), AgentSpec(name="terminus", model="openai/gpt-4o")]
MAX_CASE_SEC = 2.0


def _fingerprint(root: Path) -> dict[str, str]:
    """Every entry under ``root`` with its content digest (or link target / kind): loading must not change it."""
    seen = {}
    for dirpath, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            path = Path(dirpath) / name
            if path.is_symlink():
                seen[str(path)] = "link:" + os.readlink(path)
            elif path.is_file():
                seen[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                seen[str(path)] = "dir" if path.is_dir() else "special"
    return seen


def _fill(fragments: tuple[str, ...], root: Path) -> list[str]:
    return [fragment.replace("{root}", str(root)) for fragment in fragments]


def test_the_corpus_is_big_enough_and_deterministic() -> None:
    assert len(CASES) >= 150
    assert [case.case_id for case in all_cases()] == [case.case_id for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=[case.case_id for case in CASES])
def test_case(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = (tmp_path / "dataset").resolve()
    root.mkdir()
    case.build(root)
    write_task(root, "good")
    before = _fingerprint(tmp_path)
    started = time.monotonic()

    if case.dataset_error:
        target = root / case.path
        with pytest.raises(TaskInvalidError) as refused:
            scan_dataset(target)
        for fragment in _fill(case.dataset_error, root):
            assert fragment in str(refused.value)
        assert tasks_list_command(target) == 2
        assert _fingerprint(tmp_path) == before
        return

    loads = {load.path.name: load for load in scan_dataset(root)}
    elapsed = time.monotonic() - started
    assert elapsed < MAX_CASE_SEC, f"loading took {elapsed:.1f} s"

    good = loads.pop("good")
    assert good.task is not None and good.error is None, good.error
    for directory, fragments in case.invalid.items():
        load = loads[directory]
        assert load.task is None, f"{directory} should be invalid"
        for fragment in _fill(fragments, root):
            assert fragment in (load.error or ""), f"{fragment!r} not in {load.error!r}"
        assert len(load.error or "") < 4000
    for directory in case.valid:
        load = loads[directory]
        assert load.task is not None, load.error
        expected_notes = _fill(case.notes.get(directory, ()), root)
        for fragment in expected_notes:
            assert any(fragment in note for note in load.task.notes), load.task.notes
        if not expected_notes:
            assert load.task.notes == ()
    assert set(loads) == set(case.invalid) | set(case.valid)

    # Single-task loading agrees and raises our class (task_invalid: not retried, not graded).
    for directory in case.invalid:
        if (root / directory).is_dir() and "unique in a dataset" not in (loads[directory].error or ""):
            with pytest.raises(TaskInvalidError) as info:
                load_task(root / directory)
            assert info.value.error_class is ErrorClass.TASK_INVALID

    # Planning: every task (valid or not) gets its own trials; no two trials share a directory.
    config = new_job_config(root, None, AGENTS, job_name="j", attempts=2, concurrency=1, max_retries=0)
    planned = plan_trials(config)
    assert len(planned) == (len(loads) + 1) * len(AGENTS) * 2
    assert len({trial.name for trial in planned}) == len(planned)
    assert {trial.load.path.name for trial in planned} == set(loads) | {"good"}
    invalid_planned = {trial.load.path.name for trial in planned if trial.load.task is None}
    assert invalid_planned == set(case.invalid)
    if case.distinct_trials:
        names = {trial_name(name, agent, 1) for name in case.distinct_trials for agent in AGENTS}
        assert len(names) == len(case.distinct_trials) * len(AGENTS)

    assert tasks_list_command(root) == (1 if case.invalid else 0)
    capsys.readouterr()
    assert _fingerprint(tmp_path) == before  # nothing already written is changed or lost
