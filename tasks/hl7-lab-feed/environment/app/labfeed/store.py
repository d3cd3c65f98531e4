# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The results received so far, and the critical values among them."""
from __future__ import annotations

from dataclasses import dataclass

CRITICAL = ("LL", "HH")
RESULT_COLUMNS = ["patient_id", "analyte", "observed_at", "value", "unit", "flag", "status", "sender", "order_id"]
ALERT_COLUMNS = ["patient_id", "analyte", "observed_at", "value", "unit", "flag", "sender", "order_id"]


@dataclass
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
    control_id: str = ""

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.patient_id, self.sender, self.order_id, self.analyte)

    def row(self) -> list[str]:
        return [self.patient_id, self.analyte, self.observed_at, self.value, self.unit, self.flag, self.status,
                self.sender, self.order_id]


class ResultStore:
    def __init__(self) -> None:
        self.results: list[Result] = []

    def find(self, key: tuple[str, str, str, str]) -> int | None:
        for index, result in enumerate(self.results):
            if result.key == key:
                return index
        return None

    def apply(self, result: Result) -> None:
        """A newer observation of a result replaces the older one."""
        index = self.find(result.key)
        if index is None:
            self.results.append(result)
        else:
            self.results[index] = result

    def alerts(self) -> list[list[str]]:
        rows = []
        for result in self.results:
            if result.flag in CRITICAL:
                rows.append([result.patient_id, result.analyte, result.observed_at, result.value, result.unit,
                             result.flag, result.sender, result.order_id])
        return rows

    def rows(self) -> list[list[str]]:
        ordered = sorted(self.results, key=lambda r: (r.patient_id, r.analyte, r.observed_at))
        return [r.row() for r in ordered]
