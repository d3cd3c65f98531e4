"""QA probes run the real trial lifecycle (on the fake environment here) and grade the held artifacts in rounds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from taskfactory import write_task

from lhtb.environments.fake import FakeProvider
from lhtb.qa.check import oracle_plan
from lhtb.qa.probe import QA_ATTEMPTS, Grading, Round, probe, rounds
from lhtb.results.models import AgentSpec
from lhtb.tasks.loader import load_task

# Reward = the seed's last digit / 10, so every grading shows which seed it ran with.
SEEDED = "python3 -c \"import os; print(int(os.environ['LHTB_VERIFY_SEED']) % 10 / 10)\" > /logs/verifier/reward.txt\n"


def test_oracle_probe_grades_every_round_with_its_own_seed(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "tasks", "demo", test_sh=SEEDED))
    provider = FakeProvider(tmp_path / "sandboxes")
    seeds = [11, 12, 13, 14, 15]
    found = asyncio.run(probe(provider, task, AgentSpec(name="oracle"), "oracle", tmp_path / "qa", oracle_plan(seeds)))
    assert found.error is None
    assert list(found.verdicts) == ["seed-0", "seed-0-again", "seed-1", "seed-2", "seed-3", "seed-4", "spoiled-inputs"]
    assert {label: v.reward for label, v in found.verdicts.items()} == {
        "seed-0": 0.1, "seed-0-again": 0.1, "seed-1": 0.2, "seed-2": 0.3, "seed-3": 0.4, "seed-4": 0.5,
        "spoiled-inputs": 0.1,
    }  # fmt: skip
    assert found.verdicts["seed-0"].phase == "final"  # the trial's own final verification opens the plan
    assert provider.alive() == []


def test_a_probe_whose_agent_cannot_start_reports_the_error_class(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "tasks", "demo"))
    spec = AgentSpec(name="shortcut", kwargs={"script": "missing"})
    found = asyncio.run(probe(FakeProvider(tmp_path / "s"), task, spec, "shortcut:missing", tmp_path / "qa", rounds(1)))
    assert found.reward is None and found.error is not None and found.error.startswith("agent_setup")


def test_a_plan_must_open_with_one_plain_grading(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "tasks", "demo"))
    loaded = [Round((Grading("seed-0", 1),), under_load=True)]
    with pytest.raises(ValueError, match="opens with one plain grading"):
        asyncio.run(probe(FakeProvider(tmp_path / "s"), task, AgentSpec(name="nop"), "nop", tmp_path / "qa", loaded))


class _EngineStallsOnce(FakeProvider):
    """The first verifier container the provider starts fails as an engine that stopped answering does."""

    def __init__(self, root: Path, failing_role: str = "verifier") -> None:
        super().__init__(root)
        self.failing_role = failing_role
        self.failed = 0

    def create(self, spec):  # type: ignore[no-untyped-def]
        env = super().create(spec)
        if spec.role == self.failing_role and not self.failed:
            self.failed += 1

            async def stalled() -> None:
                raise TimeoutError("Read timed out. (read timeout=600)")  # what requests raises, as a plain error

            env.start = stalled  # type: ignore[method-assign]
        return env


@pytest.mark.parametrize("role", ["agent", "verifier"])
def test_a_probe_an_infrastructure_failure_ended_runs_again(tmp_path: Path, role: str) -> None:
    """QA measures the task: a stalled engine in one attempt is retried like a job's harness error, and said."""
    task = load_task(write_task(tmp_path / "tasks", "demo", test_sh=SEEDED))
    provider = _EngineStallsOnce(tmp_path / "sandboxes", role)
    plan = oracle_plan([11, 12, 13, 14, 15])
    found = asyncio.run(probe(provider, task, AgentSpec(name="oracle"), "oracle", tmp_path / "qa", plan))
    assert provider.failed == 1
    assert found.error is None and found.reward == 0.1 and len(found.verdicts) == 7
    assert len(found.retried) == 1 and "Read timed out" in found.retried[0]
    assert provider.alive() == []


def test_a_probe_failing_the_same_way_every_time_reports_it_after_the_last_attempt(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "tasks", "demo"))
    spec = AgentSpec(name="shortcut", kwargs={"script": "missing"})
    found = asyncio.run(probe(FakeProvider(tmp_path / "s"), task, spec, "shortcut:missing", tmp_path / "qa", rounds(1)))
    assert found.error is not None and len(found.retried) == QA_ATTEMPTS - 1


def test_a_retry_cannot_hide_gradings_that_did_not_repeat() -> None:
    """What an earlier attempt graded without error must grade the same in the attempt that counts."""
    from lhtb.errors import ErrorClass
    from lhtb.qa.probe import Probe, _unrepeated
    from lhtb.results.models import ErrorInfo, VerifierOutcome

    first = Probe(agent="oracle", verdicts={
        "seed-0": VerifierOutcome(reward=1.0), "seed-0-again": VerifierOutcome(reward=0.9),
        "seed-3": VerifierOutcome(error=ErrorInfo(error_class=ErrorClass.HARNESS_ERROR, message="ReadTimeout")),
    })  # fmt: skip
    final = Probe(agent="oracle", verdicts={
        "seed-0": VerifierOutcome(reward=1.0), "seed-0-again": VerifierOutcome(reward=1.0),
        "seed-3": VerifierOutcome(reward=1.0),
    })  # fmt: skip
    assert _unrepeated([first], final) == {"seed-0-again": (0.9, 1.0)}
    assert _unrepeated([final], final) == {}
