"""Loading job directories, ranking, flagging, and every report format, on hand-written result files."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.errors import ErrorClass
from lhtb.fs import write_model_atomic
from lhtb.metrics.models import MetricSettings
from lhtb.report.leaderboard import build_report
from lhtb.report.loading import UnreadableResultsError, load_jobs
from lhtb.report.models import Report
from lhtb.report.render import FORMATS, render
from lhtb.results.models import AgentOutcome, AgentSpec, ErrorInfo, JobConfig, PhaseTimings, TrialResult, Usage

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def write_job(root: Path, name: str, rewards: dict[str, list[float | None]], *, multiplier: float = 1.0) -> Path:
    """One job: agent -> rewards over tasks t0, t1, ... (None = infrastructure error)."""
    job = root / name
    agents = [AgentSpec(name=a) for a in rewards]
    config = JobConfig(
        job_name=name,
        created_at=T0,
        dataset_path="d",
        task_names=[],
        agents=agents,
        attempts=1,
        concurrency=1,
        max_retries=0,
        agent_timeout_multiplier=multiplier,
        lhtb_version="0",
    )
    write_model_atomic(job / "config.json", config)
    for agent, values in rewards.items():
        for i, reward in enumerate(values):
            error = None if reward is not None else ErrorInfo(error_class=ErrorClass.HARNESS_ERROR, message="boom")
            result = TrialResult(
                trial_name=f"t{i}__{agent}__1",
                job_name=name,
                task_name=f"t{i}",
                category="even" if i % 2 == 0 else "odd",
                agent=AgentSpec(name=agent),
                attempt=1,
                started_at=T0,
                finished_at=T0,
                reward=reward,
                error=error,
                agent_outcome=AgentOutcome(stop_reason="completed"),
                timings=PhaseTimings(agent=30.0),
                usage=Usage(input_tokens=100, output_tokens=10, cost_usd=0.5),
                agent_timeout_sec=600,
            )
            write_model_atomic(job / "trials" / result.trial_name / "result.json", result)
    return job


@pytest.fixture
def jobs(tmp_path: Path) -> list[Path]:
    main = write_job(
        tmp_path,
        "main",
        {"alpha": [1.0, 1.0, 0.0, 0.0], "beta": [1.0, 0.9, 0.9, 0.9], "gamma": [0.2, 0.1, None, 0.0]},
    )
    slow = write_job(tmp_path, "slow", {"alpha": [1.0, 1.0, 1.0, 1.0]}, multiplier=3.0)
    return [main, slow]


def report_for(jobs: list[Path], **settings: object) -> Report:
    return build_report(load_jobs(jobs), MetricSettings(resamples=200, **settings))  # type: ignore[arg-type]


def test_two_rankings_and_spearman(jobs: list[Path]) -> None:
    report = report_for(jobs)
    board = {g.agent: g for g in report.leaderboard}
    assert [g.agent for g in report.leaderboard] == ["beta", "alpha", "gamma"]  # by mean: 0.925, 0.5, 0.1
    assert (board["beta"].rank_by_mean, board["beta"].rank_by_solve_rate) == (1.0, 2.0)
    assert (board["alpha"].rank_by_mean, board["alpha"].rank_by_solve_rate) == (2.0, 1.0)
    assert board["gamma"].n_excluded == 1 and board["gamma"].mean_reward == pytest.approx(0.1)
    # ranks (1,2,3) vs (2,1,3): rho = 1 - 6*(1+1+0)/(3*8) = 0.5
    assert report.spearman_rho == pytest.approx(0.5)
    assert board["alpha"].cost_per_solved == pytest.approx(1.0)  # $2 over 2 solved


def test_flagged_jobs_are_listed_apart_unless_included(jobs: list[Path]) -> None:
    report = report_for(jobs)
    assert [g.display_name for g in report.flagged] == ["alpha [timeout-x3]"]
    assert all(not g.flags for g in report.leaderboard)
    included = report_for(jobs, include_flagged=True)
    assert included.flagged == []
    assert included.leaderboard[0].display_name == "alpha [timeout-x3]"


def test_categories_and_task_matrix(jobs: list[Path]) -> None:
    report = report_for(jobs)
    even = [g for g in report.categories if g.category == "even"]
    assert [g.agent for g in even] == ["beta", "alpha", "gamma"]
    assert {(c.task, c.agent): c.mean_reward for c in report.task_matrix}[("t2", "gamma")] is None


def test_unreadable_result_is_an_error_naming_the_file(jobs: list[Path]) -> None:
    bad = jobs[0] / "trials" / "t0__alpha__1" / "result.json"
    bad.write_text("{not json")
    with pytest.raises(UnreadableResultsError, match=r"t0__alpha__1/result\.json"):
        load_jobs(jobs)
    loaded = load_jobs(jobs, skip_unreadable=True)
    assert len(loaded.problems) == 1 and str(bad) in loaded.problems[0]
    report = build_report(loaded, MetricSettings(resamples=200))
    assert "UNREADABLE" in render(report, "md") and str(bad) in render(report, "md")


def test_unfinished_trials_are_counted(jobs: list[Path]) -> None:
    (jobs[0] / "trials" / "t9__alpha__1").mkdir()
    loaded = load_jobs(jobs)
    assert loaded.jobs[0].n_unfinished == 1


def test_missing_job_config_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "nojob" / "trials").mkdir(parents=True)
    with pytest.raises(Exception, match=r"config.json is missing"):
        load_jobs([tmp_path / "nojob"])


def test_every_format_renders_the_same_numbers(jobs: list[Path]) -> None:
    report = report_for(jobs)
    outputs = {fmt: render(report, fmt) for fmt in FORMATS}
    assert Report.model_validate_json(outputs["json"]) == report
    records = list(csv.DictReader(io.StringIO(outputs["csv"])))
    leaderboard = [r for r in records if r["scope"] == "leaderboard"]
    assert [r["agent"] for r in leaderboard] == ["beta", "alpha", "gamma"]
    assert float(leaderboard[0]["mean_reward"]) == report.leaderboard[0].mean_reward
    assert {r["scope"] for r in records} == {"leaderboard", "flagged", "category"}
    for fmt in ("table", "md", "html"):
        text = outputs[fmt]
        assert "Spearman" in text and "0.500" in text, fmt
        assert "excluded from the denominator" in text, fmt
        assert "Category: even" in text and "Failure modes" in text, fmt
    assert outputs["html"].startswith("<!DOCTYPE html>")
    assert render(report, "json") == outputs["json"]  # deterministic


def test_cli_report_and_errors(jobs: list[Path], tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "report.json"
    result = runner.invoke(app, ["report", *map(str, jobs), "-f", "json", "-o", str(out), "--resamples", "200"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["leaderboard"][0]["agent"] == "beta"
    bad = runner.invoke(app, ["report", str(jobs[0]), "-f", "xml"])
    assert bad.exit_code == 2 and "choose one of" in bad.output
    missing = runner.invoke(app, ["report", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "config.json" in missing.output


@pytest.mark.parametrize("width", [60, 80, 120, 200])
def test_the_table_report_fits_the_terminal_and_keeps_every_figure(jobs: list[Path], width: int) -> None:
    """Found at 80 and 120 columns: rich squeezed the agent column to nothing and folded headers mid-word."""
    from rich.cells import cell_len

    from lhtb.report.columns import sections

    report = report_for(jobs)
    text = render(report, "table", width=width)
    lines = text.splitlines()
    assert max(cell_len(line) for line in lines) <= width
    for section in sections(report):
        for group in section.rows:
            name = group.display_name
            rows = [line for line in lines if f"│ {name} " in line or (f"│ {name[:5]}" in line and "…" in line)]
            assert rows, (width, section.title, name)  # the agent column is never squeezed away
            if not any(f"│ {name} " in line for line in rows):
                assert name in text.split("Names shortened above, in full:")[1]
        for column in section.columns:
            for word in column.header.split():
                assert word in text, (width, column.header)  # a header wraps between its words only
    if width < 120:
        assert "Leaderboard (1/" in text  # stacked: each part repeats the agent column
