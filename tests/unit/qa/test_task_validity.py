"""The task-validity machinery: verify seeds, the self-report scan, spoiled public inputs and the QA lock."""

from __future__ import annotations

import io
import os
import tarfile
import tempfile
from pathlib import Path

import pytest

from lhtb.environments.tarsafe import SanitizedArchive
from lhtb.errors import ConfigError
from lhtb.jobs.seeds import MAX_SEED, trial_seed
from lhtb.qa.check import oracle_plan, qa_seeds, shortcut_scripts
from lhtb.qa.lock import (
    audit_digest,
    audit_held,
    differences,
    entry_for,
    hold_to_lock,
    read_lock,
    record_audits,
    rotation,
    task_digest,
    unrecorded_audits,
    write_lock,
)
from lhtb.qa.scaffold import scaffold
from lhtb.qa.spoil import JUNK, shipped_files, spoil_public_inputs
from lhtb.qa.static import seed_readers, self_reported_reads
from lhtb.results.models import QaLock, QaTaskReport
from lhtb.tasks.loader import load_task
from lhtb.verifier.separate import ArtifactSnapshot


def test_trial_seeds_differ_by_task_and_attempt_and_repeat_for_the_same_job_seed() -> None:
    seeds = {trial_seed(7, task, attempt) for task in ("a", "b") for attempt in (1, 2, 3)}
    assert len(seeds) == 6
    assert trial_seed(7, "a", 1) == trial_seed(7, "a", 1)
    assert trial_seed(7, "a", 1) != trial_seed(8, "a", 1)
    assert all(0 <= s <= MAX_SEED for s in seeds)


def test_qa_grades_the_oracle_on_five_seeds_four_under_load_and_once_spoiled() -> None:
    seeds = qa_seeds("demo", 5)
    assert len(set(seeds)) == 5 and seeds == qa_seeds("demo", 5)
    plan = oracle_plan(seeds)
    labels = [g.label for step in plan for g in step.gradings]
    assert labels == ["seed-0", "seed-0-again", "seed-1", "seed-2", "seed-3", "seed-4", "spoiled-inputs"]
    assert [len(step.gradings) for step in plan if step.under_load] == [2, 2]
    assert plan[-1].gradings[0].spoil_inputs and plan[-1].gradings[0].seed == seeds[0]


def test_scaffold_ships_three_shortcuts_and_reads_the_seed(tmp_path: Path) -> None:
    task = load_task(scaffold("demo", tmp_path, "x"))
    assert shortcut_scripts(task) == ["count", "first-number", "public-only"]
    assert seed_readers(task) == ["tests/grade.py"]
    assert self_reported_reads(task) == []
    assert task.config.qa.ceiling("count") == 0.3


def test_self_report_scan_flags_lookups_of_the_programs_own_counters(tmp_path: Path) -> None:
    root = scaffold("demo", tmp_path, "x")
    grade = root / "tests" / "grade.py"
    grade.write_text(
        grade.read_text()
        + "import json, re\n"
        + "report = json.loads('{}')\n"
        + "work = report['nfev'] + report.get('bytes_written', 0)\n"
        + "m = re.search(r'fsyncs=(\\d+)', '')\n"
        + "ok = 'elapsed_sec' in report\n"
        + "name = report['answer']\n"  # the program's answer, not a claim about itself
    )
    task = load_task(root)
    found = self_reported_reads(task)
    keys = sorted(item.split(" ", 1)[1] for item in found)
    assert keys == sorted(["'nfev'", "'bytes_written'", repr("fsyncs=(\\d+)"), "'elapsed_sec'"])
    assert all(item.startswith("tests/grade.py:") for item in found)
    (root / "task.toml").write_text(
        (root / "task.toml").read_text()
        + '\n[qa.self_report]\nnfev = "counted again by the verifier"\nbytes_written = "x"\nfsyncs = "x"\n'
        + 'elapsed_sec = "x"\n'
    )
    assert self_reported_reads(load_task(root)) == []


def _archive(files: dict[str, bytes]) -> SanitizedArchive:
    out = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the snapshot
    with tarfile.open(fileobj=out, mode="w:") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return SanitizedArchive(file=out, size=out.tell(), n_members=len(files))


def _members(archive: SanitizedArchive | None) -> dict[str, bytes]:
    assert archive is not None
    with tarfile.open(fileobj=archive.reader(), mode="r:") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]


