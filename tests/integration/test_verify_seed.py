"""Every trial is graded on its own verify seed, derived from the job's, in separate and in shared mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run

from lhtb.jobs.seeds import trial_seed
from lhtb.qa.scaffold import scaffold


@pytest.mark.parametrize("mode", ["separate", "shared"])
def test_each_trial_gets_its_seed_and_the_verifier_sees_it(tmp_path: Path, mode: str) -> None:
    root = scaffold("seeded", tmp_path / "tasks", "x")
    test_sh = root / "tests" / "test.sh"
    # The verifier records the seed it was given next to its reward.
    test_sh.write_text(
        test_sh.read_text().replace(
            "exec python3", 'printf %s "$LHTB_VERIFY_SEED" > /logs/verifier/seed.txt\nexec python3'
        )
    )
    if mode == "shared":
        toml = root / "task.toml"
        toml.write_text(toml.read_text().replace('environment_mode = "separate"', 'environment_mode = "shared"'))
    _job, trials = run(tmp_path / "tasks", tmp_path / "jobs", ("oracle", "baseline"), attempts=2, verify_seed=99)
    assert len(trials) == 4
    for name, result in trials.items():
        expected = trial_seed(99, "seeded", result.attempt)
        assert result.verify_seed == expected, name
        seen = (tmp_path / "jobs" / "job" / "trials" / name / "verifier" / "final" / "output" / "seed.txt").read_text()
        assert seen == str(expected), name
    by_attempt = {(r.agent.name, r.attempt): r.verify_seed for r in trials.values()}
    assert by_attempt[("oracle", 1)] == by_attempt[("baseline", 1)]  # agents compared on the same cases
    assert by_attempt[("oracle", 1)] != by_attempt[("oracle", 2)]  # attempts on different ones


def test_a_job_without_a_given_seed_draws_and_records_one(tmp_path: Path) -> None:
    scaffold("seeded", tmp_path / "tasks", "x")
    from lhtb.jobs.job_runner import new_job_config
    from lhtb.results.models import AgentSpec

    first = new_job_config(tmp_path / "tasks", None, [AgentSpec(name="nop")], job_name="a", attempts=1, concurrency=1,
                           max_retries=0)  # fmt: skip
    second = new_job_config(tmp_path / "tasks", None, [AgentSpec(name="nop")], job_name="b", attempts=1, concurrency=1,
                            max_retries=0)  # fmt: skip
    assert first.verify_seed is not None and second.verify_seed is not None
    assert first.verify_seed != second.verify_seed
