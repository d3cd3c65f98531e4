"""A multi-step task (Harbor's ``[[steps]]``) in real containers: lhtb runs each step staged, solved and verified
in one agent container, in both verifier modes, and scores it as stock Harbor 0.26 does: the same reward for
every trial and every step (tests/taskfactory.py ``write_multi_step_task`` says what each step checks)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import containers_of, run
from taskfactory import REPO, write_multi_step_task

HARBOR_BIN = REPO / "build" / "harbor-venv" / "bin"
# (directory, verifier mode, strategy) -> the oracle's reward, as Harbor computes it: under "mean" the per-key
# mean of the steps' rewards ("extend" names two rewards and no "reward"), under "final" the last step's.
TASKS = {("ms-separate", "separate", "mean"): 2 / 3, ("ms-shared", "shared", "final"): 1.0}


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("multi-step")
    for name, mode, strategy in TASKS:
        write_multi_step_task(root, name, mode=mode, strategy=strategy)
    return root


@pytest.fixture(scope="module")
def lhtb_trials(tasks: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    _job, trials = run(tasks, tmp_path_factory.mktemp("jobs"), ("oracle", "nop"), name="steps", concurrency=2)
    assert containers_of("steps") == []
    return {(t.task_name.removeprefix("lhtb/"), t.agent.name): t for t in trials.values()}


def test_lhtb_runs_every_step_in_one_container(lhtb_trials: dict) -> None:
    for (name, mode, _strategy), reward in TASKS.items():
        oracle, nop = lhtb_trials[(name, "oracle")], lhtb_trials[(name, "nop")]
        assert oracle.error is None and oracle.reward == pytest.approx(reward), (name, oracle.error)
        assert oracle.spec.verifier_mode == mode
        assert [(s.name, s.verifier.reward) for s in oracle.steps] == [
            ("create", 1.0),
            ("extend", 1.0),
            ("finish", 1.0),
        ]
        assert [p.step for p in oracle.phases] == ["create", "extend", "finish"]
        # nop fails the first step's gate: the others never run, and count 0
        assert nop.error is None and nop.reward == 0.0
        assert [s.skipped is not None for s in nop.steps] == [False, True, True]


@pytest.mark.slow
@pytest.mark.skipif(not (HARBOR_BIN / "harbor").exists(), reason="stock Harbor absent (scripts/harbor-venv.sh)")
def test_stock_harbor_scores_the_same_task_the_same(tasks: Path, lhtb_trials: dict, tmp_path: Path) -> None:
    lhtb = shutil.which("lhtb", path=str(REPO / ".venv" / "bin"))
    assert lhtb is not None
    exported = tmp_path / "harbor-tasks"
    names = [name for name, _mode, _strategy in TASKS]
    done = subprocess.run(
        [lhtb, "tasks", "export", *(str(tasks / n) for n in names), "--harbor", str(exported)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    from test_harbor_export import _harbor_run

    for agent in ("oracle", "nop"):
        results = _harbor_run(exported, tmp_path, agent)
        assert sorted(results) == [f"lhtb/{n}" for n in sorted(names)]
        for name in names:
            harbor, ours = results[f"lhtb/{name}"], lhtb_trials[(name, agent)]
            assert harbor["exception_info"] is None, (name, harbor["exception_info"])
            assert harbor["verifier_result"]["rewards"]["reward"] == pytest.approx(ours.reward), (name, agent)
            harbor_steps = {s["step_name"]: s["verifier_result"]["rewards"] for s in harbor["step_results"]}
            our_steps = {s.name: {k.name: k.score for k in s.verifier.subtasks} for s in ours.steps if s.verifier}
            assert harbor_steps == our_steps, (name, agent)
    # Harbor's trials read back by lhtb keep their steps
    from lhtb.harbor.results_import import load_harbor_job

    _config, read_back, problems, _unfinished = load_harbor_job(tmp_path / "oracle")
    assert problems == []
    assert {len(t.steps) for t in read_back} == {3}
    assert [s.name for s in read_back[0].steps] == ["create", "extend", "finish"]


@pytest.mark.parametrize("mode", ["separate", "shared"])
def test_the_next_step_is_staged_while_the_agent_is_stopped(tmp_path: Path, mode: str) -> None:
    """A background process the agent left after step one does not run while step two's setup.sh runs: staging
    is no one's free time (the agent clock is stopped then)."""
    task = write_multi_step_task(tmp_path / "tasks", "staged", mode=mode)
    solve = task / "steps" / "create" / "solution" / "solve.sh"
    ticker = "nohup setsid bash -c 'while :; do echo x >> /app/ticks; sleep 0.05; done' >/dev/null 2>&1 &"
    solve.write_text(solve.read_text() + ticker + "\nsleep 0.5\n")
    (task / "steps" / "extend" / "workdir").mkdir(parents=True)
    (task / "steps" / "extend" / "workdir" / "setup.sh").write_text(
        'a=$(wc -l < /app/ticks); sleep 1; b=$(wc -l < /app/ticks); [ "$a" = "$b" ] && echo still > staging.txt '
        "|| echo ran > staging.txt\n"
    )
    test = task / "steps" / "extend" / "tests" / "test.sh"
    test.write_text(test.read_text().replace("check /app/staged.txt staged", "check /app/staging.txt still"))
    _job, trials = run(tmp_path / "tasks", tmp_path / "jobs", ("oracle",), name=f"staged-{mode}")
    (trial,) = trials.values()
    assert trial.error is None, trial.error
    extend = {s.name: s for s in trial.steps}["extend"]
    assert extend.verifier is not None and {k.name: k.score for k in extend.verifier.subtasks}["style"] == 1.0