def test_spoiling_replaces_only_data_files_left_as_the_image_shipped_them(tmp_path: Path) -> None:
    root = scaffold("demo", tmp_path, "x")
    (root / "task.toml").write_text(
        (root / "task.toml").read_text() + '\n[qa.runtime_inputs]\n"rates.json" = "the program reads it"\n'
    )
    task = load_task(root)
    shipped = b"1\n2\n3\n"
    image = {  # the workdir as the image ships it (generated at build time or copied)
        "app/data.csv": shipped,
        "app/edited.csv": shipped,
        "app/rates.json": b'{"eur": 1}',
        "app/tool.py": b"print(1)\n",
    }
    files = {
        "app/data.csv": shipped,  # as shipped: spoiled
        "app/out.csv": b"agent output\n",  # the agent's own file
        "app/copy.csv": shipped,  # the same bytes at another path: the agent's file
        "app/edited.csv": shipped + b"4\n",  # changed by the agent: no longer a public input
        "app/rates.json": b'{"eur": 1}',  # declared as read at run time
        "app/tool.py": b"print(1)\n",  # code, never spoiled
    }
    clean = ArtifactSnapshot(tars={"/app": _archive(image)}, refused=[])
    snapshot = ArtifactSnapshot(tars={"/app": _archive(files)}, refused=[])
    spoiled, names = spoil_public_inputs(snapshot, shipped_files(clean), task)
    try:
        assert names == ["/app/data.csv"]
        members = _members(spoiled.tars["/app"])
        assert members["app/data.csv"] == JUNK
        assert {k: v for k, v in members.items() if k != "app/data.csv"} == {
            k: v for k, v in files.items() if k != "app/data.csv"
        }
    finally:
        for item in (spoiled, snapshot, clean):
            item.close()


def _report(rewards: dict[str, dict[str, float | None]]) -> QaTaskReport:
    return QaTaskReport(task="demo", path="tasks/demo", seeds=[1, 2], seed_rewards=rewards)


def test_lock_entries_round_trip_and_report_differences(tmp_path: Path) -> None:
    path = tmp_path / "qa-lock.json"
    lock = read_lock(path)
    assert lock.tasks == {}
    lock.tasks["demo"] = entry_for(_report({"oracle": {"seed-0": 1.0}, "baseline": {"seed-0": 0.4}}), "abc", full=True)
    write_lock(path, lock)
    again = read_lock(path)
    assert again.tasks["demo"].digest == "abc"
    entry = again.tasks["demo"]
    assert differences(entry, _report({"oracle": {"seed-0": 1.0 + 1e-9}})) == []  # float noise
    assert differences(entry, _report({"baseline": {"seed-0": 0.41}})) == ["baseline seed-0: 0.41 now, 0.4 in the lock"]
    assert differences(entry, _report({"shortcut:x": {"seed-0": 0.1}})) == []  # graded now, not in the lock


def test_a_broken_lock_names_the_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "qa-lock.json"
    path.write_text('{"schema": "lhtb.qa-lock/1", "tasks": {"demo": {"digest": 3}}}')
    with pytest.raises(ConfigError, match=r"qa-lock\.json: tasks\.demo\.digest"):
        read_lock(path)


def test_digest_changes_with_any_task_file(tmp_path: Path) -> None:
    root = scaffold("demo", tmp_path, "x")
    before = task_digest(load_task(root))
    assert task_digest(load_task(root)) == before
    (root / "tests" / "shortcuts" / "count.sh").write_text("#!/bin/bash\n")
    assert task_digest(load_task(root)) != before


def test_digest_follows_what_task_toml_means_not_how_it_is_written(tmp_path: Path) -> None:
    root = scaffold("demo", tmp_path, "x")
    toml = root / "task.toml"
    before = task_digest(load_task(root))
    toml.write_text(toml.read_text() + "# a note on the estimate\n")
    assert task_digest(load_task(root)) == before  # a comment
    text = toml.read_text()
    assert "[verifier]\n" in text and "restart_environment" not in text
    toml.write_text(text.replace("[verifier]\n", "[verifier]\nrestart_environment = false\n"))
    assert task_digest(load_task(root)) == before  # a default written out
    toml.write_text(text.replace("[verifier]\n", "[verifier]\nrestart_environment = true\n"))
    assert task_digest(load_task(root)) != before  # a meaning changed
    toml.write_text("\n".join(line for line in text.splitlines() if "canary" not in line) + "\n")
    assert task_digest(load_task(root)) != before  # the canary gate's input


