"""The live view of a running job: one row per trial in flight, one line per finished trial."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from lhtb.report.fit import shorten
from lhtb.results.models import TrialResult
from lhtb.textsafe import one_line, plain

PROGRESS_EVERY = 10  # finished trials between progress lines when the output is not a terminal


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


def duration(seconds: float) -> str:
    """``42s``, ``7m05s``, ``3h12m``: short enough for a progress line."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """Finished trials, time so far and an ETA from the job's own pace (finished trials per second, which
    already reflects its concurrency); no ETA before the first trial ends."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.finished = 0
        self._clock = clock
        self._started = clock()

    def line(self) -> str:
        elapsed = self._clock() - self._started
        text = f"{self.finished}/{self.total} trials finished · {duration(elapsed)}"
        left = self.total - self.finished
        if self.finished and left > 0:
            text += f" · ETA {duration(elapsed / self.finished * left)}"
        return text


class LiveView:
    def __init__(self, console: Console, total: int) -> None:
        self.console = console
        self.total = total
        self.progress = Progress(total)
        self.rows: dict[str, _Row] = {}
        self.live: Live | None = None

    @property
    def finished(self) -> int:
        return self.progress.finished

    def __enter__(self) -> LiveView:
        if self.console.is_terminal:
            # Rebuilt at every refresh: elapsed times and the ETA move between events too.
            self.live = Live(console=self.console, refresh_per_second=2, transient=True, get_renderable=self._table)
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)

    def _table(self) -> Table:
        table = Table(title=Text(f"lhtb: {self.progress.line()}"), expand=False)
        # A long trial name is shortened in the middle (task and attempt both stay visible) to keep a row a line.
        name_width = max(12, self.console.width - 30)
        table.add_column("trial", no_wrap=True, max_width=name_width, overflow="ellipsis")
        table.add_column("phase", no_wrap=True, overflow="ellipsis", max_width=16)
        table.add_column("elapsed", justify="right", no_wrap=True)
        now = time.monotonic()
        for name, row in sorted(self.rows.items()):
            table.add_row(Text(shorten(one_line(name), name_width)), plain(row.phase), duration(now - row.started))
        return table

    def notice(self, message: str) -> None:
        """A message about the job (e.g. a trial directory set aside on resume); may hold agent-made text."""
        self.console.print(Text("warning: ", style="yellow").append(one_line(message, 1000)), highlight=False)

    def event(self, trial: str, phase: str, result: TrialResult | None) -> None:
        if phase == "done":
            self.rows.pop(trial, None)
            self.progress.finished += 1
            if result is not None:
                self.console.print(
                    Text(f"[{self.finished}/{self.total}] ").append_text(describe(result)), highlight=False
                )
                if not self.console.is_terminal and self.finished % PROGRESS_EVERY == 0 and self.finished < self.total:
                    # Logs (CI, nohup) get no live table: a progress line now and then instead.
                    self.console.print(Text(self.progress.line(), style="dim"), highlight=False)
        else:
            row = self.rows.setdefault(trial, _Row(phase))
            row.phase = phase
            if phase.startswith("retry") and result is not None and result.error is not None:
                error = result.error
                message = f"retrying {one_line(trial)}: {error.error_class.value}: {one_line(error.message, 200)}"
                self.console.print(Text(message), highlight=False)
        if self.live is not None:
            self.live.refresh()
