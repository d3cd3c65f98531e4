# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own, correct report: the expected summary of a CSV directory."""

from __future__ import annotations

import csv
import re
from pathlib import Path

RATES_TO_USD = {"USD": 1.0, "EUR": 1.10, "GBP": 1.25}
MISSING = {"", "na", "n/a", "null", "-"}
ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
DMY_DATE = re.compile(r"(\d{2})/(\d{2})/(\d{4})")
AMOUNT = re.compile(r"\d+(\.\d+)?")


def _value(row: dict[str, str], column: str) -> str | None:
    raw = (row.get(column) or "").strip()
    return None if raw.lower() in MISSING else raw


def _month(date: str | None) -> str | None:
    if date is None:
        return None
    if match := ISO_DATE.fullmatch(date):
        return f"{match[1]}-{match[2]}"
    if match := DMY_DATE.fullmatch(date):
        return f"{match[3]}-{match[2]}"
    return None


def read_rows(csv_dir: Path) -> list[dict[str, str]]:
    """Every data row of every *.csv file (sorted by name), keyed by normalised header name."""
    rows = []
    for path in sorted(csv_dir.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            header = [name.strip().lower() for name in next(reader, [])]
            rows.extend(dict(zip(header, values, strict=False)) for values in reader if any(v.strip() for v in values))
    return rows


def summarize_dir(csv_dir: Path) -> dict:
    seen: set[str] = set()
    orders = skipped = 0
    total = 0.0
    by_region: dict[str, float] = {}
    by_month: dict[str, float] = {}
    for row in read_rows(csv_dir):
        order_id = (row.get("order_id") or "").strip()
        if order_id in seen:
            continue
        seen.add(order_id)
        amount, month = _value(row, "amount"), _month(_value(row, "date"))
        if amount is None or not AMOUNT.fullmatch(amount) or month is None:
            skipped += 1
            continue
        currency = (_value(row, "currency") or "USD").upper()
        usd = float(amount) * RATES_TO_USD[currency]
        region = (_value(row, "region") or "unknown").lower()
        orders += 1
        total += usd
        by_region[region] = by_region.get(region, 0.0) + usd
        by_month[month] = by_month.get(month, 0.0) + usd
    return {
        "orders": orders,
        "skipped": skipped,
        "total_usd": round(total, 2),
        "by_region": {key: round(value, 2) for key, value in sorted(by_region.items())},
        "by_month": {key: round(value, 2) for key, value in sorted(by_month.items())},
    }
