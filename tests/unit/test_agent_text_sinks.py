"""Agent-controlled text is data at every sink: live display, trial card, report formats, viewer pages."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console

from lhtb.cli.live import LiveView
from lhtb.cli.report_commands import ReportOptions, build
from lhtb.errors import ErrorClass
from lhtb.fs import write_model_atomic
from lhtb.jobs.job_runner import load_trial_result
from lhtb.qa.exploits.agent_text import HOSTILE, HOSTILE_NAMES
from lhtb.report.render import FORMATS, render
from lhtb.report.trial_card import render_trial
from lhtb.results.models import (
    AgentOutcome,
    AgentSpec,
    ErrorInfo,
    JobConfig,
    PhaseRecord,
    PhaseTimings,
    Subtask,
    TrialResult,
    Usage,
)
from lhtb.textsafe import csv_cell, md_cell, visible
from lhtb.viewer import build_site

T0 = datetime(2025, 1, 1, tzinfo=UTC)
PROBES = [
    "[/red]",
    "[bold]x",
    "\x1b[2J",
    "\x1b]8;;http://x.invalid\x07link\x1b]8;;\x07",
    "\x1b]0;title\x07",
    "a\rb",
    "nul\x00",
    "bs\x08",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "a|b",
    "line\nbreak",
    '=HYPERLINK("http://x.invalid","x")',
]
EVIL = " ".join(PROBES)
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # no raw control byte may reach a sink (\t, \n allowed)


def hostile_result(job: str = "job", index: int = 0, **extra: object) -> TrialResult:
    fields: dict[str, object] = {
        "trial_name": f"t{index}{EVIL}__x",
        "job_name": job,
        "task_name": f"task{index} [bold]",
        "category": f"cat {EVIL}",
        "agent": AgentSpec(name=f"agent{EVIL}", model="[/red]m"),
        "attempt": 1,
        "started_at": T0,
        "finished_at": T0,
        "reward": 0.0,
        "subtasks": [Subtask(name=f"s {EVIL}", weight=1, score=0, detail=EVIL)],
        "error": ErrorInfo(error_class=ErrorClass.AGENT_ERROR, message=EVIL),
        "agent_outcome": AgentOutcome(stop_reason="error", message=EVIL),
        "phases": [PhaseRecord(index=0, started_at=T0, stop_reason=EVIL, resumed_with=EVIL)],
        "timings": PhaseTimings(agent=10.0),
        "usage": Usage(input_tokens=10, output_tokens=1, cost_usd=0.1, source="self-reported"),
    }
    fields.update(extra)
    return TrialResult.model_validate(fields)


def _console(terminal: bool) -> Console:
    return Console(file=io.StringIO(), record=True, width=300, force_terminal=terminal, color_system=None)


def _assert_literal(text: str) -> None:
    assert "[/red]" in text and "[bold]" in text  # shown, not parsed
    assert "\x1b" not in text and not CONTROL.search(text)
    assert "\\x1b[2J" in text  # the escape made visible


@pytest.mark.parametrize("terminal", [False, True])
def test_live_view_shows_hostile_events_literally(terminal: bool) -> None:
    console = _console(terminal)
    result = hostile_result()
    with LiveView(console, total=2) as view:
        view.event(result.trial_name, f"agent {EVIL}", None)
        view.event(result.trial_name, "retry 1", result)
        view.event(result.trial_name, "done", result)
    _assert_literal(console.export_text())


def test_resume_replay_of_finished_trials_into_the_live_display(tmp_path: Path) -> None:
    # `jobs resume` replays every finished result.json into the display before it runs anything.
    paths = []
    for i in range(3):
        path = tmp_path / f"t{i}" / "result.json"
        write_model_atomic(path, hostile_result(index=i))
        paths.append(path)
    console = _console(True)
    with LiveView(console, total=len(paths)) as view:
        for path in paths:
            loaded = load_trial_result(path)
            assert loaded is not None
            view.event(loaded.trial_name, "done", loaded)
    text = console.export_text()
    _assert_literal(text)
    assert "[3/3]" in text


def test_trial_card_shows_hostile_text_literally() -> None:
    console = _console(True)
    for renderable in render_trial(hostile_result()):
        console.print(renderable)
    text = console.export_text()
    _assert_literal(text)
    assert "source: self-reported" in text


def _job(root: Path) -> Path:
    job = root / "job"
    write_model_atomic(
        job / "config.json",
        JobConfig(
            job_name="job",
            created_at=T0,
            dataset_path=f"/d {EVIL}",
            task_names=[EVIL],
            agents=[AgentSpec(name=f"agent{EVIL}", model="[/red]m")],
            attempts=1,
            concurrency=1,
            max_retries=0,
            lhtb_version="0",
        ),
    )
    for i in range(2):
        result = hostile_result(index=i)
        trial = job / "trials" / f"t{i} [bold]x[red] \x1b[2J <img src=x onerror=alert(1)> a|b"  # no NUL, no /
        write_model_atomic(trial / "result.json", result)
        (trial / "agent").mkdir()
        (trial / "agent" / "stderr.txt").write_text(HOSTILE)
    return job


@pytest.fixture
def job(tmp_path: Path) -> Path:
    return _job(tmp_path)


@pytest.mark.parametrize("fmt", FORMATS)
def test_report_formats_render_hostile_names(job: Path, fmt: str) -> None:
    report, _ = build(ReportOptions([job]))
    text = render(report, fmt)  # type: ignore[arg-type]
    assert "\x1b" not in text and not CONTROL.search(text.replace("\n", ""))
    if fmt == "table":
        assert "[/red]" in text
    if fmt == "md":
        widths: list[int] = []  # cells per row of the current table: nothing may break out of a cell
        for line in [*text.splitlines(), ""]:
            if line.startswith("|"):
                widths.append(len(re.split(r"(?<!\\)\|", line)))
            elif widths:
                assert len(set(widths)) == 1, widths
                widths = []
        assert "<script>" not in text and "&lt;script&gt;" in text
    if fmt == "html":
        assert "<script>" not in text and "<img" not in text and "&lt;script&gt;" in text
    if fmt == "csv":
        records = list(csv.DictReader(io.StringIO(text)))
        assert records and all(not r["agent"].startswith(("=", "+", "-", "@")) for r in records)
        assert all(not r["category"].startswith(("=", "+", "-", "@")) for r in records)
    if fmt == "json":
        data = json.loads(text)
        assert data["leaderboard"][0]["usage_sources"] == {"self-reported": 2}


def test_report_marks_self_reported_usage(job: Path) -> None:
    report, _ = build(ReportOptions([job]))
    table = render(report, "table")
    assert "self-reported" in table and "$0.1000*" in table


def test_viewer_pages_escape_hostile_text(job: Path, tmp_path: Path) -> None:
    report, _ = build(ReportOptions([job]))
    out = tmp_path / "site"
    build_site(report, [job], out)
    pages = list(out.rglob("*.html"))
    assert len(pages) >= 4
    for page in pages:
        text = page.read_text()
        assert "<script>alert" not in text and "<img src=x" not in text, page
        assert "\x1b" not in text and not CONTROL.search(text.replace("\n", "").replace("\t", "")), page
    trial_pages = [p for p in pages if p.parent.name == "trials"]
    body = trial_pages[0].read_text()
    assert "[/red]" in body and "\\x1b[2J" in body and "self-reported" in body


def test_sanitisers() -> None:
    assert visible("a\x1b[2Jb\r\x00") == "a\\x1b[2Jb\\x0d\\x00"
    assert visible("\u202eevil") == "\\u202eevil"
    assert md_cell("a|b\nc `x` <b>[l](j)") == "a\\|b\\nc \\`x\\` &lt;b&gt;\\[l\\](j)"
    assert csv_cell("=1+1") == "'=1+1" and csv_cell("-0.5") == "-0.5" and csv_cell("@SUM") == "'@SUM"
    for name in HOSTILE_NAMES:
        assert not CONTROL.search(visible(name))


# Forged usage (hole 6) -------------------------------------------------------------------------------------


def test_forged_usage_is_refused_with_a_note_not_an_error() -> None:
    usage = Usage(input_tokens=-5_000_000, episodes=-9, cost_usd=-1234.50, source="self-reported")
    assert (usage.input_tokens, usage.episodes, usage.cost_usd) == (0, 0, None)
    assert "input_tokens=-5000000 is negative" in usage.refused and len(usage.refused) == 3
    weird = Usage(input_tokens=float("nan"), output_tokens=10**30, cached_input_tokens="7", cost_usd=float("inf"))
    assert (weird.input_tokens, weird.output_tokens, weird.cached_input_tokens, weird.cost_usd) == (0, 0, 0, None)
    assert len(weird.refused) == 4
    # the notes survive a round trip and sums keep them
    again = Usage.model_validate_json(usage.plus(weird).model_dump_json())
    assert len(again.refused) == 7 and again.source == "self-reported"


def test_usage_source_labels_and_old_files() -> None:
    assert Usage().source == "none"
    assert Usage.model_validate({"input_tokens": 5, "cost_usd": 0.1}).source == "unknown"  # an older result.json
    measured = Usage(input_tokens=1).labelled("measured")
    reported = Usage(output_tokens=1).labelled("self-reported")
    assert measured.plus(Usage()).source == "measured"
    assert measured.plus(reported).source == "mixed"


def test_forged_usage_exploit_goes_through_the_installed_parsers() -> None:
    from lhtb.qa.exploits.agent_text import forged_stdout, reported

    usage = reported(forged_stdout())
    assert usage.source == "self-reported"
    for value in (usage.input_tokens, usage.cached_input_tokens, usage.output_tokens, usage.episodes):
        assert 0 <= value < 10**12
    assert usage.cost_usd is None or usage.cost_usd >= 0
    assert any("-5000000 is negative" in note for note in usage.refused)
    assert any("not finite" in note for note in usage.refused)


def test_fast_rows_agree_with_the_model_on_forged_usage(tmp_path: Path) -> None:
    from lhtb.metrics.rows import to_row
    from lhtb.report.rows_fast import row_from_json

    data = hostile_result().model_dump(mode="json", by_alias=True)
    forged = {"input_tokens": -5_000_000, "episodes": -9, "cost_usd": -1234.5}  # an old forged file
    data["agent_outcome"]["usage"] = forged
    raw = json.dumps(data).encode()
    fast = row_from_json(raw)
    assert fast == to_row(TrialResult.model_validate_json(raw))
    assert (fast.input_tokens, fast.episodes, fast.cost_usd) == (0, 0, None)
    clean = json.dumps({**data, "agent_outcome": {**data["agent_outcome"], "usage": {"input_tokens": 3}}}).encode()
    assert row_from_json(clean) == to_row(TrialResult.model_validate_json(clean))
    assert row_from_json(clean).usage_source == "unknown"


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("\x1b[31mred\x1b[0m", "red"),  # colour (CSI)
        ("\x1b[2K\x1b[1Gstep 3/9", "step 3/9"),  # erase line, cursor to column 1
        ("\x1b]0;title\x07done", "done"),  # window title (OSC ending in BEL)
        ("\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", "link"),  # hyperlink (OSC ending in ST)
        ("\x1bcreset \x1b7saved\x1b8", "reset saved"),  # short forms: reset, save/restore cursor
        ("a [b] \x00c", "a [b] \x00c"),  # not an escape sequence: left for the sink to make visible
    ],
)
def test_engine_output_quoted_in_a_message_loses_its_escape_sequences(raw: str, text: str) -> None:
    from lhtb.textsafe import visible, without_ansi

    assert without_ansi(raw) == text
    assert "\x1b" not in visible(without_ansi(raw))
