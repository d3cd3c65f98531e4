# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of reproduce-classifier-table: run the agent's `/app/reproduce.py DATA.csv SEED OUT.json` on the
study extract (regenerated here) and on loan tables generated from the verify seed (other data seeds, income
units, missingness, class mixes, noise, column orders, sizes), and compare its table with the paper's method
(tests/reference_pipeline.py)."""

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
STUDY = dict(seed=2024, rows=2000, cv_seed=7)  # data/loans.csv as the image builds it (environment/Dockerfile)
# Twelve smaller tables rather than a few large ones: the score of a partial reproduction varies less by seed.
FAMILIES = ("clean", "units", "missing", "imbalanced", "skewed", "noisy", "column_order", "mixed",
            "units-2", "missing-2", "column_order-2", "mixed-2")
MEAN_BAND = (0.002, 0.02)  # absolute
STD_BAND = (0.01, 0.05)  # relative to the method's fold standard deviation


def family_table(seed: int, family: str) -> tuple[list[dict], list[str], int]:
    """Rows, column order and study seed of one hidden table; every parameter is drawn from the verify seed."""
    rng = stress.rng(seed, "loans", family)
    family = family.split("-")[0]
    data_seed = int(rng.random() * 10**6)
    cv_seed = int(rng.random() * 10**4)
    params = dict(rows=700 + int(rng.random() * 300), missing=0.03 + 0.05 * rng.random(),
                  balance=0.4 * rng.random() - 0.2, noise=0.8 + 0.5 * rng.random())
    if family in ("units", "mixed"):
        params["scale"] = stress.pick(rng, [1000.0, 0.1, 12.5])
    if family in ("missing", "mixed"):
        params["missing"] = 0.15 + 0.15 * rng.random()
    if family == "imbalanced":
        params["balance"] = -0.6 - 0.3 * rng.random()
    if family in ("skewed", "mixed"):
        params["balance"] = 0.35 + 0.3 * rng.random()
    if family == "noisy":
        params["noise"] = 1.6 + 0.6 * rng.random()
    columns = list(COLUMNS)
    if family in ("column_order", "mixed"):
        columns = [columns.pop(min(int(rng.random() * len(columns)), len(columns) - 1)) for _ in range(len(COLUMNS))]
    return make_rows(data_seed, **params), columns, cv_seed


def closeness(value, target, tolerance, bound, relative=False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.0
    error = abs(value - target)
    if relative:
        error /= max(abs(target), 1e-9)
    if error <= tolerance:
        return 1.0
    return max(0.0, (bound - error) / (bound - tolerance))


def method_value(actual, method, key):
    try:
        return actual["methods"][method][key]
    except (KeyError, TypeError):
        return None


def mean_scores(actual, expected, key) -> list[float]:
    return [closeness(method_value(actual, m, key), expected["methods"][m][key], *MEAN_BAND) for m in METHODS]


def std_scores(actual, expected) -> list[float]:
    return [closeness(method_value(actual, m, key), expected["methods"][m][key], *STD_BAND, relative=True)
            for m in METHODS for key in ("accuracy_std", "macro_f1_std")]


def counts_right(actual, expected) -> bool:
    try:
        return (type(actual["n_rows"]) is int and actual["n_rows"] == expected["n_rows"]
                and all(type(actual["class_counts"][c]) is int and actual["class_counts"][c] == expected["class_counts"][c]
                        for c in CLASSES))
    except (KeyError, TypeError):
        return False


class Reproducer:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=180.0, max_timeouts=2)  # a guard, not a speed test
        self.dir = work_dir("loans-")

    def run(self, name: str, data: Path, seed: int) -> dict:
        out = writable_dir(self.dir / f"{name}-out") / "table.json"
        run = self.runner.run([sys.executable, "/app/reproduce.py", str(data), str(seed), str(out)])
        text = read_regular_file(out) if run.ok else None
        try:
            result = json.loads(text) if text is not None else None
        except ValueError:
            return {}
        return result if isinstance(result, dict) else {}


def write_table(path: Path, rows: list[dict], columns: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    path.chmod(0o644)
    return path


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    agent = Reproducer()

    # The study extract is regenerated from the verifier's copy of the generator: /app/data may have been edited.
    study = write_table(agent.dir / "loans.csv", make_rows(STUDY["seed"], STUDY["rows"]), list(COLUMNS))
    public_actual = agent.run("public", study, STUDY["cv_seed"])
    public_expected = reference(str(study), STUDY["cv_seed"])
    card.binary("public_runs", 0.5, isinstance(public_actual.get("methods"), dict), visibility="public",
                detail="reproduce.py writes a JSON table for the study extract, seed 7")
    public_scores = (mean_scores(public_actual, public_expected, "accuracy_mean")
                     + mean_scores(public_actual, public_expected, "macro_f1_mean")
                     + std_scores(public_actual, public_expected))
    card.add("public_table", 1, sum(public_scores) / len(public_scores), kind="continuous", visibility="public",
             detail="Table 1 (seed 7): means within 0.002 (0 at 0.02), stds within 1 % (0 at 5 %)")

    acc, f1, std, ranking, counts = [], [], [], [], []
    for family in FAMILIES:
        rows, columns, cv_seed = family_table(seed, family)
        path = write_table(agent.dir / f"{family}.csv", rows, columns)
        expected = reference(str(path), cv_seed)
        actual = agent.run(family, path, cv_seed)
        acc += mean_scores(actual, expected, "accuracy_mean")
        f1 += mean_scores(actual, expected, "macro_f1_mean")
        std += std_scores(actual, expected)
        ranking.append(actual.get("ranking") == expected["ranking"])
        counts.append(counts_right(actual, expected))

    card.add("hidden_accuracy", 3, sum(acc) / len(acc), kind="continuous",
             detail="mean accuracy per method and data set within 0.002 (0 at 0.02)")
    card.add("hidden_macro_f1", 3, sum(f1) / len(f1), kind="continuous",
             detail="mean macro-F1 per method and data set within 0.002 (0 at 0.02)")
    card.add("hidden_fold_std", 2.5, sum(std) / len(std), kind="continuous",
             detail="fold standard deviations within 1 % relative (0 at 5 %)")
    card.fraction("hidden_ranking", 0.5, ranking, detail="method ranking identical")
    card.fraction("hidden_row_counts", 0.5, counts, detail="n_rows and class_counts exact")
    card.write()


if __name__ == "__main__":
    main()
