"""An installed CLI's usage, run by run: what it reported about itself beside what the proxy measured.

A CLI's own figures come from its stdout, which anything in the container can write, and their meaning shifts
on resume (Codex's ``turn.completed`` and Claude Code's ``total_cost_usd`` count the whole conversation, not the
run). When the translating proxy relayed the calls, its figures are the trial's and the CLI's are kept beside
them in ``agent/usage-check.json``; a disagreement is recorded, never resolved in the CLI's favour.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

from lhtb.fs import write_model_atomic
from lhtb.results.models import Usage, UsageCheck, UsageCheckRun

USAGE_CHECK_FILE = "usage-check.json"


class MeasuringProxy(Protocol):
    def measured(self, since_line: int = 0) -> tuple[Usage, int]: ...


def differences(reported: Usage, measured: Usage) -> list[str]:
    """The token figures on which the CLI and the proxy differ."""
    found = []
    for name in ("input_tokens", "output_tokens"):
        said, seen = getattr(reported, name), getattr(measured, name)
        if said != seen:
            found.append(f"{name}: reported {said}, measured {seen}")
    return found + [f"refused: {note}" for note in reported.refused]


class UsageLedger:
    """Per trial: the conversation the CLI is in, its reported totals, and the cross-check of every run."""

    def __init__(self, measured_by: str = "the lhtb model proxy") -> None:
        self.conversation: str | None = None  # the CLI's id of the conversation to resume
        self.reported_total = Usage()  # the conversation's usage as the CLI reported it, for cumulative figures
        self.last_reported = Usage()
        self.runs_done = 0
        self.check = UsageCheck(measured_by=measured_by)
        self._proxy_line = 0

    def new_conversation(self) -> None:
        self.conversation = None
        self.reported_total = Usage()

    def start_run(self) -> None:
        self.last_reported = Usage()

    def measured_in_run(self, proxy: MeasuringProxy) -> Usage:
        """The calls since the last run was accounted: a call that ended between two runs (the CLI gone, a
        process it left still asking) belongs to the next, never to none."""
        return proxy.measured(self._proxy_line)[0]

    def finish_run(
        self, kind: Literal["run", "resume"], reported: Usage, proxy: MeasuringProxy | None, logs_dir: Path
    ) -> Usage:
        """The run's usage for the trial: measured when a proxy relayed it (cross-check recorded), else reported."""
        self.last_reported = reported
        if proxy is None:
            return reported
        measured, self._proxy_line = proxy.measured(self._proxy_line)
        found = differences(reported, measured)
        entry = UsageCheckRun(
            run=self.runs_done, kind=kind, self_reported=reported, measured=measured, agree=not found, differences=found
        )
        self.check.runs.append(entry)
        write_model_atomic(logs_dir / USAGE_CHECK_FILE, self.check)
        return measured

    def finish_trial(self, proxy: MeasuringProxy, logs_dir: Path) -> None:
        """After the last run: calls the proxy finished later still (a process the CLI left behind, a call in
        flight when the time ran out) are recorded in the cross-check, so no measured call goes unseen."""
        late, self._proxy_line = proxy.measured(self._proxy_line)
        if late.episodes and self.check.runs:
            self.check.after_last_run = late
            write_model_atomic(logs_dir / USAGE_CHECK_FILE, self.check)
