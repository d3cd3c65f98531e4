"""The live view's answers, read from job directories on disk: states, the recording's tail, unknown names."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from lhtb.fs import write_model_atomic
from lhtb.results.models import AgentSpec, JobConfig, LiveInterim, TrialLive, TrialResult
from lhtb.viewer.live import LiveJob, cast_events, job_status
from lhtb.viewer.serve import LiveSite

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _job(tmp_path: Path) -> LiveJob:
    config = JobConfig(
        job_name="j", dataset_path=str(tmp_path), task_names=["a", "b", "c"], agents=[AgentSpec(name="oracle")],
        attempts=1, concurrency=1, created_at=NOW, max_retries=0, lhtb_version="test",
    )  # fmt: skip
    trials = tmp_path / "j" / "trials"
    done = trials / "a__oracle__1"
    done.mkdir(parents=True)
    write_model_atomic(done / "result.json", TrialResult(
        trial_name="a__oracle__1", job_name="j", task_name="a", agent=AgentSpec(name="oracle"), attempt=1,
        started_at=NOW, finished_at=NOW, reward=0.75,
    ))  # fmt: skip
    running = trials / "b__oracle__1"
    (running / "agent").mkdir(parents=True)
    write_model_atomic(running / "live.json", TrialLive(
        trial_name="b__oracle__1", phase="agent", started_at=NOW, updated_at=NOW, timeout_sec=600, agent_sec=42.0,
        last_active_sec=40.0, interim=[LiveInterim(agent_sec=30.0, reward=0.5)], checkpoints=[20.0],
    ))  # fmt: skip
    lines = [json.dumps({"version": 2, "width": 80, "height": 24})]
    lines += [json.dumps([float(n), "o", f"line {n}\r\n"]) for n in range(5)]
    (running / "agent" / "recording.cast").write_text("\n".join(lines) + "\n" + '[9.0, "o", "half-writ')
    return LiveJob("j", tmp_path / "j", config, {"b-page": "b__oracle__1"})


def test_every_planned_trial_has_a_state(tmp_path: Path) -> None:
    status = job_status(_job(tmp_path))
    assert (status["total"], status["finished"], status["running"]) == (3, 1, 1)
    trials = status["trials"]
    assert trials["a__oracle__1"]["state"] == "finished" and trials["a__oracle__1"]["reward"] == 0.75
    running = trials["b__oracle__1"]
    assert running["state"] == "running" and running["agent_sec"] == 42.0 and running["page"] == "b-page"
    assert running["interim"] == [{"agent_sec": 30.0, "reward": 0.5, "late": False}]
    assert trials["c__oracle__1"]["state"] == "queued"  # planned, no directory yet


def test_the_recording_is_tailed_from_an_offset_and_never_past_a_half_written_line(tmp_path: Path) -> None:
    path = _job(tmp_path).dir / "trials" / "b__oracle__1" / "agent" / "recording.cast"
    events, following = cast_events(path, 0)
    assert [e[2] for e in events] == [f"line {n}\r\n" for n in range(5)] and following == 5
    events, following = cast_events(path, 3)
    assert [e[0] for e in events] == [3.0, 4.0] and following == 5
    assert cast_events(path, 5) == ([], 5)
    assert cast_events(tmp_path / "missing.cast", 2) == ([], 2)


def test_urls_name_the_site_slugs_only(tmp_path: Path) -> None:
    job = _job(tmp_path)
    site = LiveSite([job.dir], lambda: [job])
    assert site.answer("/live/j.json", "")["finished"] == 1  # type: ignore[index]
    trial = site.answer("/live/j/b-page.json", "cast_from=4")
    assert trial is not None and trial["state"] == "running" and len(trial["cast"]["events"]) == 1
    for path in ("/live/nosuch.json", "/live/j/nosuch.json", "/live/..%2F..%2Fetc%2Fpasswd.json",
                 "/live/j/..%2Fa__oracle__1.json", "/live/j/b-page/x.json"):  # fmt: skip
        assert site.answer(path, "") is None, path
    assert site.answer("/live/j/b-page.json", "cast_from=zz") is not None  # a bad offset reads from the start
