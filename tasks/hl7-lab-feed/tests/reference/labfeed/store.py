# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The current state of every result, updated by result status, and the critical-value alert log."""
from __future__ import annotations

from dataclasses import dataclass

CRITICAL = ("LL", "HH")
RESULT_COLUMNS = ["patient_id", "analyte", "observed_at", "value", "unit", "flag", "status", "sender", "order_id"]
ALERT_COLUMNS = ["seq", "kind", "patient_id", "analyte", "observed_at", "value", "unit", "flag", "sender",
                 "order_id", "control_id"]


@dataclass(frozen=True)
class Result:
    patient_id: str
    analyte: str
    observed_at: str
    value: str
    unit: str
    flag: str
    status: str
    sender: str
    order_id: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.patient_id, self.sender, self.order_id, self.analyte)

    @property
    def critical(self) -> bool:
        return self.flag in CRITICAL

    def row(self) -> list[str]:
        return [self.patient_id, self.analyte, self.observed_at, self.value, self.unit, self.flag, self.status,
                self.sender, self.order_id]


class ResultStore:
    def __init__(self) -> None:
        self.current: dict[tuple[str, str, str, str], Result] = {}
        self.alerts: list[list[str]] = []

    def apply(self, status: str, result: Result, control_id: str) -> None:
        """result carries the key (and, for P/F/C/X, the new state); D deletes the key's state."""
        before = self.current.get(result.key)
        if status == "P" and before is not None and before.status in ("F", "C"):
            return
        if status == "D":
            after = None
            self.current.pop(result.key, None)
        else:
            after = result
            self.current[result.key] = result
        self._alert(before, after, control_id)

    def _alert(self, before: Result | None, after: Result | None, control_id: str) -> None:
        unchanged = (before is not None and after is not None and before.critical and after.critical
                     and before.value == after.value and before.flag == after.flag)
        if unchanged:
            return
        if before is not None and before.critical:
            self._log("RETRACTED", before, control_id)
        if after is not None and after.critical:
            self._log("CRITICAL", after, control_id)

    def _log(self, kind: str, result: Result, control_id: str) -> None:
        self.alerts.append([str(len(self.alerts) + 1), kind, result.patient_id, result.analyte, result.observed_at,
                            result.value, result.unit, result.flag, result.sender, result.order_id, control_id])

    def rows(self) -> list[list[str]]:
        ordered = sorted(self.current.values(),
                         key=lambda r: (r.patient_id, r.observed_at, r.analyte, r.sender, r.order_id))
        return [r.row() for r in ordered]
