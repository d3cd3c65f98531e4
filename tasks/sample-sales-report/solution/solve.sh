#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: write /app/report.py and run it on the public data.
set -euo pipefail
cat > /app/report.py <<'PY'
"""Summarise a directory of sales CSV exports: python3 report.py [CSV_DIR [OUTPUT]]."""

import csv
import json
import re
import sys
from pathlib import Path

RATES_TO_USD = {"USD": 1.0, "EUR": 1.10, "GBP": 1.25}
MISSING = {"", "na", "n/a", "null", "-"}
ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
DMY_DATE = re.compile(r"(\d{2})/(\d{2})/(\d{4})")
AMOUNT = re.compile(r"\d+(\.\d+)?")


def value(row, column):
    raw = (row.get(column) or "").strip()
    return None if raw.lower() in MISSING else raw


def month_of(date):
    if date is None:
        return None
    if m := ISO_DATE.fullmatch(date):
        return f"{m[1]}-{m[2]}"
    if m := DMY_DATE.fullmatch(date):
        return f"{m[3]}-{m[2]}"
    return None


def read_rows(csv_dir):
    for path in sorted(csv_dir.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            header = [name.strip().lower() for name in next(reader, [])]
            for values in reader:
                if any(v.strip() for v in values):
                    yield dict(zip(header, values))


def summarize(csv_dir):
    seen = set()
    orders = skipped = 0
    total = 0.0
    by_region, by_month = {}, {}
    for row in read_rows(csv_dir):
        order_id = (row.get("order_id") or "").strip()
        if order_id in seen:
            continue
        seen.add(order_id)
        amount, month = value(row, "amount"), month_of(value(row, "date"))
        if amount is None or not AMOUNT.fullmatch(amount) or month is None:
            skipped += 1
            continue
        usd = float(amount) * RATES_TO_USD[(value(row, "currency") or "USD").upper()]
        region = (value(row, "region") or "unknown").lower()
        orders += 1
        total += usd
        by_region[region] = by_region.get(region, 0.0) + usd
        by_month[month] = by_month.get(month, 0.0) + usd
    return {
        "orders": orders,
        "skipped": skipped,
        "total_usd": round(total, 2),
        "by_region": {k: round(v, 2) for k, v in sorted(by_region.items())},
        "by_month": {k: round(v, 2) for k, v in sorted(by_month.items())},
    }


def main():
    csv_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "/app/data")
    output = Path(sys.argv[2] if len(sys.argv) > 2 else "/app/summary.json")
    output.write_text(json.dumps(summarize(csv_dir), indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
PY
cd /app && python3 report.py
