"""Render a Report as a terminal table, Markdown, HTML, CSV or JSON; all output is deterministic text."""

from __future__ import annotations

import csv
import html
import io
from typing import Literal

from lhtb.metrics.failure_modes import FailureMode
from lhtb.metrics.models import GroupMetrics
from lhtb.report.columns import Section, notes, sections
from lhtb.report.fit import FitColumn, fit_table
from lhtb.report.models import Report
from lhtb.textsafe import csv_cell, md_cell, one_line, plain

Format = Literal["table", "md", "html", "csv", "json"]
FORMATS: tuple[Format, ...] = ("table", "md", "html", "csv", "json")
TITLE = "lhtb report"


def render(report: Report, fmt: Format, *, width: int = 160) -> str:
    if fmt == "table":
        return render_table(report, width=width)
    if fmt == "md":
        return render_markdown(report)
    if fmt == "html":
        return render_html(report)
    if fmt == "csv":
        return render_csv(report)
    if fmt == "json":
        return report.model_dump_json(indent=2, by_alias=True) + "\n"
    raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")


def render_table(report: Report, *, width: int = 160) -> str:
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    # Names, categories and problems come from result files (agent-controlled): Text cells, never markup.
    console.print(plain(f"{TITLE}: {', '.join(job.job_name for job in report.jobs)}"), highlight=False)
    shortened: list[str] = []
    for section in sections(report):
        fitted = fit_table(
            section.title,
            [FitColumn(c.header, c.numeric, c.key) for c in section.columns],
            [[column.cell(group) for column in section.columns] for group in section.rows],
            width,
            section.caption or None,
        )
        for renderable in fitted.renderables:
            console.print(renderable)
        shortened += fitted.full_names
    if shortened:
        console.print(plain("Names shortened above, in full: " + "; ".join(dict.fromkeys(shortened))), highlight=False)
    for line in notes(report):
        console.print(plain(line), highlight=False)
    return buffer.getvalue()


def _md_section(section: Section) -> list[str]:
    lines = [f"## {md_cell(section.title)}", ""]
    lines.append("| " + " | ".join(md_cell(c.header) for c in section.columns) + " |")
    lines.append("|" + "|".join("---:" if c.numeric else ":---" for c in section.columns) + "|")
    for group in section.rows:
        lines.append("| " + " | ".join(md_cell(c.cell(group)) for c in section.columns) + " |")
    if section.caption:
        lines += ["", md_cell(section.caption)]
    return [*lines, ""]


def render_markdown(report: Report) -> str:
    lines = [f"# {md_cell(TITLE + ': ' + ', '.join(job.job_name for job in report.jobs))}", ""]
    for section in sections(report):
        lines += _md_section(section)
    lines += ["## Notes", ""] + [f"- {md_cell(line)}" for line in notes(report)]
    return "\n".join(lines) + "\n"


_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
    "th,td{border:1px solid #ccc;padding:3px 8px}th{background:#f3f3f3}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}caption{caption-side:bottom;text-align:left;color:#555}"
)


def _esc(text: str) -> str:
    """HTML text: escaped, controls (ANSI escapes) made visible, one line."""
    return html.escape(one_line(text), quote=True)


def _html_section(section: Section) -> list[str]:
    out = [f"<h2>{_esc(section.title)}</h2>", "<table>"]
    if section.caption:
        out.append(f"<caption>{_esc(section.caption)}</caption>")
    out.append("<tr>" + "".join(f"<th>{_esc(c.header)}</th>" for c in section.columns) + "</tr>")
    for group in section.rows:
        cells = "".join(f'<td class="{"n" if c.numeric else "t"}">{_esc(c.cell(group))}</td>' for c in section.columns)
        out.append(f"<tr>{cells}</tr>")
    return [*out, "</table>"]


def render_html(report: Report) -> str:
    title = _esc(f"{TITLE}: {', '.join(job.job_name for job in report.jobs)}")
    out = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{title}</title><style>{_CSS}</style></head><body>',
        f"<h1>{title}</h1>",
    ]
    for section in sections(report):
        out += _html_section(section)
    out.append("<h2>Notes</h2><ul>")
    out += [f"<li>{_esc(line)}</li>" for line in notes(report)]
    out.append("</ul></body></html>")
    return "\n".join(out) + "\n"


def _csv_value(value: object) -> str:
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else csv_cell(value)


def csv_record(scope: str, group: GroupMetrics) -> dict[str, str]:
    """One flat CSV record; floats keep full precision (repr), unknown values are empty."""
    record = {
        "scope": scope,
        "category": csv_cell(group.category),
        "agent": csv_cell(group.agent),
        "flags": csv_cell(";".join(group.flags)),
    }
    data = group.model_dump(exclude={"agent", "category", "flags"})
    for name, value in data.items():
        if name == "errors_by_class":
            record["errors_by_class"] = csv_cell(";".join(f"{k}={v}" for k, v in value.items()))
        elif isinstance(value, dict):
            prefix = {"failure_modes": "mode_"}.get(name, f"{name}_")
            for key, item in value.items():
                record[csv_cell(f"{prefix}{key}")] = _csv_value(item)
        else:
            record[name] = _csv_value(value)
    return record


def render_csv(report: Report) -> str:
    """One row per agent in the leaderboard, the flagged list and each category (``scope`` tells which)."""
    records = [csv_record("leaderboard", g) for g in report.leaderboard]
    records += [csv_record("flagged", g) for g in report.flagged]
    records += [csv_record("category", g) for g in report.categories]
    header: list[str] = [] if records else _empty_header()
    for record in records:
        header += [key for key in record if key not in header]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n", restval="")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def _empty_header() -> list[str]:
    return ["scope", "category", "agent", "flags", *[f"mode_{m.value}" for m in FailureMode]]
