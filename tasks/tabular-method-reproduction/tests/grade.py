# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of tabular-method-reproduction: train the agent's `/app/train.py` and run its `/app/predict.py` on
the public extract and on churn tables generated from the verify seed (missing values, drift, heavy tails,
imbalance, reordered columns, higher cardinality, all at once), and compare its held-out AUC, log-loss and
probabilities with the verifier's own implementation of the paper's method (tests/reference.py)."""

from __future__ import annotations

import csv
import math
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from reference import run as reference  # noqa: E402
from tabgen import make_dataset, write_csv  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, Run, read_regular_file, work_dir, writable_dir  # noqa: E402

SEED = 4099
APP_DIR = "/app"
PUBLIC_SEED = 2031  # data/ as the image builds it (environment/Dockerfile)
RUN_CPU_SEC = 30  # CPU seconds per train or predict run (prlimit; hard limit 2 s above)
AGENT_CPU_BUDGET_SEC = 240.0  # CPU seconds of all the agent's runs together; later runs fail without starting
FAMILIES = ("clean", "missing", "drift", "imbalanced", "heavy_tail", "column_order", "cardinality", "mixed",
            "missing-2", "drift-2", "mixed-2")
AUC_BAND = (0.002, 0.02)
LOGLOSS_BAND = (0.002, 0.03)
AGREEMENT_BAND = (0.002, 0.03)  # mean absolute difference of the probabilities


def family_dataset(seed: int, family: str):
    """Columns (train order, test order), train rows, test rows and test labels of one hidden table."""
    rng = stress.rng(seed, "churn", family)
    reordered = family not in ("clean", "missing", "drift")  # other exports list the columns in their own orders
    family = family.split("-")[0]
    params = dict(train_groups=110 + int(rng.random() * 30), test_groups=60, rows_per_group=18 + int(rng.random() * 6),
                  missing=0.02 + 0.04 * rng.random(), base=-0.8 + 0.6 * rng.random(), drift=0.0,
                  tail=2.0 + 2.0 * rng.random(), agents=700 + int(rng.random() * 400), group_sd=0.6 + 0.4 * rng.random())
    if family in ("missing", "mixed"):
        params["missing"] = 0.2 + 0.15 * rng.random()
    if family in ("drift", "mixed"):
        params["drift"] = 1.2 + 0.8 * rng.random()
    if family == "imbalanced":
        params["base"] = -2.6 - 0.6 * rng.random()
    if family in ("heavy_tail", "mixed"):
        params["tail"] = 8.0 + 6.0 * rng.random()
    if family in ("cardinality", "mixed"):
        params["agents"] = 2500 + int(rng.random() * 1500)
    columns, train, test, labels = make_dataset(int(rng.random() * 10**6), **params)
    train_cols, test_cols = columns + ["target"], list(columns)
    if reordered:
        while train_cols[-1] == "target" or test_cols == columns:
            train_cols, test_cols = _shuffle(rng, train_cols), _shuffle(rng, test_cols)
    return train_cols, test_cols, train, test, labels


def _shuffle(rng, items: list[str]) -> list[str]:
    items = list(items)
    return [items.pop(min(int(rng.random() * len(items)), len(items) - 1)) for _ in range(len(items))]


def auc(y: np.ndarray, p: np.ndarray) -> float:
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    sorted_p = p[order]
    i = 0
    while i < len(p):  # average ranks over ties
        j = i
        while j + 1 < len(p) and sorted_p[j + 1] == sorted_p[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = y == 1
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def logloss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def closeness(error: float, band: tuple[float, float]) -> float:
    if not math.isfinite(error):
        return 0.0
    tolerance, bound = band
    if error <= tolerance:
        return 1.0
    return max(0.0, (bound - error) / (bound - tolerance))


def read_predictions(text: str | None, row_ids: list[str]) -> np.ndarray | None:
    """The agent's probabilities in the order of row_ids; None unless every row has one finite value in [0, 1]."""
    if text is None:
        return None
    try:
        rows = list(csv.DictReader(text.splitlines()))
        probs = {row["row_id"]: float(row["prob"]) for row in rows}
    except (KeyError, TypeError, ValueError, csv.Error):
        return None
    if len(rows) != len(row_ids) or set(probs) != set(row_ids):
        return None
    out = np.array([probs[r] for r in row_ids])
    if not np.all(np.isfinite(out)) or out.min() < 0 or out.max() > 1:
        return None
    return out


