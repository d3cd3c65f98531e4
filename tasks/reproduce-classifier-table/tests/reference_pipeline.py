# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's reference implementation of the protocol in paper.md (sections 3 and 4): Table 1 (four
learners, folds grouped by customer) and Table 2 (the ablation of the logistic regression and the neighbour
vote)."""

from __future__ import annotations

import csv
import math

import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier

NUMERIC = ["age", "log_income", "debt_ratio", "num_accounts", "utilization", "late_payments"]
CATEGORICAL = ["region", "employment"]
CLASSES = ["low", "medium", "high"]
# Table 2: which numeric columns and whether the categorical fields enter, per variant ("ungrouped" changes the folds)
VARIANTS = {
    "ungrouped": (NUMERIC, True),
    "raw_income": (["age", "income", "debt_ratio", "num_accounts", "utilization", "late_payments"], True),
    "no_history": (["age", "log_income", "debt_ratio", "utilization"], True),
    "no_categories": (NUMERIC, False),
    "complete_cases": (NUMERIC, True),
}
ABLATED = ("logreg", "knn")


def load(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["risk"].strip()]
    columns = NUMERIC + ["income"]
    num = {c: np.array([_num(r, c) for r in rows], dtype=float) for c in columns}
    cat = np.array([[r[c].strip() or np.nan for c in CATEGORICAL] for r in rows], dtype=object)
    y = np.array([r["risk"].strip() for r in rows])
    groups = np.array([r["customer_id"].strip() for r in rows])
    fields = ["age", "income", "debt_ratio", "num_accounts", "utilization", "late_payments"] + CATEGORICAL
    complete = np.array([all(r[c].strip() for c in fields) for r in rows])
    return num, cat, y, groups, complete


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


def design(num, cat, numeric, categorical):
    n = len(numeric)
    X = np.empty((len(cat), n + (len(CATEGORICAL) if categorical else 0)), dtype=object)
    for i, c in enumerate(numeric):
        X[:, i] = num[c]
    if categorical:
        X[:, n:] = cat
    parts = [("num", Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())]),
              list(range(n)))]
    if categorical:
        parts.append(("cat", Pipeline([("impute", SimpleImputer(strategy="most_frequent")),
                                       ("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False))]),
                      list(range(n, n + len(CATEGORICAL)))))
    return X, parts


def evaluate(X, parts, y, folds, learners):
    scores = {name: {"accuracy": [], "macro_f1": []} for name in learners}
    for train, test in folds:
        prep = ColumnTransformer(parts)
        X_train = prep.fit_transform(X[train])
        X_test = prep.transform(X[test])
        for name, model in learners.items():
            model.fit(X_train, y[train])
            pred = model.predict(X_test)
            scores[name]["accuracy"].append(accuracy_score(y[test], pred))
            scores[name]["macro_f1"].append(f1_score(y[test], pred, average="macro", labels=CLASSES))
    return {name: {"accuracy_mean": float(np.mean(s["accuracy"])), "accuracy_std": float(np.std(s["accuracy"])),
                   "macro_f1_mean": float(np.mean(s["macro_f1"])), "macro_f1_std": float(np.std(s["macro_f1"]))}
            for name, s in scores.items()}


def run(path, seed, ablation=True):
    num, cat, y, groups, complete = load(path)
    grouped = list(StratifiedGroupKFold(n_splits=5, shuffle=True, random_state=seed).split(y, y, groups))
    X, parts = design(num, cat, NUMERIC, True)
    methods = evaluate(X, parts, y, grouped, models(seed))
    result = {
        "n_rows": int(len(y)),
        "n_customers": int(len(set(groups))),
        "class_counts": {c: int((y == c).sum()) for c in CLASSES},
        "methods": methods,
        "ranking": sorted(methods, key=lambda m: (-methods[m]["macro_f1_mean"], m)),
    }
    if ablation:
        table2 = {}
        for variant, (numeric, categorical) in VARIANTS.items():
            X, parts = design(num, cat, numeric, categorical)
            target, folds = y, grouped
            if variant == "ungrouped":
                folds = list(StratifiedKFold(n_splits=5, shuffle=True, random_state=seed).split(y, y))
            if variant == "complete_cases":  # the sample shrinks, and the folds are dealt again on it
                X, target = X[complete], y[complete]
                folds = list(StratifiedGroupKFold(n_splits=5, shuffle=True, random_state=seed).split(
                    target, target, groups[complete]))
            learners = {name: model for name, model in models(seed).items() if name in ABLATED}
            table2[variant] = {name: {k: v[k] for k in ("accuracy_mean", "macro_f1_mean")}
                               for name, v in evaluate(X, parts, target, folds, learners).items()}
        result["ablation"] = table2
    return result
