# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading the extract tables and writing prediction files."""

from __future__ import annotations

import csv

# The layout of the March extract; the columns are taken by position.
ID, GROUP = 0, 1
NUMERIC = slice(2, 8)
CATEGORICAL = slice(8, 12)
LABEL = 12


def read_rows(path: str) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        return header, [row for row in reader if row]


def split_columns(header: list[str], rows: list[list[str]]) -> dict:
    table = {
        "row_id": [r[ID] for r in rows],
        "group_id": [r[GROUP] for r in rows],
        "numeric": {name: [r[i] for r in rows] for i, name in enumerate(header) if NUMERIC.start <= i < NUMERIC.stop},
        "categorical": {name: [r[i] for r in rows] for i, name in enumerate(header)
                        if CATEGORICAL.start <= i < CATEGORICAL.stop},
    }
    if len(header) > LABEL:
        table["target"] = [int(r[LABEL]) for r in rows]
    return table


def load_table(path: str) -> dict:
    header, rows = read_rows(path)
    return split_columns(header, rows)


def write_predictions(path: str, row_ids: list[str], probs) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["row_id", "prob"])
        for row_id, p in zip(row_ids, probs):
            writer.writerow([row_id, f"{float(p):.6f}"])
