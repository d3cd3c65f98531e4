"""The terminal agent in a real container (tmux inside it), driven by a scripted model through a real job."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lhtb.jobs.job_runner import new_job_config, run_job
from lhtb.results.models import AgentSpec, TrialResult


def _turn(keys: str, duration: float = 1.0, complete: bool = False) -> dict[str, Any]:
    return {
        "analysis": "",
        "plan": "",
        "commands": [{"keystrokes": keys, "duration": duration}],
        "task_complete": complete,
    }


def _run_scripted(make_task: Any, tmp_path: Path, script: list[Any]) -> tuple[TrialResult, Path]:
    make_task("terminus-smoke")
    script_path = tmp_path / "script.json"
    script_path.write_text(json.dumps(script))
    spec = AgentSpec(name="terminus", model="scripted", kwargs={"script": str(script_path)})
    config = new_job_config(make_task.root, None, [spec], job_name="terminus", attempts=1, concurrency=1, max_retries=0)
    run_job(config, tmp_path / "jobs")
    trial_dir = next((tmp_path / "jobs" / "terminus" / "trials").iterdir())
    return TrialResult.model_validate_json((trial_dir / "result.json").read_text()), trial_dir


def test_interactive_program_and_interrupt(make_task: Any, tmp_path: Path) -> None:
    program = 'python3 -c \'n = input("Name? "); open("/app/out.txt", "w").write(n)\'\n'
    script = [
        _turn(program, duration=1.0),  # waits for a prompt that does not come: the program asks a question
        _turn("hello\n", duration=5.0),  # answers it; the shell prompt returns at once
        _turn("sleep 1000\n", duration=1.0),  # still running after its wait
        _turn("C-c", duration=5.0),  # interrupted
        _turn("cat /app/out.txt; echo\n", duration=5.0),
        {"analysis": "", "plan": "", "commands": [], "task_complete": True},
        {"analysis": "", "plan": "", "commands": [], "task_complete": True},
    ]
    result, trial_dir = _run_scripted(make_task, tmp_path, script)
    assert result.error is None, result.error
    assert result.reward == 1.0
    assert result.agent_outcome.stop_reason == "completed" and result.agent_outcome.usage.episodes == 7
    steps = json.loads((trial_dir / "agent" / "trajectory.json").read_text())["steps"]
    observations = [s["observation"]["results"][0]["content"] for s in steps if s["source"] == "agent"]
    assert "Name?" in observations[0] and "still running" in observations[0]
    assert "still running" not in observations[1]
    assert "still running" in observations[2]
    assert "^C" in observations[3] and "still running" not in observations[3]
    assert "hello" in observations[4]
    cast = (trial_dir / "agent" / "recording.cast").read_text().splitlines()
    assert json.loads(cast[0])["version"] == 2
    assert any('"m", "episode 7"' in line for line in cast)
    assert any("Name?" in line for line in cast)


def test_completion_is_detected_without_fixed_sleeps(make_task: Any, tmp_path: Path) -> None:
    script = [_turn("echo hi\n", duration=30.0), *[{"commands": [], "task_complete": True}] * 2]
    result, _ = _run_scripted(make_task, tmp_path, script)
    assert result.agent_outcome.stop_reason == "completed"
    assert result.timings.agent is not None and result.timings.agent < 10  # a 30 s wait would show
