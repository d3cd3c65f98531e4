"""The node side of the Ray executor and the shipping of trial directories, without Ray: a trial run through
``trial_updates`` and landed with ``apply_batch`` gives the directory and result a local run gives."""

from __future__ import annotations

import asyncio
import tarfile
import threading
import time
from io import BytesIO
from pathlib import Path

from taskfactory import write_task

from lhtb.environments.fake import FakeProvider
from lhtb.environments.tarsafe import tar_directory
from lhtb.jobs.ray_executor import forwarded_env
from lhtb.jobs.ray_node import NodeTrial, materialise_task, tree_digest, trial_updates
from lhtb.jobs.trial_sync import DirTracker, apply_batch
from lhtb.results.models import AgentSpec, TrialResult
from lhtb.tasks.loader import load_task
from lhtb.trial.background import Background
from lhtb.trial.lifecycle import TrialPlan, run_trial


def _plan(task_dir: Path, trial_dir: Path) -> TrialPlan:
    return TrialPlan.new(
        load_task(task_dir), trial_dir, job_name="j", trial_name="demo__oracle__1", agent=AgentSpec(name="oracle"),
        attempt=1, agent_timeout_sec=60, verify_seed=5,
    )  # fmt: skip


def _tree(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() + ("/" if p.is_dir() else "") for p in root.rglob("*")}


def _comparable(value: object) -> object:
    """A result without its times (which differ between any two runs)."""
    if isinstance(value, TrialResult):
        value = value.model_dump(mode="json")
    volatile = {"started_at", "finished_at", "timings", "activity", "at", "agent_sec", "duration_sec"}
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items() if k not in volatile}
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    return value


