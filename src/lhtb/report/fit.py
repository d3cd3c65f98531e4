"""Tables that fit the terminal: columns are never squeezed below their content, a table too wide for the
console is stacked into parts that each repeat the identifying columns, and a name too long for its column is
shortened in the middle and written out in full underneath.

Why: rich shrinks the widest columns first, so at 80 columns a leaderboard's agent names (and at 120 the whole
agent column) wrapped character by character or vanished, which is the one column a reader needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from lhtb.textsafe import one_line

ELLIPSIS = "…"
BORDER = 3  # a column's padding and its rule
MIN_KEY = 12  # narrowest a shortened name gets


@dataclass(frozen=True)
class FitColumn:
    header: str
    numeric: bool = True
    key: bool = False  # identifies the row (agent, task, trial): repeated in every part, never dropped


@dataclass(frozen=True)
class Fitted:
    tables: list[Table]
    caption: Text | None  # printed under the last part as its own paragraph (a rich caption widens columns)
    full_names: list[str]  # the names shortened in the tables, in full, for a note under them

    @property
    def renderables(self) -> list[Table | Text]:
        return [*self.tables, *([self.caption] if self.caption is not None else [])]


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, keeping its start and its end (model names differ at both)."""
    if cell_len(text) <= width:
        return text
    head = max(1, (width - 1) * 2 // 3)
    tail = max(0, width - 1 - head)
    start = text
    while cell_len(start) > head:
        start = start[:-1]
    end = text[len(text) - tail :] if tail else ""
    while cell_len(end) > tail:
        end = end[1:]
    return start + ELLIPSIS + end


TEXT_WIDTH = 24  # a text column (errors, usage source) wider than this wraps between words


def _longest_word(texts: Sequence[str]) -> int:
    return max((cell_len(word) for text in texts for word in text.split()), default=1)


def _natural(column: FitColumn, cells: Sequence[str]) -> int:
    widest = max([1, *(cell_len(cell) for cell in cells)])
    if not column.numeric and not column.key:
        widest = min(widest, max(TEXT_WIDTH, _longest_word(cells)))
    return max(widest, _longest_word([column.header]))


def fit_table(
    title: str, columns: Sequence[FitColumn], rows: Sequence[Sequence[str]], width: int, caption: str | None = None
) -> Fitted:
    """``rows`` as one or more tables no wider than ``width`` cells; every text (agent-controlled names, messages)
    is shown as one visible line, never parsed as markup."""
    columns = [FitColumn(one_line(c.header), c.numeric, c.key) for c in columns]
    cells = [[one_line(row[i]) for row in rows] for i in range(len(columns))]
    natural = [_natural(column, cells[i]) for i, column in enumerate(columns)]
    keys = [i for i, column in enumerate(columns) if column.key]
    others = [i for i in range(len(columns)) if i not in keys]
    full_names: list[str] = []
    # Keys take at most a third of the width between them (but never less than MIN_KEY each).
    key_budget = max(MIN_KEY, (width // 3) // max(1, len(keys)) - BORDER) if keys else 0
    for i in keys:
        if natural[i] > key_budget:
            shortened = [shorten(cell, key_budget) for cell in cells[i]]
            full_names += [cell for cell, short in zip(cells[i], shortened, strict=True) if cell != short]
            cells[i] = shortened
            natural[i] = max(key_budget, max((cell_len(w) for w in columns[i].header.split()), default=1))
    parts: list[list[int]] = []
    current: list[int] = []

    def used(indices: list[int]) -> int:
        return 1 + sum(natural[i] + BORDER for i in keys + indices)

    for i in others:
        if current and used([*current, i]) > width:
            parts.append(current)
            current = []
        current.append(i)
    parts.append(current)
    tables = []
    for n, part in enumerate(parts, start=1):
        shown = sorted(keys + part)
        widths = {i: natural[i] for i in shown}
        spare = width - used(part)
        for i in shown:  # room left: headers on one line, leftmost first
            grow = max(0, min(spare, cell_len(columns[i].header) - widths[i]))
            widths[i] += grow
            spare -= grow
        label = one_line(title if len(parts) == 1 else f"{title} ({n}/{len(parts)})")
        table = Table(title=Text(label))
        for i in shown:
            column = columns[i]
            justify: Literal["right", "left"] = "right" if column.numeric else "left"
            # A fixed width (rich would otherwise squeeze some columns and crop the table): no cell wraps, a
            # header wraps between its words.
            table.add_column(Text(column.header), justify=justify, width=widths[i], overflow="fold")
        for r in range(len(rows)):
            table.add_row(*(Text(cells[i][r]) for i in shown))
        tables.append(table)
    note = Text(one_line(caption)) if caption else None
    return Fitted(tables, note, list(dict.fromkeys(full_names)))
