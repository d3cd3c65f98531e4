"""One trial's page: summary, scorecard, phases, reward curve, timings, usage, logs, trajectory, recording."""

from __future__ import annotations

from pathlib import Path

from lhtb.report.trial_card import SHOWN_THRESHOLD, activity_line, failure_mode
from lhtb.results.models import TrialResult, Usage
from lhtb.viewer.charts import curve_points, reward_curve_svg
from lhtb.viewer.markup import (
    DASH,
    Cell,
    count,
    definition_list,
    esc,
    num,
    num_cell,
    page,
    pre,
    read_clipped,
    section,
    table,
    text_cell,
    usd,
)
from lhtb.viewer.trajectory import render_recording, render_trajectory

LOG_SUFFIXES = (".txt", ".log")


def _summary(result: TrialResult) -> str:
    error = f"{result.error.error_class}: {result.error.message}" if result.error else None
    outcome = result.agent_outcome
    return definition_list(
        [
            ("task", result.task_name),
            ("category", result.category),
            ("agent", result.agent.label),
            ("agent kwargs", ", ".join(f"{k}={v}" for k, v in result.agent.kwargs.items())),
            ("attempt", result.attempt),
            ("reward", num(result.reward, 4)),
            ("error", error),
            ("stop reason", outcome.stop_reason),
            (f"failure mode (at {SHOWN_THRESHOLD:g})", failure_mode(result)),
            ("last seen working", activity_line(result)),
            ("agent exit code", outcome.exit_code),
            ("agent message", outcome.message),
            ("started", result.started_at.isoformat()),
            ("finished", result.finished_at.isoformat()),
            ("agent timeout", f"{result.agent_timeout_sec:g} s" if result.agent_timeout_sec else None),
            ("retries", result.retries),
            ("continue until timeout", result.continue_until_timeout),
            ("verifier mode", result.verifier_mode),
            ("feedback mode", result.feedback_mode),
            ("comparable", result.comparable),
        ]
    )


def _scorecard(result: TrialResult) -> str:
    if not result.subtasks:
        return '<p class="muted">No subtasks were scored.</p>'
    total = sum(s.weight for s in result.subtasks) or 1.0
    rows = [
        [
            text_cell(s.name),
            text_cell(s.kind),
            num_cell(s.weight, f"{s.weight:g}"),
            num_cell(s.weight / total, f"{100 * s.weight / total:.0f}%"),
            Cell(
                f'<span class="{"ok" if s.score >= 1 else "bad" if s.score <= 0 else "part"}">{s.score:.3f}</span>',
                sort=s.score,
                numeric=True,
            ),
            text_cell(s.visibility),
            Cell(esc(s.detail), sort=s.detail),
        ]
        for s in result.subtasks
    ]
    headers = ["subtask", "kind", "weight", "share", "score", "visibility", "detail"]
    caption = f'<p class="muted">reward = Σ w·s / Σ w = {num(result.reward, 4)}</p>'
    return table(headers, rows, sortable=True) + caption


def _usage_row(label: str, usage: Usage) -> list[Cell]:
    return [
        text_cell(label),
        num_cell(usage.input_tokens, count(usage.input_tokens)),
        num_cell(usage.cached_input_tokens, count(usage.cached_input_tokens)),
        num_cell(usage.output_tokens, count(usage.output_tokens)),
        num_cell(usage.cost_usd, usd(usage.cost_usd)),
        num_cell(usage.episodes, str(usage.episodes)),
        text_cell(usage.source),
        text_cell("; ".join(usage.refused)),
    ]


def _phases(result: TrialResult) -> str:
    if not result.phases:
        return '<p class="muted">No phases were recorded.</p>'
    rows = [
        [
            num_cell(p.index, str(p.index)),
            text_cell(p.mode),
            text_cell(p.started_at.isoformat(timespec="seconds")),
            text_cell(p.finished_at.isoformat(timespec="seconds") if p.finished_at else None),
            text_cell(p.stop_reason),
            num_cell(p.reward, num(p.reward)),
            num_cell(p.agent_sec, f"{p.agent_sec / 60:.2f}"),
            num_cell(p.usage.input_tokens + p.usage.output_tokens, count(p.usage.input_tokens + p.usage.output_tokens)),
        ]
        for p in result.phases
    ]
    headers = ["#", "mode", "started", "finished", "stop reason", "reward", "agent min", "tokens"]
    out = [table(headers, rows)]
    for p in result.phases:
        if p.resumed_with is not None:
            out.append(f"<details><summary>phase {p.index} resumed with</summary>{pre(p.resumed_with)}</details>")
    return "\n".join(out)


def _steps(result: TrialResult) -> str:
    """A multi-step task's steps: each one's agent time, stop reason and reward, or why it did not run."""
    rows = []
    for step in result.steps:
        verdict = step.verifier
        reward = None if verdict is None else verdict.reward
        note = step.skipped or (verdict.error.message if verdict is not None and verdict.error else "")
        rows.append(
            [
                text_cell(step.name),
                num_cell(step.agent_sec, f"{step.agent_sec / 60:.2f}"),
                text_cell("not run" if step.agent_outcome is None else step.agent_outcome.stop_reason),
                num_cell(reward, num(reward)),
                text_cell(note),
            ]
        )
    return table(["step", "agent min", "stop reason", "reward", "note"], rows)


