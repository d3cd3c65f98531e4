"""End-to-end trials on the real Docker engine: rewards, verifier errors, timeouts, bad input."""

from __future__ import annotations

from pathlib import Path

from helpers import containers_of, run

from lhtb.errors import ErrorClass


def test_oracle_scores_one_and_nop_zero(make_task, tmp_path: Path) -> None:
    make_task("hello")
    job, trials = run(make_task.root, tmp_path / "jobs", ("oracle", "nop"), name="basic")
    assert trials["hello__oracle__1"].reward == 1.0
    assert trials["hello__nop__1"].reward == 0.0
    oracle = trials["hello__oracle__1"]
    assert oracle.error is None and oracle.agent_outcome.stop_reason == "completed"
    for phase in ("build", "start", "agent", "verifier", "teardown"):
        assert getattr(oracle.timings, phase) is not None, phase
    assert (tmp_path / "jobs" / "basic" / "result.json").is_file()
    assert {a.agent: a.mean_reward for a in job.agents} == {"oracle": 1.0, "nop": 0.0}
    assert containers_of("basic") == []


def test_tests_and_solution_never_reach_the_agent_container(make_task, tmp_path: Path) -> None:
    # The oracle records what it can see; the verifier passes only if neither /tests nor the tests' content
    # was visible from the agent's container (the oracle's own /solution is allowed in its own run).
    make_task(
        "peek",
        solve='ls / > /app/root.txt; M=SECRET-TEST-; grep -rl "${M}MARKER" / --exclude-dir=proc --exclude-dir=sys '
        "> /app/found.txt 2>/dev/null; true",
        test_sh="# SECRET-TEST-MARKER\n"
        "if grep -qx tests /app/root.txt || [ -s /app/found.txt ]; then echo 0; else echo 1; fi"
        " > /logs/verifier/reward.txt\n",
    )
    _job, trials = run(make_task.root, tmp_path / "jobs", name="peek")
    assert trials["peek__oracle__1"].reward == 1.0


def test_missing_reward_is_a_verifier_error_not_zero(make_task, tmp_path: Path) -> None:
    make_task("silent", test_sh="echo 'graded nothing'\n")
    make_task("nan", test_sh="echo nan > /logs/verifier/reward.txt\n")
    make_task("crash", test_sh="exit 3\n")
    _job, trials = run(make_task.root, tmp_path / "jobs", name="noreward")
    for name in ("silent", "nan", "crash"):
        result = trials[f"{name}__oracle__1"]
        assert result.reward is None, name
        assert result.error is not None and result.error.error_class == ErrorClass.VERIFIER_ERROR, name
    assert "exited 3" in (trials["crash__oracle__1"].error.message or "")


def test_verifier_timeout_is_enforced(make_task, tmp_path: Path) -> None:
    make_task("hang", test_sh="sleep 300\n", verifier_timeout=3)
    _job, trials = run(make_task.root, tmp_path / "jobs", name="vhang")
    result = trials["hang__oracle__1"]
    assert result.error is not None and result.error.error_class == ErrorClass.VERIFIER_TIMEOUT
    assert result.verifier is not None and result.verifier.duration_sec < 30


def test_agent_timeout_is_enforced_and_trial_still_verified(make_task, tmp_path: Path) -> None:
    make_task("slow", solve="echo hello > /app/out.txt; sleep 600", agent_timeout=3)
    _job, trials = run(make_task.root, tmp_path / "jobs", name="atimeout")
    result = trials["slow__oracle__1"]
    assert result.agent_outcome.stop_reason == "timeout"
    assert result.timings.agent is not None and result.timings.agent < 20
    assert result.reward == 1.0  # the work done before the deadline is graded
    assert result.error is None


def test_bad_input_is_reported_and_the_job_goes_on(make_task, tmp_path: Path) -> None:
    make_task("good")
    make_task("broken-build", dockerfile="FROM lhtb/python:bookworm\nRUN exit 7\n")
    unknown = make_task("unknown-key")
    (unknown / "task.toml").write_text("[agent]\ntimeout_sec = 5\nmax_turns = 3\n")
    make_task("no-solution")
    (make_task.root / "no-solution" / "solution" / "solve.sh").unlink()
    _job, trials = run(make_task.root, tmp_path / "jobs", name="badinput", max_retries=1)
    assert trials["good__oracle__1"].reward == 1.0
    build = trials["broken-build__oracle__1"]
    assert build.error is not None and build.error.error_class == ErrorClass.ENVIRONMENT_BUILD
    assert "RUN exit 7" in build.error.message or "returned a non-zero code" in build.error.message
    assert build.retries == 1  # infrastructure classes are retried, then reported
    invalid = trials["unknown-key__oracle__1"]
    assert invalid.error is not None and invalid.error.error_class == ErrorClass.TASK_INVALID
    assert "unknown key 'agent.max_turns'" in invalid.error.message and "task.toml" in invalid.error.message
    setup = trials["no-solution__oracle__1"]
    assert setup.error is not None and setup.error.error_class == ErrorClass.AGENT_SETUP


def test_second_run_does_not_rebuild(make_task, tmp_path: Path) -> None:
    import asyncio
    import uuid

    from lhtb.environments.images import ensure_task_image

    token = uuid.uuid4().hex  # a context no earlier run has built
    path = make_task("cached", dockerfile=f"FROM lhtb/python:bookworm\nRUN echo {token} > /built\n")
    first = asyncio.run(ensure_task_image("cached", path / "environment", timeout_sec=300))
    second = asyncio.run(ensure_task_image("cached", path / "environment", timeout_sec=300))
    assert first[0] == second[0]
    assert second[1] is False
    (path / "environment" / "extra.txt").write_text("changed context")
    third = asyncio.run(ensure_task_image("cached", path / "environment", timeout_sec=300))
    assert third[0] != first[0] and third[1] is True


def test_concurrent_builds_in_successive_jobs(make_task) -> None:
    """Trials of one task wait on one build lock; a later job (a new event loop) must not inherit a stale lock."""
    import asyncio
    import uuid

    from lhtb.environments.images import ensure_task_image

    path = make_task("shared", dockerfile=f"FROM lhtb/python:bookworm\nRUN echo {uuid.uuid4().hex} > /built\n")

    async def two_trials() -> list[tuple[str, bool]]:
        build = ensure_task_image("shared", path / "environment", timeout_sec=300)
        again = ensure_task_image("shared", path / "environment", timeout_sec=300)
        return list(await asyncio.gather(build, again))

    first = asyncio.run(two_trials())
    second = asyncio.run(two_trials())
    assert sorted(built for _, built in first) == [False, True]  # the waiter found the image its peer built
    assert [built for _, built in second] == [False, False]
    assert len({tag for tag, _ in first + second}) == 1
