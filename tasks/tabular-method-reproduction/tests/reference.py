# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own implementation of the method of paper.md (section 2), used to set the bands."""

from __future__ import annotations

import csv

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, GroupShuffleSplit

SMOOTHING = 10.0
MISSING = "__missing__"


def read_table(path: str) -> dict[str, list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
        names = reader.fieldnames or []
    return {name: [row[name] for row in rows] for name in names}


def numeric(values: list[str]) -> np.ndarray:
    return np.array([float(v) if v.strip() else np.nan for v in values])


def encode(fit_cats: list[str], fit_y: np.ndarray, cats: list[str]) -> np.ndarray:
    prior = float(fit_y.mean())
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for c, y in zip(fit_cats, fit_y):
        sums[c] = sums.get(c, 0.0) + y
        counts[c] = counts.get(c, 0) + 1
    return np.array([(sums.get(c, 0.0) + SMOOTHING * prior) / (counts.get(c, 0) + SMOOTHING) for c in cats])


def fit(table: dict[str, list[str]]) -> dict:
    y = np.array([int(v) for v in table["target"]], dtype=float)
    groups = np.array(table["group_id"])
    num_cols = sorted(c for c in table if c.startswith("n_"))
    cat_cols = sorted(c for c in table if c.startswith("c_"))
    state = {"num": {}, "cat": {}, "num_cols": num_cols, "cat_cols": cat_cols}
    blocks = []
    for name in num_cols:
        x = numeric(table[name])
        lo, hi = np.nanpercentile(x, [1, 99])
        clipped = np.clip(x, lo, hi)
        missing = np.isnan(x)
        median = float(np.nanmedian(clipped))
        filled = np.where(missing, median, clipped)
        mean, std = float(filled.mean()), float(filled.std())
        std = std if std > 0 else 1.0
        state["num"][name] = (float(lo), float(hi), median, mean, std)
        blocks += [(filled - mean) / std, missing.astype(float)]
    folds = list(GroupKFold(n_splits=5).split(y, y, groups))
    for name in cat_cols:
        cats = [v if v.strip() else MISSING for v in table[name]]
        oof = np.zeros(len(y))
        for fit_idx, out_idx in folds:
            oof[out_idx] = encode([cats[i] for i in fit_idx], y[fit_idx], [cats[i] for i in out_idx])
        state["cat"][name] = cats
        blocks.append(oof)
    state["y"] = y
    features = np.column_stack(blocks)
    fit_idx, val_idx = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=0).split(features, y, groups))
    model = LogisticRegression(C=0.5, class_weight="balanced", max_iter=2000)
    model.fit(features[fit_idx], y[fit_idx])
    scores = model.decision_function(features[val_idx]).reshape(-1, 1)
    calibrator = LogisticRegression(C=1e4, max_iter=2000)
    calibrator.fit(scores, y[val_idx])
    state["model"], state["calibrator"] = model, calibrator
    return state


def predict(state: dict, table: dict[str, list[str]]) -> dict[str, float]:
    blocks = []
    for name in state["num_cols"]:
        lo, hi, median, mean, std = state["num"][name]
        x = numeric(table[name])
        missing = np.isnan(x)
        filled = np.where(missing, median, np.clip(x, lo, hi))
        blocks += [(filled - mean) / std, missing.astype(float)]
    for name in state["cat_cols"]:
        cats = [v if v.strip() else MISSING for v in table[name]]
        blocks.append(encode(state["cat"][name], state["y"], cats))
    scores = state["model"].decision_function(np.column_stack(blocks)).reshape(-1, 1)
    probs = state["calibrator"].predict_proba(scores)[:, 1]
    return dict(zip(table["row_id"], (float(p) for p in probs)))


def run(train_path: str, test_path: str) -> dict[str, float]:
    return predict(fit(read_table(train_path)), read_table(test_path))