def test_a_trial_run_on_a_node_lands_as_a_local_run_does(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LHTB_RAY_CACHE", str(tmp_path / "node-cache"))
    task_dir = write_task(tmp_path / "tasks", "demo")
    local = _plan(task_dir, tmp_path / "local" / "demo__oracle__1")

    async def run_locally() -> TrialResult:
        background = Background()
        result = await run_trial(local, background, lambda _n, _p: None, FakeProvider(tmp_path / "sb-local"))
        await background.drain()
        return result

    local_result = asyncio.run(run_locally())

    remote = _plan(task_dir, tmp_path / "head" / "demo__oracle__1")
    node_trial = NodeTrial(
        spec_json=remote.spec.model_dump_json(by_alias=True), task=remote.task, task_digest=tree_digest(task_dir),
        shared_path=False, sync_interval_sec=0.05,
    )  # fmt: skip
    torn_down: list[bytes | None] = []
    done = threading.Event()

    def on_teardown(batch: bytes | None) -> None:
        torn_down.append(batch)
        done.set()

    provider = lambda: FakeProvider(tmp_path / "sb-node")  # noqa: E731
    updates = list(trial_updates(node_trial, tar_directory(task_dir), provider, on_teardown))
    kinds = [kind for kind, _ in updates]
    assert kinds[0] == "phase" and kinds[-1] == "result" and kinds.count("result") == 1 and "refused" not in kinds
    for kind, data in updates:
        if kind in ("files", "result"):
            assert isinstance(data, bytes)
            apply_batch(remote.trial_dir, data, final=kind == "result")
    assert done.wait(30)  # container removal went on after the stream ended
    [teardown] = torn_down
    assert teardown is not None
    apply_batch(remote.trial_dir, teardown, final=False)
    shipped = TrialResult.model_validate_json((remote.trial_dir / "result.json").read_text())
    assert shipped.reward == local_result.reward == 1.0
    assert _comparable(shipped) == _comparable(local_result)
    assert _tree(remote.trial_dir) == _tree(local.trial_dir)
    assert shipped.timings.teardown is not None  # the teardown batch rewrote the result with its time
    scratch = tmp_path / "node-cache" / "trials"
    deadline = time.monotonic() + 5
    while list(scratch.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not list(scratch.iterdir())  # the node's scratch directory is gone once its thread is done


def test_a_node_with_another_lhtb_or_another_copy_of_the_task_refuses(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LHTB_RAY_CACHE", str(tmp_path / "cache"))
    task_dir = write_task(tmp_path / "tasks", "demo")
    plan = _plan(task_dir, tmp_path / "t")
    base = dict(spec_json=plan.spec.model_dump_json(by_alias=True), task=plan.task, task_digest=tree_digest(task_dir))
    old = NodeTrial(**base, shared_path=False, lhtb_version="0.0.0-other")  # type: ignore[arg-type]
    [(kind, message)] = list(trial_updates(old, tar_directory(task_dir)))
    assert kind == "refused" and "install the same lhtb" in str(message)
    shared = NodeTrial(**base, shared_path=True)  # type: ignore[arg-type]
    (task_dir / "tests" / "test.sh").write_text("#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n")
    [(kind, message)] = list(trial_updates(shared, None))
    assert kind == "refused" and "differs from the submitter's copy" in str(message)


def test_a_shipped_task_is_unpacked_once_and_checked_against_its_digest(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LHTB_RAY_CACHE", str(tmp_path / "cache"))
    task_dir = write_task(tmp_path / "tasks", "demo")
    plan = _plan(task_dir, tmp_path / "t")
    trial = NodeTrial(
        spec_json=plan.spec.model_dump_json(by_alias=True), task=plan.task, task_digest=tree_digest(task_dir),
        shared_path=False,
    )  # fmt: skip
    first = materialise_task(trial, tar_directory(task_dir))
    assert first != task_dir and tree_digest(first) == tree_digest(task_dir)
    assert materialise_task(trial, b"not used: the copy is there") == first
    forged = NodeTrial(**{**trial.__dict__, "task_digest": "0" * 64})
    [(kind, message)] = list(trial_updates(forged, tar_directory(task_dir)))
    assert kind == "refused" and "does not match its digest" in str(message)


def test_batches_land_atomically_result_last_and_the_final_one_prunes(tmp_path: Path) -> None:
    node, head = tmp_path / "node", tmp_path / "head"
    (node / "agent").mkdir(parents=True)
    (node / "agent" / "log.txt").write_text("one\n")
    (node / ".result.json.x.tmp").write_text("half")  # an atomic write in flight: never shipped
    tracker = DirTracker(node)
    head.mkdir()
    (head / "config.json").write_text("{}")  # the head's own
    batch = tracker.changed()
    assert batch is not None
    apply_batch(head, batch, final=False)
    assert (head / "agent" / "log.txt").read_text() == "one\n" and not (head / ".result.json.x.tmp").exists()
    assert tracker.changed() is None  # nothing new
    (node / "agent" / "log.txt").write_text("one\ntwo\n")
    (node / "result.json").write_text('{"final": true}')
    partial = tracker.changed()
    assert partial is not None
    with tarfile.open(fileobj=BytesIO(partial)) as archive:
        assert "result.json" not in archive.getnames()
    (node / ".result.json.x.tmp").unlink()
    (node / "agent" / "scratch.txt").write_text("x")
    apply_batch(head, partial, final=False)
    (node / "agent" / "scratch.txt").unlink()  # gone on the node before the end
    (node / "empty").mkdir()
    apply_batch(head, tracker.everything(), final=True)
    assert _tree(head) == _tree(node) | {"config.json"}
    assert (head / "result.json").read_text() == '{"final": true}'
    assert not [p for p in head.iterdir() if p.name.startswith(".incoming-")]


def test_an_unsafe_member_in_a_batch_is_refused(tmp_path: Path) -> None:
    out = BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        info = tarfile.TarInfo("../escaped.txt")
        info.size = 2
        archive.addfile(info, BytesIO(b"hi"))
        link = tarfile.TarInfo("link")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        archive.addfile(link)
    apply_batch(tmp_path / "trial", out.getvalue(), final=False)
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "trial" / "link").exists()


def test_model_keys_and_endpoints_are_forwarded_and_nothing_else() -> None:
    env = {
        "OPENAI_API_KEY": "k1", "ANTHROPIC_API_KEY": "k2", "MYPROVIDER_API_KEY": "k3", "OPENAI_BASE_URL": "u",
        "LHTB_FEEDBACK_PAUSE_SEC": "8", "AWS_SECRET_ACCESS_KEY": "k4", "HOME": "/root", "PATH": "/bin",
        "LHTB_RAY_CACHE": "/node/own", "SSH_AUTH_SOCK": "/tmp/s",
    }  # fmt: skip
    assert forwarded_env(env) == {
        "OPENAI_API_KEY": "k1", "ANTHROPIC_API_KEY": "k2", "MYPROVIDER_API_KEY": "k3", "OPENAI_BASE_URL": "u",
        "LHTB_FEEDBACK_PAUSE_SEC": "8", "AWS_SECRET_ACCESS_KEY": "k4",
    }  # fmt: skip
    assert forwarded_env({}) == {}
