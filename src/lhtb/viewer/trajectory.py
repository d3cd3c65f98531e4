"""The agent's records: an ATIF-like ``trajectory.json`` (one collapsible block per step) and an asciinema v2
``recording.cast`` embedded as escaped JSON for ``cast.js`` (``fetch`` of a local file fails under file://).

Both files are written by agents, so their shape is checked loosely and every string is escaped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lhtb.viewer.markup import clip, definition_list, esc, json_for_script, pre

FIELD_LIMIT = 50_000  # characters of one message, reasoning or observation
MAX_STEPS = 5_000
CAST_LIMIT = 5_000_000  # characters of recorded output embedded in a page
SPEEDS = (0.5, 1, 2, 4, 8, 16)


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _preview(value: object, width: int = 110) -> str:
    line = " ".join(_text(value).split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _tool_calls(calls: object) -> str:
    if not isinstance(calls, list) or not calls:
        return ""
    items = []
    for call in calls:
        if not isinstance(call, dict):
            items.append(f"<li>{pre(clip(_text(call), FIELD_LIMIT))}</li>")
            continue
        args = call.get("arguments")
        if isinstance(args, dict) and isinstance(args.get("keystrokes"), str):
            rest = {k: v for k, v in args.items() if k != "keystrokes"}
            extra = f' <span class="muted">{esc(_preview(rest))}</span>' if rest else ""
            body = pre(clip(args["keystrokes"], FIELD_LIMIT), "keys") + extra
        else:
            body = pre(clip(_text(args), FIELD_LIMIT))
        items.append(f"<li><code>{esc(call.get('function_name', '?'))}</code>{body}</li>")
    return '<h4>Tool calls</h4><ul class="calls">' + "".join(items) + "</ul>"


def _observation(observation: object) -> str:
    if observation in (None, {}):
        return ""
    results = observation.get("results") if isinstance(observation, dict) else None
    if not isinstance(results, list):
        return "<h4>Observation</h4>" + pre(clip(_text(observation), FIELD_LIMIT), "obs")
    bodies = [
        pre(clip(_text(r.get("content", "")) if isinstance(r, dict) else _text(r), FIELD_LIMIT), "obs") for r in results
    ]
    return "<h4>Observation</h4>" + "".join(bodies)


def _step(step: object, index: int) -> str:
    if not isinstance(step, dict):
        return f'<details class="step"><summary>step {index}</summary>{pre(clip(_text(step), FIELD_LIMIT))}</details>'
    source = str(step.get("source", "?"))
    kind = source if source in ("system", "user", "agent") else "other"
    summary = (
        f'<span class="badge src-{kind}">{esc(source)}</span> #{esc(step.get("step_id", index))} '
        f'<span class="muted">{esc(step.get("timestamp", ""))}</span> {esc(_preview(step.get("message", "")))}'
    )
    body = [pre(clip(_text(step.get("message", "")), FIELD_LIMIT), "msg")]
    if step.get("reasoning_content"):
        body.append("<h4>Reasoning</h4>" + pre(clip(_text(step["reasoning_content"]), FIELD_LIMIT)))
    body.append(_tool_calls(step.get("tool_calls")))
    body.append(_observation(step.get("observation")))
    for key in ("metrics", "extra"):
        if isinstance(step.get(key), dict) and step[key]:
            body.append(f"<h4>{esc(key)}</h4>" + definition_list((k, _preview(v, 300)) for k, v in step[key].items()))
    return f'<details class="step src-{kind}"><summary>{summary}</summary>{"".join(body)}</details>'


def render_trajectory(path: Path) -> str:
    """HTML for a trajectory file, or "" when there is none."""
    if path.is_symlink():
        return '<p class="warn">trajectory.json is a symbolic link; not followed.</p>'
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return ""
    try:
        data: Any = json.loads(raw)
    except ValueError as exc:
        return f'<p class="warn">Not valid JSON ({esc(exc)}); the raw file:</p>' + pre(clip(raw))
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(steps, list):
        return '<p class="muted">No <code>steps</code> list; the file as JSON:</p>' + pre(clip(_text(data)))
    out = []
    agent = data.get("agent") if isinstance(data.get("agent"), dict) else {}
    final = data.get("final_metrics") if isinstance(data.get("final_metrics"), dict) else {}
    facts = [("schema", data.get("schema_version")), ("agent", agent.get("name")), ("model", agent.get("model_name"))]
    facts += [(k, _preview(v, 200)) for k, v in final.items()]
    out.append(definition_list(facts))
    if data.get("notes"):
        out.append(pre(clip(_text(data["notes"]), FIELD_LIMIT)))
    out.append(
        '<p class="controls"><button type="button" data-details="open">expand all</button> '
        f'<button type="button" data-details="close">collapse all</button> <span class="muted">{len(steps)} steps'
        + (f", the first {MAX_STEPS} shown" if len(steps) > MAX_STEPS else "")
        + "</span></p>"
    )
    out += [_step(step, i) for i, step in enumerate(steps[:MAX_STEPS], start=1)]
    return '<div class="trajectory">' + "\n".join(out) + "</div>"


def load_cast(path: Path, limit: int = CAST_LIMIT) -> dict[str, Any] | None:
    """The header and the output/marker events of an asciinema v2 file; malformed lines are skipped."""
    if path.is_symlink():
        return None
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    header: dict[str, Any] = {}
    events: list[list[Any]] = []
    size, skipped, truncated = 0, 0, False
    for number, line in enumerate(lines):
        try:
            item = json.loads(line)
        except ValueError:
            skipped += 1
            continue
        if number == 0 and isinstance(item, dict):
            header = {k: item[k] for k in ("version", "width", "height", "timestamp") if isinstance(item.get(k), int)}
            continue
        ok = isinstance(item, list) and len(item) >= 3 and isinstance(item[0], int | float) and item[0] == item[0]
        if not ok or item[1] not in ("o", "m") or not isinstance(item[2], str) or abs(item[0]) == float("inf"):
            skipped += 1
            continue
        size += len(item[2])
        if size > limit:
            truncated = True
            break
        events.append([float(item[0]), item[1], item[2]])
    return {"header": header, "events": events, "skipped": skipped, "truncated": truncated}


def render_recording(path: Path, *, follow: bool = False) -> str:
    """A player for the recording, or "" when there is none (cast.js wires the controls). ``follow``: a running
    trial's, tailed by the live view (an empty one when nothing is recorded yet), showing its latest output."""
    cast = load_cast(path)
    if cast is None:
        if not follow:
            return ""
        cast = {"header": {}, "events": [], "skipped": 0, "truncated": False}
    notes = []
    if cast["truncated"]:
        notes.append(f"the recording is longer than {CAST_LIMIT:,} characters; only its start is embedded")
    if cast["skipped"]:
        notes.append(f"{cast['skipped']} malformed line(s) skipped")
    note = f'<p class="warn">{esc("; ".join(notes))}</p>' if notes else ""
    options = "".join(f'<option value="{s}"{" selected" if s == 1 else ""}>{s}×</option>' for s in SPEEDS)
    return (
        f'<div class="player"{" data-follow" if follow else ""}>{note}<p class="controls">'
        '<button type="button" class="play">▶ play</button> <button type="button" class="restart">⟲ restart</button> '
        '<button type="button" class="end">⇥ end</button> '
        f'<label>speed <select class="speed">{options}</select></label> '
        '<input type="range" class="seek" min="0" max="0" step="0.1" value="0" aria-label="seek"> '
        '<span class="clock muted">0.0 s</span> <span class="marker muted"></span></p>'
        '<pre class="screen" tabindex="0"></pre>'
        "<noscript><p>The player needs JavaScript; the raw file is agent/recording.cast.</p></noscript>"
        f'<script type="application/json" class="cast-data">{json_for_script(cast)}</script></div>'
    )
