"""continue-until-timeout, isolation during interim verification, the trusted verifier runtime, checkpoints."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import containers_of, run
from scripted_agents import RECEIVED

from lhtb.trial.feedback import REJECTION_TEMPLATE

CUT = "[agent]\ncontinue_until_timeout = true\n"


def _cut_task(make_task, name: str, **kwargs: object) -> Path:
    path = make_task(name, **kwargs)
    toml = path / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]\n", CUT, 1))
    return path


def test_rejection_then_fix_in_the_same_conversation(make_task, tmp_path: Path) -> None:
    _cut_task(make_task, "fixable")
    _job, trials = run(make_task.root, tmp_path / "jobs", ("scripted_agents:FixOnRejection",), name="fix")
    result = next(iter(trials.values()))
    assert result.reward == 1.0
    assert [p.reward for p in result.phases] == [0.0, 1.0]
    assert [p.mode for p in result.phases] == ["initial", "same-conversation"]
    (message,) = RECEIVED["FixOnRejection"]
    assert result.phases[1].resumed_with == message
    prefix = REJECTION_TEMPLATE.split("{minutes}")[0]
    assert message.startswith(prefix) and "0.0" not in message and "/tests" not in message
    assert result.usage.episodes == 2 and result.usage.input_tokens == 20
    assert (tmp_path / "jobs" / "fix" / "trials" / result.trial_name / "verifier" / "interim-1").is_dir()


def test_restart_mode_for_agents_that_cannot_resume(make_task, tmp_path: Path) -> None:
    _cut_task(make_task, "restartable")
    _job, trials = run(make_task.root, tmp_path / "jobs", ("scripted_agents:FixOnRestart",), name="restart")
    result = next(iter(trials.values()))
    assert result.reward == 1.0
    assert result.phases[1].mode == "restart"
    (instruction,) = RECEIVED["FixOnRestart"]
    assert instruction.startswith("Task restartable") and REJECTION_TEMPLATE.split("{minutes}")[0] in instruction


def test_agent_that_gives_up_is_resumed_until_its_timeout(make_task, tmp_path: Path) -> None:
    _cut_task(make_task, "unsolvable", agent_timeout=4)
    _job, trials = run(make_task.root, tmp_path / "jobs", ("scripted_agents:GivesUp",), name="giveup")
    result = next(iter(trials.values()))
    assert result.reward == 0.0
    assert len(result.phases) >= 3
    # Every phase but a last one cut off by the deadline (or too short to resume) was verified and rejected.
    assert all(p.reward == 0.0 for p in result.phases[:-1])
    agent_time = sum(p.agent_sec for p in result.phases)
    assert 3.0 - 0.6 <= agent_time <= 4.5  # stops resuming when under MIN_RESUME_SEC (1 s) is left
    assert result.timings.agent is not None and result.timings.agent > agent_time  # interim grading not charged
    assert result.usage.episodes == len(result.phases)
    assert len(set(RECEIVED["GivesUp"])) >= 1
    assert all(m.startswith(REJECTION_TEMPLATE.split("{minutes}")[0]) for m in RECEIVED["GivesUp"])


@pytest.mark.parametrize("mode", ["separate", "shared"])
def test_poller_finds_no_grader_files(make_task, tmp_path: Path, mode: str) -> None:
    # The final verdict requires the poller's log to be empty, so reward 1.0 proves it never saw a grader file.
    path = _cut_task(
        make_task,
        "watched",
        agent_timeout=60,
        test_sh='if [ "$(cat /app/out.txt 2>/dev/null)" = hello ] && [ ! -s /app/found.log ]; then echo 1; '
        "else echo 0; fi > /logs/verifier/reward.txt\n",
    )
    if mode == "shared":
        toml = path / "task.toml"
        toml.write_text(toml.read_text().replace('environment_mode = "separate"', 'environment_mode = "shared"'))
    job = f"poll-{mode}"
    _job, trials = run(make_task.root, tmp_path / "jobs", ("scripted_agents:PollsForGrader",), name=job)
    result = next(iter(trials.values()))
    assert [p.reward for p in result.phases] == [0.0, 1.0], result.phases
    assert result.reward == 1.0
    assert result.verifier_mode == mode
    assert containers_of(job) == []


PYTEST_TASK = (
    "cat > /tmp/t_out.py <<'EOS'\n"
    "def test_out():\n"
    "    assert open('/app/out.txt').read().strip() == 'hello'\n"
    "EOS\n"
    "mkdir -p /tmp/tt && cp /tmp/t_out.py /tmp/tt/test_out.py\n"
    "cd /app && if LHTB_TESTS_DIR=/tmp/tt python3 -P -m lhtb.grading.pytest_runner /tmp/tt/test_out.py >&2; "
    "then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n"
)


@pytest.mark.parametrize(("agent", "expected"), [("PlantsEverything", 0.0), ("PlantsAndWorks", 1.0)])
def test_planted_rewards_and_hooks_change_nothing(make_task, tmp_path: Path, agent: str, expected: float) -> None:
    make_task("planted", test_sh=PYTEST_TASK)
    _job, trials = run(make_task.root, tmp_path / "jobs", (f"scripted_agents:{agent}",), name=f"plant-{agent}")
    result = next(iter(trials.values()))
    assert result.error is None, result.error
    assert result.reward == expected


def test_checkpoints_give_a_monotone_curve(make_task, tmp_path: Path) -> None:
    make_task(
        "progress",
        agent_timeout=30,
        test_sh="n=$(wc -l < /app/progress 2>/dev/null || echo 0); "
        "python3 -c \"print(min(1.0, int('$n') / 5))\" > /logs/verifier/reward.txt\n",
    )
    _job, trials = run(
        make_task.root, tmp_path / "jobs", ("scripted_agents:Improves",), name="ckpt", checkpoint_interval_sec=0.7
    )
    result = next(iter(trials.values()))
    curve = [point.reward for point in result.reward_curve]
    assert len(curve) >= 3, result.reward_curve
    assert all(r is not None for r in curve)
    assert curve == sorted(curve)  # type: ignore[type-var]
    assert curve[-1] > curve[0]
    assert result.reward == 1.0
    times = [point.agent_sec for point in result.reward_curve]
    assert times == sorted(times) and times[0] >= 0.7


def test_a_crashing_agent_is_an_agent_error_and_still_graded(make_task, tmp_path: Path) -> None:
    make_task("crashy")
    _job, trials = run(make_task.root, tmp_path / "jobs", ("scripted_agents:Crashes",), name="crash")
    result = next(iter(trials.values()))
    assert result.error is not None and result.error.error_class.value == "agent_error"
    assert "KeyError" in result.error.message and result.agent_outcome.stop_reason == "error"
    assert result.reward == 1.0  # graded: an agent error counts with the reward its work earned
    assert (tmp_path / "jobs" / "crash" / "trials" / result.trial_name / "agent" / "agent-exception.txt").is_file()


def test_a_timeout_while_working_is_told_apart_from_a_stall(make_task, tmp_path: Path) -> None:
    from lhtb.metrics.failure_modes import FailureMode, classify
    from lhtb.metrics.rows import to_row

    make_task("stalls", agent_timeout=20)  # stall window: a tenth of 20 s (2 s); CPU polled every 0.5 s
    agents = ("scripted_agents:BusyUntilTimeout", "scripted_agents:HangsAfterWork")
    _job, trials = run(make_task.root, tmp_path / "jobs", agents, name="stall")
    by_agent = {result.agent.name: result for result in trials.values()}
    busy, hung = by_agent["scripted_agents:BusyUntilTimeout"], by_agent["scripted_agents:HangsAfterWork"]
    for result in (busy, hung):
        assert result.agent_outcome.stop_reason == "timeout" and result.activity is not None
        assert result.activity.samples >= 10 and result.activity.poll_interval_sec == 0.5
    assert busy.activity.last_active_sec is not None and busy.activity.last_active_sec >= 20 - 2.0
    assert hung.activity.last_active_sec is not None and 1.0 <= hung.activity.last_active_sec <= 4.0
    assert classify(to_row(busy), 0.95) == FailureMode.TIMEOUT_WORKING.value
    assert classify(to_row(hung), 0.95) == FailureMode.TIMEOUT_STALLED.value
