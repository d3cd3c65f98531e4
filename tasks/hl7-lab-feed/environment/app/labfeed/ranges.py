# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reference intervals and critical limits by analyte, sex and age (config/reference_ranges.csv)."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "config" / "reference_ranges.csv"


@dataclass(frozen=True)
class Interval:
    analyte: str
    sex: str
    age_min: int
    age_max: int
    low: float
    high: float
    critical_low: float | None
    critical_high: float | None


def _num(text: str) -> float | None:
    return float(text) if text.strip() else None


def load(path: Path = TABLE) -> list[Interval]:
    with open(path, newline="", encoding="utf-8") as handle:
        return [Interval(r["analyte"], r["sex"], int(r["age_min_years"]), int(r["age_max_years"]),
                         float(r["low"]), float(r["high"]), _num(r["critical_low"]), _num(r["critical_high"]))
                for r in csv.DictReader(handle)]


class RangeTable:
    def __init__(self, rows: list[Interval]) -> None:
        self.rows = rows

    def lookup(self, analyte: str, sex: str, age: int) -> Interval | None:
        for row in self.rows:
            if row.analyte == analyte and row.sex in (sex, "*") and row.age_min <= age < row.age_max:
                return row
        return None


def flag(value: float, row: Interval | None) -> str:
    if row is None:
        return ""
    if row.critical_low is not None and value < row.critical_low:
        return "LL"
    if row.critical_high is not None and value > row.critical_high:
        return "HH"
    if value < row.low:
        return "L"
    if value > row.high:
        return "H"
    return "N"
