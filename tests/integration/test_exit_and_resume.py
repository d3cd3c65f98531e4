"""Exit codes of real jobs (docs/errors.md#exit-codes), signals on run and resume, unreadable results on resume."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import containers_of, wait_for
from helpers import run as run_job_in_process
from typer.testing import CliRunner

from lhtb.agents.base import AgentContext
from lhtb.cli.app import app
from lhtb.errors import AgentSetupError, ErrorClass
from lhtb.results.models import AgentOutcome, AgentSpec, JobResult, TrialResult

LHTB = [sys.executable, "-m", "lhtb.cli"]


class SetupFails:
    """An agent whose setup always fails the way a missing runtime does: a deterministic infrastructure error."""

    name = "setup-fails"

    def __init__(self, spec: AgentSpec) -> None:
        self.spec = spec

    async def setup(self, context: AgentContext) -> None:
        raise AgentSetupError("setup-fails: its runtime is not installed (deliberate, for the exit-code test)")

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        raise AssertionError("never reached")


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, "".join(result.output.split())


def _trials(job_dir: Path) -> dict[str, TrialResult]:
    return {
        p.parent.name: TrialResult.model_validate_json(p.read_text())
        for p in (job_dir / "trials").glob("*/result.json")
    }


def test_every_trial_graded_exits_0_even_when_the_agent_fails(make_task, tmp_path: Path) -> None:
    make_task("hello")
    args = ("run", "-p", str(make_task.root), "-a", "oracle", "-a", "nop", "-o", str(tmp_path), "--job-name", "ok")
    code, output = _invoke(*args)
    assert code == 0, output
    rewards = {name: r.reward for name, r in _trials(tmp_path / "ok").items()}
    assert rewards == {"hello__oracle__1": 1.0, "hello__nop__1": 0.0}


def test_infrastructure_failure_exits_1(make_task, tmp_path: Path) -> None:
    make_task("hello")
    agent = f"{__name__}:SetupFails"
    args = ("run", "-p", str(make_task.root), "-a", agent, "-o", str(tmp_path), "--job-name", "infra")
    code, output = _invoke(*args, "--max-retries", "1")
    assert code == 1, output
    assert "1of1trial(s)notgradedafterretries" in output and "(agent_setup)" in output
    [result] = _trials(tmp_path / "infra").values()
    assert result.error is not None and result.error.error_class == ErrorClass.AGENT_SETUP
    assert result.retries == 1
    assert containers_of("infra") == []


def test_invalid_task_exits_2(make_task, tmp_path: Path) -> None:
    broken = make_task("broken")
    (broken / "task.toml").write_text("[agent]\ntimeout_sec = 5\nmax_turns = 3\n")
    code, output = _invoke("run", "-p", str(make_task.root), "-a", "oracle", "-o", str(tmp_path), "--job-name", "bad")
    assert code == 2, output
    assert "broken__oracle__1" in output and "invalid" in output
    error = _trials(tmp_path / "bad")["broken__oracle__1"].error
    assert error is not None and error.error_class == ErrorClass.TASK_INVALID


def _interrupt(args: list[str], job: str, sig: signal.Signals) -> subprocess.CompletedProcess[str]:
    """Start ``lhtb ARGS``, send SIG once both trials are in their agent phase, and wait for the exit."""
    proc = subprocess.Popen([*LHTB, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: len(containers_of(job)) >= 4, what="the trial containers")
        time.sleep(1.5)  # the oracle's solve.sh is running
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def test_sigterm_and_sigint_stop_run_and_resume_cleanly(make_task, tmp_path: Path) -> None:
    make_task("steady", solve="sleep 10; echo hello > /app/out.txt", agent_timeout=120)
    job = "signalled"
    job_dir = tmp_path / job
    run_args = ["run", "-p", str(make_task.root), "-a", "oracle", "-k", "2", "-n", "2", "-o", str(tmp_path)]

    for args, sig, code in (
        ([*run_args, "--job-name", job], signal.SIGTERM, 143),
        (["jobs", "resume", str(job_dir)], signal.SIGINT, 130),
    ):
        stopped = _interrupt(args, job, sig)
        assert stopped.returncode == code, stopped.stdout + stopped.stderr
        assert "Traceback" not in stopped.stderr and "CancelledError" not in stopped.stderr, stopped.stderr
        assert "containers removed" in stopped.stderr and "lhtb jobs resume" in stopped.stderr
        assert containers_of(job) == []
        partial = JobResult.model_validate_json((job_dir / "result.json").read_text())
        assert partial.n_trials == 2 and partial.n_finished == 0
        assert _trials(job_dir) == {}

    resumed = subprocess.run([*LHTB, "jobs", "resume", str(job_dir)], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert {name: r.reward for name, r in _trials(job_dir).items()} == {
        "steady__oracle__1": 1.0,
        "steady__oracle__2": 1.0,
    }
    final = JobResult.model_validate_json((job_dir / "result.json").read_text())
    assert final.n_trials == final.n_finished == 2
    assert containers_of(job) == []


def test_unreadable_results_are_reported_and_set_aside_on_resume(make_task, tmp_path: Path) -> None:
    make_task("hello")
    run_job_in_process(make_task.root, tmp_path, ("oracle",), name="corrupt", attempts=3)
    job_dir = tmp_path / "corrupt"
    corrupted = [job_dir / "trials" / f"hello__oracle__{i}" / "result.json" for i in (1, 3)]
    for path in corrupted:
        path.write_text(path.read_text()[:50])

    code, output = _invoke("jobs", "show", str(job_dir))
    assert code == 1
    assert "2trialresultfile(s)cannotbereadandarenotcounted" in output
    assert all(str(path) in output for path in corrupted)
    assert "│1│oracle│1│1│0│1.000" in output

    code, output = _invoke("jobs", "resume", str(job_dir))
    assert code == 0, output
    kept = sorted((job_dir / "set-aside").iterdir())
    assert [p.name.split(".unreadable-")[0] for p in kept] == ["hello__oracle__1", "hello__oracle__3"]
    for path in kept:
        assert str(path) in output  # named in the output
        assert (path / "agent" / "stdout.txt").exists()  # the agent's logs are kept
    assert {name: r.reward for name, r in _trials(job_dir).items()} == {f"hello__oracle__{i}": 1.0 for i in (1, 2, 3)}

    code, output = _invoke("jobs", "show", str(job_dir))
    assert code == 0 and "cannotberead" not in output
    assert "│1│oracle│3│3│0│1.000" in output  # the set-aside copies are not trials
    assert containers_of("corrupt") == []
