# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of reproduce-classifier-table: run the agent's `/app/reproduce.py DATA.csv SEED OUT.json` on loan
tables generated here (other seeds, units, missingness, class mixes, noise, column orders) and compare its table
with the reference protocol (tests/reference_pipeline.py)."""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_data import COLUMNS, make_rows  # noqa: E402
from reference_pipeline import CLASSES, run as reference  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir  # noqa: E402

SEED = 8128
APP_DIR = "/app"
METHODS = ("logreg", "tree", "forest", "knn")
FAMILIES = {
    "clean": dict(rows=1800),
    "units": dict(rows=1700, scale=1000.0),
    "missing": dict(rows=1900, missing=0.2),
    "imbalanced": dict(rows=2000, balance=-0.7),
    "noisy": dict(rows=1500, noise=1.8),
    "column_order": dict(rows=1600, missing=0.1),
}


def closeness(value, target, tolerance, bound) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.0
    error = abs(value - target)
    if error <= tolerance:
        return 1.0
    return max(0.0, (bound - error) / (bound - tolerance))


def metric_scores(actual, expected, key, tolerance, bound) -> list[float]:
    out = []
    for method in METHODS:
        try:
            value = actual["methods"][method][key]
        except (KeyError, TypeError):
            value = None
        out.append(closeness(value, expected["methods"][method][key], tolerance, bound))
    return out


def counts_right(actual, expected) -> bool:
    try:
        return (type(actual["n_rows"]) is int and actual["n_rows"] == expected["n_rows"]
                and all(type(actual["class_counts"][c]) is int and actual["class_counts"][c] == expected["class_counts"][c]
                        for c in CLASSES))
    except (KeyError, TypeError):
        return False


class Reproducer:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=60.0, max_timeouts=2)
        self.dir = work_dir("loans-")

    def run(self, name: str, data: Path, seed: int):
        out = writable_dir(self.dir / f"{name}-out") / "table.json"
        run = self.runner.run([sys.executable, "/app/reproduce.py", str(data), str(seed), str(out)])
        text = read_regular_file(out) if run.ok else None
        try:
            result = json.loads(text) if text is not None else None
        except ValueError:
            return None
        return result if isinstance(result, dict) else None


def write_table(path: Path, rows: list[dict], columns: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    path.chmod(0o644)


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    agent = Reproducer()

    public_actual = agent.run("public", Path(APP_DIR, "data/loans.csv"), 7)
    public_expected = reference(str(Path(APP_DIR, "data/loans.csv")), 7)
    card.binary("public_runs", 0.5, public_actual is not None and isinstance(public_actual.get("methods"), dict),
                visibility="public", detail="reproduce.py writes a JSON table for data/loans.csv, seed 7")
    public_scores = (metric_scores(public_actual, public_expected, "accuracy_mean", 0.002, 0.02)
                     + metric_scores(public_actual, public_expected, "macro_f1_mean", 0.002, 0.02)) if public_actual else [0.0]
    card.add("public_table", 1, sum(public_scores) / len(public_scores), kind="continuous", visibility="public",
             detail="Table 1 (seed 7) means within 0.002 (0 at 0.02)")

    acc, f1, std, ranking, counts = [], [], [], [], []
    for family, params in FAMILIES.items():
        rng = stress.rng(seed, "loans", family)
        data_seed = int(rng.random() * 10**6)
        cv_seed = int(rng.random() * 10**4)
        rows = make_rows(data_seed, **params)
        columns = list(COLUMNS)
        if family == "column_order":
            columns = [columns.pop(min(int(rng.random() * len(columns)), len(columns) - 1)) for _ in range(len(COLUMNS))]
        path = agent.dir / f"{family}.csv"
        write_table(path, rows, columns)
        expected = reference(str(path), cv_seed)
        actual = agent.run(family, path, cv_seed)
        if actual is None:
            actual = {}
        acc += metric_scores(actual, expected, "accuracy_mean", 0.002, 0.02)
        f1 += metric_scores(actual, expected, "macro_f1_mean", 0.002, 0.02)
        std += metric_scores(actual, expected, "accuracy_std", 0.002, 0.015)
        std += metric_scores(actual, expected, "macro_f1_std", 0.002, 0.015)
        ranking.append(actual.get("ranking") == expected["ranking"])
        counts.append(counts_right(actual, expected))

    card.add("hidden_accuracy", 3, sum(acc) / len(acc), kind="continuous",
             detail="mean accuracy per method and data set within 0.002 (0 at 0.02)")
    card.add("hidden_macro_f1", 3, sum(f1) / len(f1), kind="continuous",
             detail="mean macro-F1 per method and data set within 0.002 (0 at 0.02)")
    card.add("hidden_fold_std", 1, sum(std) / len(std), kind="continuous",
             detail="fold standard deviations within 0.002 (0 at 0.015)")
    card.fraction("hidden_ranking", 1.5, ranking, detail="method ranking identical")
    card.fraction("hidden_row_counts", 1, counts, detail="n_rows and class_counts exact")
    card.write()


if __name__ == "__main__":
    main()
