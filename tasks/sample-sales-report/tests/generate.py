# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Deterministic generator of messy sales CSV exports.

At build time ``python3 generate.py OUT_DIR`` writes the public data set (fixed seed). The verifier keeps a
byte-identical copy (tests/generate.py) to rebuild that set and to make hidden sets from its own seeds.
Randomness is drawn only through ``Random.random()``, whose sequence Python guarantees across versions.
"""

from __future__ import annotations

import csv
import io
import random
import sys
from pathlib import Path

PUBLIC_SEED = 41017
COLUMNS = ("order_id", "date", "region", "amount", "currency")
REGIONS = ("north", "south", "east", "west", "central")
MISSING_MARKERS = ("", "NA", "N/A", "null", "-", "  ")
NOTES = ("gift wrap, express", "repeat customer", "", 'called twice; "urgent"', "b2b", "")
# Each knob turns on one kind of mess; the public set has all of them.
KNOBS = ("layout", "formatting", "currency", "duplicates", "missing")


def between(rng: random.Random, low: int, high: int) -> int:
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def pick(rng: random.Random, choices):
    return choices[min(int(rng.random() * len(choices)), len(choices) - 1)]


def shuffled(rng: random.Random, items: list) -> list:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = between(rng, 0, i)
        items[i], items[j] = items[j], items[i]
    return items


def make_orders(rng: random.Random, knobs: frozenset[str]) -> list[dict[str, str]]:
    """Distinct orders with canonical values (missing values already blanked)."""
    count = between(rng, 15, 40)
    first_id = between(rng, 1000, 8000)
    orders = []
    for k in range(count):
        order = {
            "order_id": f"ORD-{first_id + 3 * k}",
            "date": f"2024-{between(rng, 1, 6):02d}-{between(rng, 1, 28):02d}",
            "region": pick(rng, REGIONS),
            "amount": f"{between(rng, 250, 250000) / 100:.2f}",
            "currency": "USD",
        }
        if "currency" in knobs and (k == 0 or rng.random() < 0.5):
            order["currency"] = pick(rng, ("EUR", "GBP"))
        if "missing" in knobs:
            roll = rng.random()
            if k == 1 or roll < 0.07:
                order["amount"] = pick(rng, MISSING_MARKERS)
            elif k == 2 or roll < 0.13:
                order["date"] = pick(rng, MISSING_MARKERS)
            elif k == 3 or roll < 0.2:
                order["region"] = pick(rng, MISSING_MARKERS)
            elif order["currency"] == "USD" and (k == 4 or roll < 0.3):
                order["currency"] = pick(rng, MISSING_MARKERS)
        orders.append(order)
    return orders


def format_row(rng: random.Random, order: dict[str, str], knobs: frozenset[str]) -> dict[str, str]:
    """One written copy of an order: with "formatting", spacing, letter case and date style vary."""
    row = dict(order)
    if "formatting" not in knobs:
        return row
    if row["date"][:4] == "2024" and rng.random() < 0.4:
        year, month, day = row["date"].split("-")
        row["date"] = f"{day}/{month}/{year}"
    if row["region"].strip() in REGIONS:
        row["region"] = pick(rng, (row["region"], row["region"].title(), row["region"].upper()))
    if row["currency"].strip() in ("USD", "EUR", "GBP") and rng.random() < 0.3:
        row["currency"] = row["currency"].lower()
    for key in row:
        if row[key].strip() and rng.random() < 0.35:
            row[key] = " " * between(rng, 0, 2) + row[key] + " " * between(rng, 1, 3)
    return row


def header_name(rng: random.Random, column: str, knobs: frozenset[str]) -> str:
    if "layout" not in knobs:
        return column
    name = pick(rng, (column, column.upper(), column.title(), column.capitalize()))
    return " " * between(rng, 0, 1) + name + " " * between(rng, 0, 1)


def write_csv(rng: random.Random, rows: list[dict[str, str]], knobs: frozenset[str]) -> str:
    columns = list(COLUMNS)
    if "layout" in knobs:
        columns = shuffled(rng, columns + ["notes", "sku"][: between(rng, 0, 2)])
    buffer = io.StringIO()
    newline = "\r\n" if "layout" in knobs and rng.random() < 0.5 else "\n"
    writer = csv.writer(buffer, lineterminator=newline)
    writer.writerow([header_name(rng, column, knobs) for column in columns])
    for row in rows:
        extra = {"notes": pick(rng, NOTES), "sku": f"SKU{between(rng, 100, 999)}"}
        writer.writerow([row[column] if column in row else extra[column] for column in columns])
    return buffer.getvalue()


def make_dataset(rng: random.Random, knobs: frozenset[str]) -> dict[str, str]:
    """File name -> content of one data set (CSV files, plus a stray non-CSV file with "layout")."""
    orders = make_orders(rng, knobs)
    rows = [format_row(rng, order, knobs) for order in orders]
    if "duplicates" in knobs:
        for _ in range(between(rng, 2, 6)):
            rows.append(format_row(rng, pick(rng, orders), knobs))
    rows = shuffled(rng, rows)
    file_count = between(rng, 1, 3)
    cut_points = sorted(between(rng, 1, len(rows) - 1) for _ in range(file_count - 1))
    bounds = [0, *cut_points, len(rows)]
    files = {}
    for index in range(file_count):
        chunk = rows[bounds[index] : bounds[index + 1]]
        files[f"sales_{2024 + index}_{pick(rng, ('export', 'q1', 'web', 'shop'))}.csv"] = write_csv(rng, chunk, knobs)
    if "layout" in knobs:
        files["README.txt"] = "exported by the shop backend; not a CSV file\n"
    return files


def write_dataset(out_dir: Path, files: dict[str, str]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out_dir / name).write_text(text, encoding="utf-8", newline="")


def main() -> None:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "/app/data")
    write_dataset(out_dir, make_dataset(random.Random(PUBLIC_SEED), frozenset(KNOBS)))


if __name__ == "__main__":
    main()
