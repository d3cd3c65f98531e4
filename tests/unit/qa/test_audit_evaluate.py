"""The audit's verdict logic, offline: TOML patching, rejection check, hidden-file matching, success rule."""

from __future__ import annotations

import hashlib
import io
import tarfile
import tomllib
from datetime import UTC, datetime
from pathlib import Path

from lhtb.agents.registry import create_agent, is_known_agent
from lhtb.environments.tarsafe import sanitize
from lhtb.errors import ErrorClass
from lhtb.qa.audit import AuditSettings, agents_for, evaluate, hidden_digests, prepare_dataset, set_toml_key
from lhtb.qa.exploits.base import ExploitRecord, parse_report
from lhtb.qa.exploits.names import BASELINE, EXPLOITS
from lhtb.qa.exploits.surroundings import rejection_problem
from lhtb.results.models import AgentSpec, CheckpointRecord, ErrorInfo, PhaseRecord, TrialResult
from lhtb.tasks.loader import load_task
from lhtb.trial.feedback import rejection

NOW = datetime.now(UTC)


def _result(name: str, reward: float | None, phases: list[float | None], **kw: object) -> TrialResult:
    records = [
        PhaseRecord(index=i, started_at=NOW, reward=r, resumed_with=None if i == 0 else rejection(90))
        for i, r in enumerate(phases)
    ]
    return TrialResult(
        trial_name="t", job_name="j", task_name="task", agent=AgentSpec(name=name), attempt=1,
        started_at=NOW, finished_at=NOW, reward=reward, phases=records, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def test_set_toml_key_replaces_inserts_and_appends() -> None:
    text = '[agent]\ntimeout_sec = 600\n[verifier]\ntimeout_sec = 120\nenvironment_mode = "separate"\n'
    text = set_toml_key(text, "agent", "timeout_sec", "12.0")
    text = set_toml_key(text, "verifier", "environment_mode", '"shared"')
    text = set_toml_key(text, "environment", "cpus", "1")
    parsed = tomllib.loads(text)
    assert parsed["agent"]["timeout_sec"] == 12.0
    assert parsed["verifier"] == {"timeout_sec": 120, "environment_mode": "shared"}
    assert parsed["environment"]["cpus"] == 1


def test_prepared_copies_are_valid_tasks(make_task, tmp_path: Path) -> None:
    task = load_task(make_task("t1"))
    dataset = prepare_dataset([task], tmp_path / "ds", "shared", 12)
    copy = load_task(dataset / "t1")
    assert copy.config.agent.timeout_sec == 12
    assert copy.config.verifier.environment_mode == "shared"


def test_rejection_check_accepts_only_the_fixed_sentence() -> None:
    assert rejection_problem(rejection(600)) is None
    assert rejection_problem("Task x: do it\n\n" + rejection(61)) is None  # restart mode
    assert rejection_problem(rejection(600) + " 3 of 5 tests failed") is not None
    assert rejection_problem(rejection(600).replace("about", "roughly")) is not None


def test_parse_report_collects_findings_and_hashes() -> None:
    record = ExploitRecord(exploit="x")
    digest = "a" * 64
    parse_report(f"noise\nFINDING /tests exists\nHASH {digest} /tmp/f\nFINDING /tests exists\n", record, 0)
    assert record.findings == ["phase 0: /tests exists"]
    assert record.hashes == {"/tmp/f": digest}


def test_success_is_any_verification_above_nop() -> None:
    final_only = evaluate(_result("exploit-weak-checks", 0.0, [0.0, 0.0]), ExploitRecord(exploit="x"), 0.0, {})
    assert final_only.passed
    interim = evaluate(_result("exploit-weak-checks", 0.0, [0.5, 0.0]), ExploitRecord(exploit="x"), 0.0, {})
    assert interim.succeeded and interim.best_reward == 0.5
    curve = [CheckpointRecord(agent_sec=1, reward=0.2)]
    checkpoint = evaluate(_result("exploit-clock", 0.0, [0.0], reward_curve=curve), ExploitRecord(exploit="x"), 0, {})
    assert checkpoint.succeeded


def test_findings_hidden_files_and_excluded_trials(tmp_path: Path) -> None:
    hidden_text = b"the hidden reference answer, long enough to be distinctive\n"
    record = ExploitRecord(exploit="x", hashes={"/tmp/copy": hashlib.sha256(hidden_text).hexdigest()})
    hidden = {hashlib.sha256(hidden_text).hexdigest(): "tests/reference.py"}
    error = ErrorInfo(error_class=ErrorClass.HARNESS_ERROR, message="exec failed")
    cell = evaluate(_result("exploit-sabotage", None, [0.0], error=error), record, 0.0, hidden)
    assert not cell.succeeded and not cell.passed
    assert any("tests/reference.py" in f for f in cell.findings)
    assert any("excluded from scoring" in f for f in cell.findings)
    verifier_error = ErrorInfo(error_class=ErrorClass.VERIFIER_ERROR, message="no reward")
    counted = evaluate(_result("exploit-sabotage", None, [0.0], error=verifier_error), None, 0.0, {})
    assert counted.reward == 0.0 and counted.findings == ["no exploit record (the agent did not run)"]


def test_hidden_digests_skip_files_the_image_ships(make_task) -> None:
    path = make_task("t2")
    (path / "environment" / "data.txt").write_text("shared public fixture content\n")
    (path / "tests" / "data.txt").write_text("shared public fixture content\n")
    (path / "tests" / "secret.py").write_text("EXPECTED = 'the hidden expected answer'\n")
    names = set(hidden_digests(load_task(path)).values())
    assert "tests/secret.py" in names and "tests/data.txt" not in names


def test_every_exploit_is_a_registered_agent_with_resume() -> None:
    for name in [*EXPLOITS, BASELINE]:
        assert is_known_agent(name)
        agent = create_agent(AgentSpec(name=name))
        assert agent.name == name and callable(getattr(agent, "resume", None))
    shared = [a.name for a in agents_for("shared", AuditSettings())]
    assert shared[0] == BASELINE and "exploit-trojan-tools" not in shared and "exploit-poller" in shared
    numbers = sorted(info.number for info in EXPLOITS.values())
    assert numbers == list(range(1, 22))  # 1-14, then 15-21 (integrity round 2)


def test_sanitized_artifacts_lose_setuid_bits() -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as archive:
        info = tarfile.TarInfo("app/.x-rootpy")
        info.mode, info.size = 0o4755, 4
        archive.addfile(info, io.BytesIO(b"\x7fELF"))
    clean = sanitize([raw.getvalue()])
    with tarfile.open(fileobj=io.BytesIO(clean.data)) as archive:
        assert archive.getmember("app/.x-rootpy").mode == 0o755


def test_timing_channel_is_judged_on_the_waits_after_on_time_verifications() -> None:
    result = _result("exploit-timing-channel", 0.0, [0.0, 0.0, 0.0, 0.0])
    for phase in result.phases[:3]:
        phase.verification_sec, phase.feedback_pause_sec = 2.0, 6.0
    steady = ExploitRecord(exploit="exploit-timing-channel", gaps_sec=[6.1, 6.3, 6.0])
    assert evaluate(result, steady, 0.0, {}).passed
    varying = ExploitRecord(exploit="exploit-timing-channel", gaps_sec=[6.1, 9.5, 6.0])
    cell = evaluate(result, varying, 0.0, {})
    assert not cell.passed and "resume delay varies" in cell.findings[0]
    result.phases[1].late = True  # a verification past the pause (audit jobs wait for it): not judged
    assert evaluate(result, varying, 0.0, {}).passed


def test_forged_usage_must_be_refused_and_labelled() -> None:
    from lhtb.results.models import Usage

    forged = _result("exploit-forged-usage", 0.0, [0.0], usage=Usage.reported(input_tokens=-5))
    assert evaluate(forged, ExploitRecord(exploit="exploit-forged-usage"), 0.0, {}).passed
    unlabelled = _result("exploit-forged-usage", 0.0, [0.0], usage=Usage(input_tokens=5, source="measured"))
    cell = evaluate(unlabelled, ExploitRecord(exploit="exploit-forged-usage"), 0.0, {})
    assert not cell.passed and any("not 'self-reported'" in f for f in cell.findings)
