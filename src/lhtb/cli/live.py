"""The live view of a running job: one row per trial in flight, one line per finished trial."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from lhtb.results.models import TrialResult
from lhtb.textsafe import one_line, plain


@dataclass
class _Row:
    phase: str
    started: float = field(default_factory=time.monotonic)


def describe(result: TrialResult) -> Text:
    """One finished trial, as rich ``Text``: names and messages are agent-controlled, never parsed as markup."""
    reward = "—" if result.reward is None else f"{result.reward:.3f}"
    line = Text(f"{one_line(result.trial_name)}: reward {reward}")
    if result.error:
        line.append(f"  {result.error.error_class.value}: {one_line(result.error.message, 160)}", style="red")
    return line


class LiveView:
    def __init__(self, console: Console, total: int) -> None:
        self.console = console
        self.total = total
        self.finished = 0
        self.rows: dict[str, _Row] = {}
        self.live: Live | None = None

    def __enter__(self) -> LiveView:
        if self.console.is_terminal:
            self.live = Live(self._table(), console=self.console, refresh_per_second=4, transient=True)
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)

    def _table(self) -> Table:
        table = Table(title=f"lhtb: {self.finished}/{self.total} trials finished", expand=False)
        for column in ("trial", "phase", "elapsed"):
            table.add_column(column)
        now = time.monotonic()
        for name, row in sorted(self.rows.items()):
            table.add_row(plain(name), plain(row.phase), f"{now - row.started:6.1f}s")
        return table

    def notice(self, message: str) -> None:
        """A message about the job (e.g. a trial directory set aside on resume); may hold agent-made text."""
        self.console.print(Text("warning: ", style="yellow").append(one_line(message, 1000)), highlight=False)

    def event(self, trial: str, phase: str, result: TrialResult | None) -> None:
        if phase == "done":
            self.rows.pop(trial, None)
            self.finished += 1
            if result is not None:
                self.console.print(
                    Text(f"[{self.finished}/{self.total}] ").append_text(describe(result)), highlight=False
                )
        else:
            row = self.rows.setdefault(trial, _Row(phase))
            row.phase = phase
            if phase.startswith("retry") and result is not None and result.error is not None:
                error = result.error
                message = f"retrying {one_line(trial)}: {error.error_class.value}: {one_line(error.message, 200)}"
                self.console.print(Text(message), highlight=False)
        if self.live is not None:
            self.live.update(self._table())
