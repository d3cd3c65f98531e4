"""Build a viewer site from constructed results: escaping of hostile strings, links, files, the CLI."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.cli.report_commands import ReportOptions, build
from lhtb.fs import write_model_atomic
from lhtb.results.models import (
    AgentOutcome,
    AgentSpec,
    CheckpointRecord,
    ErrorInfo,
    JobConfig,
    PhaseRecord,
    Subtask,
    TrialResult,
    Usage,
)
from lhtb.viewer import build_site

EVIL = '<script>alert("x")</script>'
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def _result(job: str, task: str, agent: str, attempt: int, reward: float | None, **extra: object) -> TrialResult:
    spec = AgentSpec(name=agent)
    fields: dict[str, object] = {
        "trial_name": f"{task}__{agent}__{attempt}",
        "job_name": job,
        "task_name": task,
        "category": "cat",
        "agent": spec,
        "attempt": attempt,
        "started_at": T0,
        "finished_at": T0 + timedelta(minutes=3),
        "reward": reward,
        "agent_outcome": AgentOutcome(stop_reason="completed", usage=Usage(input_tokens=1000, output_tokens=50)),
        "usage": Usage(input_tokens=1000, output_tokens=50, cost_usd=0.25, episodes=3),
    }
    fields.update(extra)
    return TrialResult.model_validate(fields)


def make_job(root: Path, name: str = "job1") -> Path:
    job = root / name
    write_model_atomic(
        job / "config.json",
        JobConfig(
            job_name=name,
            created_at=T0,
            dataset_path="/tasks",
            task_names=["alpha", "beta"],
            agents=[AgentSpec(name="oracle"), AgentSpec(name="nop")],
            attempts=1,
            concurrency=1,
            max_retries=0,
            lhtb_version="0.1.0",
        ),
    )
    subtasks = [
        Subtask(name="part_a", weight=1, score=1, kind="binary", visibility="public", detail=f"ok {EVIL}"),
        Subtask(name="part_b", weight=1, score=0.5, kind="fraction", detail="1/2 cases & more"),
    ]
    phases = [
        PhaseRecord(
            index=1,
            started_at=T0,
            finished_at=T0 + timedelta(minutes=1),
            stop_reason="completed",
            reward=0.5,
            agent_sec=60,
        ),
        PhaseRecord(
            index=2,
            started_at=T0 + timedelta(minutes=1),
            stop_reason="timeout",
            reward=0.75,
            agent_sec=90,
            resumed_with=f"Keep going {EVIL}",
            mode="same-conversation",
        ),
    ]
    curve = [CheckpointRecord(agent_sec=30, reward=0.25), CheckpointRecord(agent_sec=45, reward=None, error="boom")]
    results = [
        _result(name, "alpha", "oracle", 1, 0.75, subtasks=subtasks, phases=phases, reward_curve=curve),
        _result(name, "alpha", "nop", 1, None, error=ErrorInfo(error_class="agent_setup", message=EVIL)),
        _result(name, "beta", "oracle", 1, 1.0),
        _result(name, "beta", "nop", 1, 0.0),
    ]
    for result in results:
        trial = job / "trials" / result.trial_name
        write_model_atomic(trial / "result.json", result)
        (trial / "verifier" / "final").mkdir(parents=True)
        (trial / "verifier" / "final" / "stdout.txt").write_text(f"verifier says {EVIL}\n")
        (trial / "verifier" / "final" / "stderr.txt").write_text("")
    agent_dir = job / "trials" / "alpha__oracle__1" / "agent"
    agent_dir.mkdir()
    (agent_dir / "stdout.txt").write_text("agent log </pre><b>bold</b>\n")
    trajectory = {
        "schema_version": "ATIF-v1.4",
        "agent": {"name": "terminus", "model_name": "scripted"},
        "steps": [
            {"step_id": 1, "timestamp": "t", "source": "system", "message": f"system {EVIL}"},
            {
                "step_id": 2,
                "timestamp": "t",
                "source": "agent",
                "message": '{"analysis": "</script><img src=x onerror=alert(1)>"}',
                "reasoning_content": "think <b>",
                "tool_calls": [
                    {
                        "tool_call_id": "c",
                        "function_name": "send_keystrokes",
                        "arguments": {"keystrokes": f"echo '{EVIL}'\n", "duration": 1},
                    }
                ],
                "observation": {"results": [{"content": f"$ out {EVIL}"}]},
                "metrics": {"prompt_tokens": 10, "completion_tokens": 2},
            },
        ],
        "final_metrics": {"total_steps": 2},
    }
    (agent_dir / "trajectory.json").write_text(json.dumps(trajectory))
    cast = [
        json.dumps({"version": 2, "width": 80, "height": 24}),
        json.dumps([0.5, "o", "\x1b[31mred\x1b[0m </script><script>alert(1)</script>\r\n"]),
        json.dumps([0.6, "m", "episode 1"]),
        "not json",
        json.dumps([1.0, "o", "done\r\n"]),
    ]
    (agent_dir / "recording.cast").write_text("\n".join(cast) + "\n")
    unfinished = job / "trials" / "beta__late__1"
    unfinished.mkdir()
    return job


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self.handlers: list[str] = []
        self.script_text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs))
            self._in_script = True
        if tag == "img" or any(name.startswith("on") for name, _ in attrs):
            self.handlers.append(tag)
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.script_text.append(data)


def _parse(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text())
    return collector


@pytest.fixture
def site(tmp_path: Path) -> Path:
    job = make_job(tmp_path / "jobs")
    report, _ = build(ReportOptions([job], skip_unreadable=True))
    out = tmp_path / "site"
    summary = build_site(report, [job], out)
    assert summary.n_jobs == 1 and summary.n_trials == 5
    return out


def test_every_page_and_static_file_is_written(site: Path) -> None:
    for name in ("index.html", "static/viewer.css", "static/viewer.js", "static/cast.js", "jobs/job1/index.html"):
        assert (site / name).is_file(), name
    trials = sorted(p.name for p in (site / "jobs/job1/trials").iterdir())
    assert trials == [
        "alpha__nop__1.html",
        "alpha__oracle__1.html",
        "beta__late__1.html",
        "beta__nop__1.html",
        "beta__oracle__1.html",
    ]


def test_hostile_strings_are_escaped_everywhere(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text()
        assert "<script>alert" not in text, page
        assert "<img" not in text and "<b>" not in text, page
        collector = _parse(page)
        assert collector.handlers == [], page
        for attrs in collector.scripts:  # only our files, or inert JSON data
            assert attrs.get("src", "").endswith(".js") or attrs.get("type") == "application/json", (page, attrs)
        for data in collector.script_text:
            assert "<" not in data and ">" not in data
    trial = (site / "jobs/job1/trials/alpha__oracle__1.html").read_text()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in trial
    assert "agent log &lt;/pre&gt;&lt;b&gt;bold&lt;/b&gt;" in trial


def test_links_resolve_and_nothing_is_external(site: Path) -> None:
    for page in site.rglob("*.html"):
        for link in _parse(page).links:
            assert not re.match(r"^[a-z]+:|^//", link), (page, link)
            target = link.split("#")[0]
            if target:
                assert (page.parent / target).resolve().is_file(), (page, link)
    svg_namespace = 'xmlns="http://www.w3.org/2000/svg"'  # a name, never fetched
    for static in (site / "static").iterdir():
        text = static.read_text().replace(svg_namespace, "")
        assert "http://" not in text and "https://" not in text, static


def test_index_has_leaderboard_and_job_link(site: Path) -> None:
    index = (site / "index.html").read_text()
    assert 'href="jobs/job1/index.html"' in index
    assert "Leaderboard" in index and "oracle" in index and "nop" in index


def test_job_page_lists_every_trial(site: Path) -> None:
    job = (site / "jobs/job1/index.html").read_text()
    for name in ("alpha__oracle__1", "alpha__nop__1", "beta__oracle__1", "beta__nop__1", "beta__late__1"):
        assert f'href="trials/{name}.html"' in job
    assert 'class="sortable trials"' in job
    assert "agent_setup" in job and "no result yet" in job
    assert 'data-sort="0.75"' in job  # numeric sort key of the reward


def test_trial_page_sections(site: Path) -> None:
    trial = (site / "jobs/job1/trials/alpha__oracle__1.html").read_text()
    for anchor in (
        "summary",
        "scorecard",
        "phases",
        "curve",
        "timings",
        "usage",
        "verifier",
        "trajectory",
        "recording",
    ):
        assert f'id="{anchor}"' in trial, anchor
    assert "part_a" in trial and "fraction" in trial and "1/2 cases &amp; more" in trial
    assert "Keep going &lt;script&gt;" in trial  # resumed_with
    assert "<polyline" in trial and "error: boom" in trial
    assert 'class="cast-data"' in trial and "static/cast.js" in trial
    assert "1 malformed line(s) skipped" in trial
    assert trial.count('<details class="step') == 2
    data = re.search(r'<script type="application/json" class="cast-data">(.*?)</script>', trial, re.S)
    assert data is not None
    cast = json.loads(data.group(1))
    assert [e[1] for e in cast["events"]] == ["o", "m", "o"]
    assert "</script><script>alert(1)</script>" in cast["events"][0][2]  # intact after JSON decoding


def test_unfinished_trial_page(site: Path) -> None:
    page = (site / "jobs/job1/trials/beta__late__1.html").read_text()
    assert "No result.json yet" in page and 'id="scorecard"' not in page


def test_unreadable_result_is_shown_not_fatal(tmp_path: Path) -> None:
    job = make_job(tmp_path / "jobs")
    (job / "trials" / "beta__nop__1" / "result.json").write_text("{not json")
    out = tmp_path / "site"
    result = CliRunner().invoke(app, ["view", str(job), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "could not be read" in (out / "jobs/job1/trials/beta__nop__1.html").read_text()
    assert "1 result file(s) could not be read" in (out / "jobs/job1/index.html").read_text()


def test_cli_default_out_dir_and_several_jobs(tmp_path: Path) -> None:
    one = make_job(tmp_path / "jobs", "one")
    two = make_job(tmp_path / "jobs", "two")
    runner = CliRunner()
    result = runner.invoke(app, ["view", str(one)])
    assert result.exit_code == 0, result.output
    assert (one / "view" / "index.html").is_file()
    assert runner.invoke(app, ["view", str(one), str(two)]).exit_code == 2  # needs -o
    result = runner.invoke(app, ["view", str(one), str(two), "-o", str(tmp_path / "both")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "both/jobs/one/index.html").is_file() and (tmp_path / "both/jobs/two/index.html").is_file()
    assert runner.invoke(app, ["view", str(tmp_path / "nope"), "-o", str(tmp_path / "x")]).exit_code == 2
