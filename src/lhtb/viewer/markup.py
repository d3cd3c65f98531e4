"""HTML building blocks for the viewer: every piece of text from a result file goes through ``esc``.

Result files hold agent-controlled text (details, trajectories, logs), so nothing is ever interpolated raw;
JSON embedded in a page is escaped so that it cannot close its ``<script>`` element.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from lhtb.textsafe import visible

DASH = "—"
TEXT_LIMIT = 200_000  # bytes of a log shown on a page; the middle of a longer one is left out
CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'"


def esc(value: object) -> str:
    """HTML text and attribute values: escaped, and control characters (ANSI escapes, NUL, CR) made visible."""
    return html.escape(visible(value), quote=True)


def href(*parts: str) -> str:
    """A relative link; each path part is percent-encoded (and the whole escaped for the attribute)."""
    return esc("/".join(quote(part, safe="") if part not in ("..", ".") else part for part in parts))


def json_for_script(data: object) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&`` survives literally."""
    text = json.dumps(data, ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def num(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return DASH
    return f"{value:.{digits}f}"


def count(value: int | None) -> str:
    return DASH if value is None else f"{value:,}"


def usd(value: float | None) -> str:
    return DASH if value is None else f"${value:.4f}"


def minutes(seconds: float | None) -> str:
    return DASH if seconds is None else f"{seconds / 60:.2f}"


@dataclass(frozen=True)
class Cell:
    """A table cell: ``html`` is already markup; ``sort`` is the key the sortable table uses."""

    html: str
    sort: str | float | None = None
    numeric: bool = False


def text_cell(value: object) -> Cell:
    return Cell(esc(DASH if value in (None, "") else value), sort=str(value or ""))


def num_cell(value: float | None, shown: str) -> Cell:
    return Cell(esc(shown), sort=value, numeric=True)


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    sortable: bool = False,
    cls: str = "",
    keys: Sequence[str] | None = None,
) -> str:
    """``keys``, one per row, become ``data-key`` attributes (the live view finds a trial's row by them)."""
    classes = " ".join(c for c in ("sortable" if sortable else "", cls) if c)
    out = [f'<table class="{classes}">' if classes else "<table>", "<thead><tr>"]
    out += [f"<th>{esc(h)}</th>" for h in headers]
    out.append("</tr></thead><tbody>")
    for number, row in enumerate(rows):
        cells = []
        for cell in row:
            attrs = ' class="n"' if cell.numeric else ""
            if sortable and cell.sort is not None:
                attrs += f' data-sort="{esc(cell.sort)}"'
            cells.append(f"<td{attrs}>{cell.html}</td>")
        key = f' data-key="{esc(keys[number])}"' if keys is not None else ""
        out.append(f"<tr{key}>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def definition_list(items: Iterable[tuple[str, object]]) -> str:
    body = "".join(f"<dt>{esc(k)}</dt><dd>{esc(DASH if v in (None, '') else v)}</dd>" for k, v in items)
    return f'<dl class="kv">{body}</dl>'


def pre(text: str, cls: str = "") -> str:
    return f'<pre class="{esc(cls)}">{esc(text)}</pre>' if cls else f"<pre>{esc(text)}</pre>"


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    """At most ``limit`` characters: the head and the tail, with a note saying how much was left out."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n\n[… {len(text) - 2 * half:,} characters left out by lhtb view …]\n\n{text[-half:]}"


def read_clipped(path: Path, limit: int = TEXT_LIMIT) -> str | None:
    """A text file's head and tail (undecodable bytes replaced), None when it does not exist."""
    if path.is_symlink():  # agent-side files could point anywhere on the host
        return f"[{path.name} is a symbolic link; lhtb view does not follow it]"
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            if size <= limit:
                return handle.read().decode("utf-8", errors="replace")
            head = handle.read(limit // 2).decode("utf-8", errors="replace")
            handle.seek(max(0, size - limit // 2))
            tail = handle.read().decode("utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    return f"{head}\n\n[… {size - limit:,} bytes of {size:,} left out by lhtb view …]\n\n{tail}"


def page(
    title: str, body: str, *, root: str, crumbs: Sequence[tuple[str, str | None]] = (), scripts: Sequence[str] = ()
) -> str:
    """A whole document; ``root`` is the relative path to the site root ("", "../", "../../")."""
    nav = " / ".join(f'<a href="{esc(link)}">{esc(label)}</a>' if link else esc(label) for label, link in crumbs)
    tags = "".join(f'<script src="{esc(root)}static/{esc(name)}" defer></script>' for name in ("viewer.js", *scripts))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<link rel="icon" href="{esc(root)}static/favicon.svg">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title>"
        f'<link rel="stylesheet" href="{esc(root)}static/viewer.css">{tags}</head>\n'
        f'<body><nav class="crumbs">{nav}</nav>\n<main>\n{body}\n</main>\n'
        "<footer>lhtb view · static site, no network access</footer></body></html>\n"
    )


def section(title: str, body: str, *, anchor: str = "") -> str:
    ident = f' id="{esc(anchor)}"' if anchor else ""
    return f"<section{ident}><h2>{esc(title)}</h2>\n{body}\n</section>"