class Agent:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=120.0, max_timeouts=2)  # wall guard against sleepers only
        self.dir = work_dir("churn-")

    def _run(self, argv: list[str]) -> Run:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            return Run(False, "", f"not run: the program used its {AGENT_CPU_BUDGET_SEC:g} s of CPU time")
        limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
        return self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, *argv])

    def train_predict(self, name: str, train: Path, test: Path) -> str | None:
        model_dir = writable_dir(self.dir / f"{name}-model")
        out = writable_dir(self.dir / f"{name}-pred") / "pred.csv"
        if not self._run(["/app/train.py", "--data", str(train), "--out", str(model_dir)]).ok:
            return None
        if not self._run(["/app/predict.py", "--model", str(model_dir), "--data", str(test), "--out", str(out)]).ok:
            return None
        return read_regular_file(out)


def compare(probs: np.ndarray | None, expected: np.ndarray, labels: np.ndarray) -> tuple[float, float, float]:
    if probs is None:
        return 0.0, 0.0, 0.0
    return (closeness(abs(auc(labels, probs) - auc(labels, expected)), AUC_BAND),
            closeness(abs(logloss(labels, probs) - logloss(labels, expected)), LOGLOSS_BAND),
            closeness(float(np.mean(np.abs(probs - expected))), AGREEMENT_BAND))


def write_pair(directory: Path, name: str, train_cols, test_cols, train, test) -> tuple[Path, Path]:
    train_path = write_csv(directory / f"{name}-train.csv", train, train_cols)
    test_path = write_csv(directory / f"{name}-test.csv", test, test_cols)
    train_path.chmod(0o644)
    test_path.chmod(0o644)
    return train_path, test_path


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    agent = Agent()

    # The public extract is regenerated from the verifier's copy of the generator: /app/data may have been edited.
    columns, train, test, labels = make_dataset(PUBLIC_SEED)
    train_path, test_path = write_pair(agent.dir, "public", columns + ["target"], columns, train, test)
    ids = [row["row_id"] for row in test]
    expected_map = reference(str(train_path), str(test_path))
    expected = np.array([expected_map[r] for r in ids])
    probs = read_predictions(agent.train_predict("public", train_path, test_path), ids)
    card.binary("public_runs", 0.25, probs is not None, visibility="public",
                detail="train.py and predict.py run on the public extract and write one probability per test row")
    card.add("public_match", 0.5, sum(compare(probs, expected, np.array(labels))) / 3, kind="continuous",
             visibility="public", detail="public extract: AUC, log-loss and probabilities against the method")

    aucs, losses, agreements = [], [], []
    for family in FAMILIES:
        train_cols, test_cols, train, test, labels = family_dataset(seed, family)
        train_path, test_path = write_pair(agent.dir, family, train_cols, test_cols, train, test)
        ids = [row["row_id"] for row in test]
        expected_map = reference(str(train_path), str(test_path))
        expected = np.array([expected_map[r] for r in ids])
        probs = read_predictions(agent.train_predict(family, train_path, test_path), ids)
        a, b, c = compare(probs, expected, np.array(labels))
        aucs.append(a)
        losses.append(b)
        agreements.append(c)

    card.add("hidden_auc", 2.5, sum(aucs) / len(aucs), kind="continuous",
             detail="held-out AUC within 0.002 of the method's (0 at 0.02)")
    card.add("hidden_logloss", 2.5, sum(losses) / len(losses), kind="continuous",
             detail="held-out log-loss within 0.002 of the method's (0 at 0.03)")
    card.add("hidden_agreement", 3, sum(agreements) / len(agreements), kind="continuous",
             detail="mean absolute difference from the method's probabilities within 0.002 (0 at 0.03)")
    card.write()


if __name__ == "__main__":
    main()
