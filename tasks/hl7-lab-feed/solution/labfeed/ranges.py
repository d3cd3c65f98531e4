# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reference intervals and critical limits by analyte, sex and age (config/reference_ranges.csv)."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "config" / "reference_ranges.csv"


@dataclass(frozen=True)
class Interval:
    analyte: str
    sex: str
    age_min: int
    age_max: int
    low: Decimal
    high: Decimal
    critical_low: Decimal | None
    critical_high: Decimal | None


def _dec(text: str) -> Decimal | None:
    return Decimal(text) if text.strip() else None


def load(path: Path = TABLE) -> list[Interval]:
    with open(path, newline="", encoding="utf-8") as handle:
        return [Interval(r["analyte"], r["sex"], int(r["age_min_years"]), int(r["age_max_years"]),
                         Decimal(r["low"]), Decimal(r["high"]), _dec(r["critical_low"]), _dec(r["critical_high"]))
                for r in csv.DictReader(handle)]


class RangeTable:
    def __init__(self, rows: list[Interval]) -> None:
        self.by_analyte: dict[str, list[Interval]] = {}
        for row in rows:
            self.by_analyte.setdefault(row.analyte, []).append(row)

    def lookup(self, analyte: str, sex: str, age: int | None) -> Interval | None:
        if age is None:
            return None
        for row in self.by_analyte.get(analyte, []):
            if row.sex in (sex, "*") and row.age_min <= age <= row.age_max:
                return row
        return None


def flag(value: Decimal, row: Interval | None) -> str:
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
