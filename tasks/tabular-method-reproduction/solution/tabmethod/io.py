# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading the extract tables (columns by name, in any order) and writing prediction files."""

from __future__ import annotations

import csv


def load_table(path: str) -> dict:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
        names = reader.fieldnames or []
    column = {name: [row[name] for row in rows] for name in names}
    table = {
        "row_id": column["row_id"],
        "group_id": column["group_id"],
        "numeric": {name: column[name] for name in sorted(n for n in names if n.startswith("n_"))},
        "categorical": {name: column[name] for name in sorted(n for n in names if n.startswith("c_"))},
    }
    if "target" in column:
        table["target"] = [int(v) for v in column["target"]]
    return table


def write_predictions(path: str, row_ids: list[str], probs) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["row_id", "prob"])
        for row_id, p in zip(row_ids, probs):
            writer.writerow([row_id, f"{float(p):.6f}"])