def test_digest_follows_the_verifier_protocol_not_host_plumbing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host side of verification is hashed by its protocol number: a refactor of its code leaves every
    entry current, a change of meaning (a bumped number) makes every entry stale."""
    import lhtb.qa.lock as lock_module

    task = load_task(scaffold("demo", tmp_path, "x"))
    before = task_digest(task)
    monkeypatch.setattr(lock_module, "VERIFIER_PROTOCOL", lock_module.VERIFIER_PROTOCOL + 1)
    assert task_digest(task) != before


def test_rotation_walks_through_every_task_in_turn() -> None:
    names = [f"t{i}" for i in range(7)]
    seen = [rotation(names, 2, n) for n in range(4)]
    assert seen == [["t0", "t1"], ["t2", "t3"], ["t4", "t5"], ["t6"]]
    assert rotation(names, 2, 4) == seen[0]
    assert rotation(names, 0, 3) == [] and rotation([], 2, 1) == []


def test_the_lock_records_audits_that_held_and_rotates_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "qa-lock.json"
    lock = read_lock(path)
    names = [f"t{i}" for i in range(5)]
    for name in names:
        lock.tasks[name] = entry_for(_report({"oracle": {"seed-0": 1.0}}), f"d-{name}", full=True)
    write_lock(path, lock)
    digests = {name: f"d-{name}" for name in names}
    exploits, modes = ("a", "b"), ("separate",)
    audits = {name: audit_digest(d, exploits, modes) for name, d in digests.items()}
    assert audit_digest("d-t0", ("a",), modes) != audits["t0"]  # another exploit set is another audit
    # Nothing recorded: every task is audited, each with a note.
    assert audit_held(lock, audits, 2, path) == []
    assert len(unrecorded_audits(lock, path, names, audits)) == 5
    held = {name: name != "t4" for name in names}  # the audit of t4 broke: it is not recorded
    assert record_audits(path, held, digests, audits, exploits, modes) == []
    lock = read_lock(path)
    first = lock.tasks["t0"].audit
    assert lock.tasks["t4"].audit is None and first is not None and first.exploits == ["a", "b"]
    # Four recorded audits: two rotate in, two are held; t4 (none recorded) is audited.
    held_now = audit_held(lock, audits, 2, path)
    assert len(held_now) == 2 and "t4" not in held_now
    assert unrecorded_audits(lock, path, ["t0", "t4"], audits) == [
        f"t4: no audit recorded: record it with `lhtb tasks audit` --lock {path} --update-lock"
    ]
    # A fresh QA entry keeps the recorded audit; a changed task makes it stale.
    again = QaTaskReport(task="t0", path="tasks/t0", seed_rewards={"oracle": {"seed-0": 1.0}})
    hold_to_lock(read_lock(path), path, [again], {"t0": "d-t0"}, update=True, full=True)
    lock = read_lock(path)
    assert lock.tasks["t0"].audit == first
    changed = dict(audits, t0=audit_digest("d-t0-changed", exploits, modes))
    assert "stale" in unrecorded_audits(lock, path, ["t0"], changed)[0]
    assert "t0" not in audit_held(lock, changed, 0, path)
    # An audit is recorded only in a current QA entry.
    moved = dict(digests, t1="other")
    assert "no current QA entry" in record_audits(path, {"t1": True}, moved, audits, exploits, modes)[0]


def test_two_checks_updating_one_lock_keep_each_others_entries(tmp_path: Path) -> None:
    path = tmp_path / "qa-lock.json"
    first, second = read_lock(path), read_lock(path)  # both read before either writes
    passing = QaTaskReport(task="x", path="tasks/x", seed_rewards={"oracle": {"seed-0": 1.0}})
    hold_to_lock(first, path, [passing], {"x": "dx"}, update=True, full=True)
    hold_to_lock(second, path, [passing.model_copy(update={"task": "y"})], {"y": "dy"}, update=True, full=True)
    assert sorted(read_lock(path).tasks) == ["x", "y"]


def test_lock_model_is_strict() -> None:
    with pytest.raises(ValueError):
        QaLock.model_validate({"schema": "lhtb.qa-lock/1", "tasks": {}, "extra": 1})
    assert QaLock().model_dump(by_alias=True)["schema"] == "lhtb.qa-lock/1"


def test_cpu_hog_spins_one_process_per_core_and_leaves_none() -> None:
    import asyncio
    import subprocess

    from lhtb.qa.load import cpu_hog

    def spinners() -> int:
        # This process's spinners only: a QA check elsewhere on the machine runs its own.
        found = subprocess.run(
            ["pgrep", "-P", str(os.getpid()), "-f", "while os.getppid"], capture_output=True, text=True
        ).stdout
        return len(found.split())

    async def main() -> tuple[int, int]:
        async with cpu_hog(2) as count:
            await asyncio.sleep(0.3)
            return count, spinners()

    count, running = asyncio.run(main())
    assert count == 2 and running == 2
    assert spinners() == 0
