# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Synthetic customer-churn tables with group structure, heavy tails, missing values, drift and high-cardinality
categories. make_dataset(seed, **params) -> (columns, train_rows, test_rows, test_labels); test rows hold no label.
Usage: python3 tabgen.py OUT_DIR SEED  (writes train.csv and test.csv; the test labels are not written)."""

from __future__ import annotations

import csv
import math
import random
import sys
from pathlib import Path

NUMERIC = ["n_tenure", "n_spend", "n_visits", "n_balance", "n_calls", "n_age"]
CATEGORICAL = ["c_region", "c_branch", "c_product", "c_agent"]


def _fmt(value: float) -> str:
    return f"{value:.5g}"


def make_dataset(seed: int, train_groups: int = 120, test_groups: int = 60, rows_per_group: int = 20,
                 missing: float = 0.05, base: float = -0.6, drift: float = 0.0, tail: float = 3.0,
                 agents: int = 900, group_sd: float = 0.8) -> tuple[list[str], list[dict], list[dict], list[int]]:
    rng = random.Random(seed)
    weights = [0.9, -0.7, 0.5, 0.6, -0.4, 0.3]
    region_effect = [rng.gauss(0, 0.6) for _ in range(8)]
    product_effect = [rng.gauss(0, 0.4) for _ in range(30)]
    agent_effect = [rng.gauss(0, 0.15) if rng.random() < 0.2 else 0.0 for _ in range(agents)]
    rows: list[dict] = []
    labels: list[int] = []
    row_id = 0
    for g in range(train_groups + test_groups):
        is_test = g >= train_groups
        u = rng.gauss(0, group_sd)
        region = rng.randrange(8)
        size = max(3, int(rows_per_group * (0.4 + 1.2 * rng.random())))
        for _ in range(size):
            x = [rng.gauss(0, 1) for _ in NUMERIC]
            # heavy tails on spend and balance: rare values far beyond the bulk
            for j in (1, 3):
                if rng.random() < 0.03:
                    x[j] *= tail * (2 + 8 * rng.random())
            if is_test and drift:
                x[0] += drift
                x[3] += 0.5 * drift
            product = min(int(rng.expovariate(0.15)), 29)
            agent = rng.randrange(agents)
            branch = f"B{g:03d}-{rng.randrange(3)}"
            signal = sum(w * max(-3.0, min(3.0, v)) for w, v in zip(weights, x))
            logit = base + 0.8 * signal + region_effect[region] + product_effect[product] + agent_effect[agent] + u
            y = 1 if rng.random() < 1 / (1 + math.exp(-logit)) else 0
            row = {"row_id": str(row_id), "group_id": f"G{g:04d}"}
            for name, v in zip(NUMERIC, x):
                value = v * 10 + 50
                row[name] = "" if rng.random() < missing else _fmt(value)
            row["c_region"] = "" if rng.random() < missing else f"R{region}"
            row["c_branch"] = branch
            row["c_product"] = "" if rng.random() < missing else f"P{product:02d}"
            row["c_agent"] = f"A{agent:04d}"
            row["_test"] = is_test
            rows.append(row)
            labels.append(y)
            row_id += 1
    train, test, test_labels = [], [], []
    for row, y in zip(rows, labels):
        if row.pop("_test"):
            test.append(row)
            test_labels.append(y)
        else:
            row["target"] = str(y)
            train.append(row)
    columns = ["row_id", "group_id"] + NUMERIC + CATEGORICAL
    return columns, train, test, test_labels


def write_csv(path: Path, rows: list[dict], columns: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    columns, train, test, _ = make_dataset(int(sys.argv[2]))
    write_csv(out / "train.csv", train, columns + ["target"])
    write_csv(out / "test.csv", test, columns)
