# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's reference implementation of the protocol in paper.md (section 3)."""

from __future__ import annotations

import csv
import math

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier

NUMERIC = ["age", "log_income", "debt_ratio", "num_accounts", "utilization", "late_payments"]
CATEGORICAL = ["region", "employment"]
CLASSES = ["low", "medium", "high"]


def load(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["risk"].strip()]
    num = np.array([[_num(r, c) for c in NUMERIC] for r in rows], dtype=float)
    cat = np.array([[r[c].strip() or np.nan for c in CATEGORICAL] for r in rows], dtype=object)
    y = np.array([r["risk"].strip() for r in rows])
    return num, cat, y


def _num(row, column):
    if column == "log_income":
        raw = row["income"].strip()
        return math.log1p(float(raw)) if raw else np.nan
    raw = row[column].strip()
    return float(raw) if raw else np.nan


def models(seed):
    return {
        "logreg": LogisticRegression(C=1.0, max_iter=2000),
        "tree": DecisionTreeClassifier(max_depth=6, min_samples_leaf=5, random_state=seed),
        "forest": RandomForestClassifier(n_estimators=60, max_depth=8, min_samples_leaf=2, random_state=seed, n_jobs=1),
        "knn": KNeighborsClassifier(n_neighbors=15),
    }


def preprocessor():
    n = len(NUMERIC)
    return ColumnTransformer([
        ("num", Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())]), list(range(n))),
        ("cat", Pipeline([("impute", SimpleImputer(strategy="most_frequent")),
                          ("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False))]),
         list(range(n, n + len(CATEGORICAL)))),
    ])


def run(path, seed):
    num, cat, y = load(path)
    X = np.empty((len(y), len(NUMERIC) + len(CATEGORICAL)), dtype=object)
    X[:, : len(NUMERIC)] = num
    X[:, len(NUMERIC):] = cat
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=seed)
    scores = {name: {"accuracy": [], "macro_f1": []} for name in models(seed)}
    for train, test in folds.split(X, y):
        prep = preprocessor()
        X_train = prep.fit_transform(X[train])
        X_test = prep.transform(X[test])
        for name, model in models(seed).items():
            model.fit(X_train, y[train])
            pred = model.predict(X_test)
            scores[name]["accuracy"].append(accuracy_score(y[test], pred))
            scores[name]["macro_f1"].append(f1_score(y[test], pred, average="macro", labels=CLASSES))
    methods = {}
    for name, s in scores.items():
        methods[name] = {
            "accuracy_mean": float(np.mean(s["accuracy"])), "accuracy_std": float(np.std(s["accuracy"])),
            "macro_f1_mean": float(np.mean(s["macro_f1"])), "macro_f1_std": float(np.std(s["macro_f1"])),
        }
    ranking = sorted(methods, key=lambda m: (-methods[m]["macro_f1_mean"], m))
    return {
        "n_rows": int(len(y)),
        "class_counts": {c: int((y == c).sum()) for c in CLASSES},
        "methods": methods,
        "ranking": ranking,
    }
