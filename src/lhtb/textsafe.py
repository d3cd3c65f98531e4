"""Agent-controlled text is data: neutralise it for each sink (console markup, Markdown, CSV, logs, HTML).

Anything that came out of a container or a result file (error and stop messages, subtask names and details,
agent and model names, trial and task names) may hold rich markup, ANSI escape sequences, control characters,
HTML or spreadsheet formulas. Every function here returns plain text that the sink shows literally.
"""

from __future__ import annotations

import re

from rich.markup import escape as _rich_escape
from rich.text import Text

# C0 and C1 controls (but \t and \n, handled per sink), DEL, and the Unicode bidi/line-separator controls that
# can make a terminal or a page show something other than the bytes (trojan-source style reordering).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CSV_FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


# Terminal escape sequences as programs write them (colours, cursor moves, titles): CSI, OSC and the short forms.
_ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[ -/]*[0-~])")


def without_ansi(text: str) -> str:
    """Engine and tool output (a build's log, Compose's errors) without its terminal escape sequences, so a message
    quoting it reads as text; any other control left is made visible by the sink's function."""
    return _ANSI.sub("", text)


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: object, *, keep_newlines: bool = True) -> str:
    r"""``text`` with every control character (ESC included) shown as ``\x1b``-style text; tabs kept.

    With ``keep_newlines`` false, newlines become a literal ``\n`` too (one line of output).
    """
    out = _CONTROLS.sub(_escape_char, "" if text is None else str(text))
    return out if keep_newlines else out.replace("\n", "\\n")


def one_line(text: object, limit: int | None = None) -> str:
    """One visible line, clipped to ``limit`` characters (with an ellipsis) when given."""
    out = visible(text, keep_newlines=False)
    return out if limit is None or len(out) <= limit else out[: max(0, limit - 1)] + "…"


def markup_safe(text: object, limit: int | None = None) -> str:
    """For a rich markup string: one visible line with ``[`` escaped, so it can never open or close a tag."""
    return _rich_escape(one_line(text, limit))


def markup_block(text: object) -> str:
    """For a rich markup string, keeping newlines: controls made visible and ``[`` escaped."""
    return _rich_escape(visible(text))


def plain(text: object, limit: int | None = None) -> Text:
    """A rich ``Text`` (never parsed as markup) holding one visible line; for tables and ``console.print``."""
    return Text(one_line(text, limit))


def md_cell(text: object) -> str:
    """A Markdown table cell or list item: one line; ``|``, backticks, ``[``, ``]`` escaped, ``<`` ``>`` as entities.

    That keeps text from ending a cell, opening code, forming a link or an image, or becoming raw HTML.
    """
    out = one_line(("" if text is None else str(text)).replace("\\", "\\\\"))
    for char in "|`[]":
        out = out.replace(char, "\\" + char)
    return out.replace("<", "&lt;").replace(">", "&gt;")


def csv_cell(text: object) -> str:
    """A CSV value: controls made visible, and a leading ``= + - @`` (a spreadsheet formula) quoted with ``'``.

    Plain numbers (``-0.5``, ``1e-3``) pass unchanged; the csv module does the field quoting.
    """
    out = visible(text)
    if out.startswith(_CSV_FORMULA_LEADS) and not _NUMBER.match(out):
        return "'" + out
    return out
