"""The bundled sample tasks: the oracle scores exactly 1.0, nop 0.0, and results carry the SDK's scorecards."""

from __future__ import annotations

from pathlib import Path

from helpers import run
from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.tasks.loader import scan_dataset

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def test_bundled_tasks_oracle_one_nop_zero(tmp_path: Path) -> None:
    # The small sample tasks exercise the whole path; every bundled task gets the same checks (and more) from
    # `lhtb tasks check tasks`, which scripts/test.sh runs after the test suite.
    names = [
        load.task.name for load in scan_dataset(TASKS) if load.task is not None and load.task.name.startswith("sample-")
    ]
    assert len(names) == 3
    job, trials = run(TASKS, tmp_path, ("oracle", "nop"), name="samples", concurrency=2, tasks=names)
    for name in names:
        oracle, nop = trials[f"{name}__oracle__1"], trials[f"{name}__nop__1"]
        assert oracle.error is None and oracle.reward == 1.0, (name, oracle.error)
        assert nop.error is None and nop.reward == 0.0, (name, nop.error)
        # Dense grading through lhtb.grading inside the verifier container: the subtasks reach the result.
        assert oracle.verifier is not None and oracle.verifier.source == "lhtb.reward/1"
        assert len(oracle.subtasks) >= 5
        assert {s.visibility for s in oracle.subtasks} == {"public", "hidden"}
        hidden = sum(s.weight for s in oracle.subtasks if s.visibility == "hidden")
        assert hidden / sum(s.weight for s in oracle.subtasks) >= 0.6
    assert {a.agent: a.mean_reward for a in job.agents} == {"oracle": 1.0, "nop": 0.0}

    shown = CliRunner().invoke(app, ["trials", "show", str(tmp_path / "samples" / "trials" / f"{names[0]}__oracle__1")])
    assert shown.exit_code == 0
    assert "scorecard" in shown.output and "hidden" in shown.output
    means = CliRunner().invoke(app, ["jobs", "show", str(tmp_path / "samples"), "--subtasks"])
    assert means.exit_code == 0 and "per-subtask mean score" in means.output
