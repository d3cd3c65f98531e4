"""Nothing of the agent runs while it is graded, and when it is resumed says nothing about the grading.

Shared mode stops every agent process with ``kill -STOP -1`` until a full pass finds none running: fork loops,
PID-cycling pollers, re-parented orphans and a process whose name mimics a stopped state all stop. An interim
verification resumes the agent a fixed pause after it started, whatever grading took; checkpoint snapshots are
graded only after the agent's last phase.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from helpers import run
from scripted_agents import GAPS

from lhtb.environments.base import ContainerSpec, unique_name
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.images import PYTHON_IMAGE
from lhtb.qa.exploits.stop_and_time import _GRAB
from lhtb.verifier.shared import continue_processes, stop_all_processes

RACERS = (
    "X=/var/tmp/.racers; mkdir -p $X; export X\n"
    + _GRAB
    + r"""
export -f grab
beat() { while :; do date +%s%N > "$X/beat-$1"; done; }
export -f beat
nohup bash -c 'while :; do ( beat walker & sleep 0.01; kill $! ) ; done' >/dev/null 2>&1 &
nohup bash -c 'while :; do bash -c "date +%s%N > $X/beat-cycler"; done' >/dev/null 2>&1 &
nohup bash -c 'while :; do ( setsid bash -c "date +%s%N > $X/beat-orphan; sleep 0.05" & ); sleep 0.05; done' \
  >/dev/null 2>&1 &
nohup bash -c 'printf ") T (x" > /proc/self/comm; beat mimic' >/dev/null 2>&1 &
sleep 1
"""
)
BEATS = "cat /var/tmp/.racers/beat-* 2>/dev/null | sort | tail -1"


def _env() -> DockerEnvironment:
    spec = ContainerSpec(image=PYTHON_IMAGE, name=unique_name("stoptest"), job="stoptest", trial="stop", role="agent")
    return DockerEnvironment(spec)


def test_forking_cycling_and_reparented_processes_all_stop_and_change_nothing() -> None:
    async def body() -> None:
        env = _env()
        await env.start()
        try:
            await env.exec(RACERS, user="root", timeout_sec=30)
            before = (await env.exec(BEATS)).stdout.strip()
            await asyncio.sleep(0.3)
            assert (await env.exec(BEATS)).stdout.strip() != before  # the racers are running
            stopped = await stop_all_processes(env)
            assert len(stopped) >= 4
            frozen = (await env.exec(BEATS)).stdout.strip()
            # The grader's own work: a file the racers would rewrite if any of them still ran.
            await env.exec("mkdir -p /tests && echo 'echo 0' > /tests/test.sh", user="root")
            await asyncio.sleep(2.0)
            assert (await env.exec(BEATS)).stdout.strip() == frozen  # not one racer ran meanwhile
            states = await env.exec(
                "for p in /proc/[0-9]*; do read -r l < $p/stat; r=${l##*) }; echo ${p#/proc/} ${r%% *}; done",
                user="root",
            )
            running = {line.split()[0] for line in states.stdout.splitlines() if line.split()[1] not in "TtZX"}
            assert running <= {"1"} | set(_own_pids(states.stdout)), states.stdout
            assert (await env.exec("cat /tests/test.sh")).stdout.strip() == "echo 0"
            assert (await env.exec("cat /var/tmp/.racers/seen.log 2>/dev/null | wc -l")).stdout.strip() == "0"
            await continue_processes(env, stopped)
            await asyncio.sleep(0.5)
            assert (await env.exec(BEATS)).stdout.strip() != frozen  # continued afterwards
        finally:
            await env.stop()

    asyncio.run(body())


def _own_pids(listing: str) -> list[str]:
    """The listing exec's own processes (the newest PIDs that are running: timeout, bash)."""
    running = [line.split()[0] for line in listing.splitlines() if line.split()[1] not in "TtZX"]
    return sorted(running, key=int)[-2:]


def _cut_task(make_task, name: str, **kwargs: object) -> Path:  # type: ignore[no-untyped-def]
    path = make_task(name, **kwargs)
    toml = path / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]\n", "[agent]\ncontinue_until_timeout = true\n", 1))
    return path


@pytest.mark.parametrize("mode", ["separate", "shared"])
def test_resume_comes_a_fixed_pause_after_the_stop_whatever_grading_took(make_task, tmp_path: Path, mode: str) -> None:
    # Grading sleeps as long as the agent asks (0, 4, 1, then 20 s: longer than the pause); the agent measures
    # how long it waited each time. Every wait is the pause, and the over-long grading is simply not passed.
    pause = 7.0
    path = _cut_task(
        make_task,
        "timed",
        agent_timeout=8,
        test_sh="sleep $(cat /app/delay.txt 2>/dev/null || echo 0); echo 0 > /logs/verifier/reward.txt\n",
    )
    if mode == "shared":
        toml = path / "task.toml"
        toml.write_text(toml.read_text().replace('environment_mode = "separate"', 'environment_mode = "shared"'))
    started = time.monotonic()
    _job, trials = run(
        make_task.root,
        tmp_path / "jobs",
        ("scripted_agents:TimesItsResumes",),
        name=f"timed-{mode}",
        feedback_pause_sec=pause,
    )
    result = next(iter(trials.values()))
    assert result.error is None, result.error
    interim = [p for p in result.phases if p.verification_sec is not None]
    assert len(interim) >= 4, result.phases
    assert len(GAPS) >= 4, GAPS
    assert max(GAPS) - min(GAPS) < 1.0, GAPS  # graded in 0-1 s, 4 s, 1 s or cut at 7 s: the same wait
    assert all(pause - 0.2 <= gap <= pause + 1.5 for gap in GAPS), GAPS
    late = [p for p in interim if p.late]
    assert len(late) == 1 and late[0].reward is None and late[0].verification_sec is not None
    assert all(p.feedback_pause_sec == pause for p in interim)
    assert [p.reward for p in interim if not p.late] == [0.0] * (len(interim) - 1)
    assert time.monotonic() - started < 120


def test_checkpoints_are_graded_only_after_the_agent_has_stopped(make_task, tmp_path: Path) -> None:
    # Each checkpoint's test.sh notes whether the agent is still at work (its marker file keeps changing).
    make_task(
        "ckpt-after",
        agent_timeout=6,
        solve="true",
        test_sh="echo 0 > /logs/verifier/reward.txt\n",
    )
    _job, trials = run(
        make_task.root, tmp_path / "jobs", ("scripted_agents:BusyUntilTimeout",), name="ckpt-after",
        checkpoint_interval_sec=1.5,
    )  # fmt: skip
    result = next(iter(trials.values()))
    assert len(result.reward_curve) >= 2, result.reward_curve
    trial_dir = tmp_path / "jobs" / "ckpt-after" / "trials" / result.trial_name / "verifier"
    final_done = (trial_dir / "final" / "stdout.txt").stat().st_mtime
    checkpoint_times = [p.stat().st_mtime for p in trial_dir.glob("checkpoint-*/stdout.txt")]
    assert checkpoint_times and min(checkpoint_times) >= final_done