def _timings(result: TrialResult) -> str:
    items = result.timings.model_dump()
    rows = [[text_cell(name), num_cell(sec, DASH if sec is None else f"{sec:.1f}")] for name, sec in items.items()]
    return table(["phase", "seconds"], rows)


def _usage(result: TrialResult) -> str:
    headers = ["", "input tok", "cached tok", "output tok", "cost", "episodes", "source", "refused"]
    rows = [_usage_row("trial (all phases)", result.usage), _usage_row("agent outcome", result.agent_outcome.usage)]
    rows += [_usage_row(f"phase {p.index}", p.usage) for p in result.phases]
    note = (
        '<p class="muted">source: measured = counted by lhtb\'s model layer; self-reported = read from the '
        "agent's own output (anything in its container can write it); refused = reported figures that were "
        "negative, non-finite or absurd, stored as 0 (cost unknown).</p>"
    )
    return table(headers, rows) + note


def _logs(directory: Path, names: tuple[str, ...] | None = None) -> list[str]:
    """Collapsible blocks for the text files in ``directory`` (``names`` in that order, or every log file)."""
    if not directory.is_dir():
        return []
    if names is None:
        names = tuple(sorted(p.name for p in directory.iterdir() if p.is_file() and p.suffix in LOG_SUFFIXES))
    out = []
    for name in names:
        text = read_clipped(directory / name)
        if text is None:
            continue
        state = " open" if text.strip() and name == "stdout.txt" else ""
        out.append(f"<details{state}><summary>{esc(name)} ({len(text):,} chars)</summary>{pre(text, 'log')}</details>")
    return out


def _verifier(trial_dir: Path, result: TrialResult | None) -> str:
    out = []
    if result is not None and result.verifier is not None:
        v = result.verifier
        error = f"{v.error.error_class}: {v.error.message}" if v.error else None
        out.append(
            definition_list(
                [
                    ("phase", v.phase),
                    ("reward", num(v.reward, 4)),
                    ("source", v.source),
                    ("exit code", v.exit_code),
                    ("seconds", f"{v.duration_sec:.1f}"),
                    ("error", error),
                ]
            )
        )
    root = trial_dir / "verifier"
    phases = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    for phase_dir in phases:
        blocks = _logs(phase_dir, ("stdout.txt", "stderr.txt", "refused-artifacts.txt"))
        if blocks:
            out.append(f"<h3>{esc(phase_dir.name)}</h3>" + "".join(blocks))
    return "\n".join(out) or '<p class="muted">No verifier output.</p>'


LIVE_TRIAL = (
    '<section id="live-trial" data-live="{url}"><h2>Live</h2><p class="muted" id="live-state">waiting for the '
    'first answer…</p><dl class="kv" id="live-facts"></dl></section>'
)


def render_trial(
    trial_dir: Path, result: TrialResult | None, problem: str | None, *, job_name: str, live_url: str | None = None
) -> str:
    """``live_url`` (``lhtb view --serve``): a live panel polling the server, and the recording tailed."""
    name = trial_dir.name
    parts = [f"<h1>{esc(name)}</h1>"]
    if problem:
        parts.append(f'<p class="warn">result.json could not be read: {esc(problem)}</p>')
    elif result is None:
        parts.append('<p class="warn">No result.json yet: the trial is still running, or was killed.</p>')
    if live_url is not None:
        parts.append(LIVE_TRIAL.format(url=live_url))
    nav = ['<p class="toc">']
    if result is not None:
        sections = [
            ("Summary", "summary", _summary(result)),
            ("Scorecard", "scorecard", _scorecard(result)),
            *([("Steps", "steps", _steps(result))] if result.steps else []),
            ("Phases", "phases", _phases(result)),
            ("Reward curve", "curve", reward_curve_svg(curve_points(result), result.phases)),
            ("Timings", "timings", _timings(result)),
            ("Usage", "usage", _usage(result)),
        ]
    else:
        sections = []
    sections.append(("Verifier output", "verifier", _verifier(trial_dir, result)))
    exception = read_clipped(trial_dir / "exception.txt")
    if exception is not None:
        sections.append(("Harness exception", "exception", pre(exception, "log")))
    agent_dir = trial_dir / "agent"
    agent_logs = _logs(agent_dir)
    if agent_logs:
        sections.append(("Agent logs", "agent-logs", "\n".join(agent_logs)))
    trajectory = render_trajectory(agent_dir / "trajectory.json")
    if trajectory:
        sections.append(("Trajectory", "trajectory", trajectory))
    recording = render_recording(agent_dir / "recording.cast", follow=live_url is not None and result is None)
    if recording:
        sections.append(("Terminal recording", "recording", recording))
    nav += [f'<a href="#{anchor}">{esc(title)}</a> ' for title, anchor, _ in sections]
    parts.append("".join(nav) + "</p>")
    parts += [section(title, body, anchor=anchor) for title, anchor, body in sections]
    crumbs = [("jobs", "../../../index.html"), (job_name, "../index.html"), (name, None)]
    scripts = (("cast.js",) if recording else ()) + (("live.js",) if live_url is not None else ())
    return page(f"{name} · lhtb view", "\n".join(parts), root="../../../", crumbs=crumbs, scripts=scripts)
