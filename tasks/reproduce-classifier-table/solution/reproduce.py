# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reproduce Tables 1 and 2 of paper.md on any loan table:  python3 reproduce.py DATA.csv SEED OUT.json"""

import json
import sys

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

sys.path.insert(0, "/app")
from study.models import make_models  # noqa: E402

NUMERIC = ["age", "log_income", "debt_ratio", "num_accounts", "utilization", "late_payments"]
CATEGORICAL = ["region", "employment"]
CLASSES = ["low", "medium", "high"]
RAW = ["age", "income", "debt_ratio", "num_accounts", "utilization", "late_payments"]
VARIANTS = {  # Table 2: numeric columns, categorical fields (or none)
    "ungrouped": (NUMERIC, CATEGORICAL),
    "raw_income": (["age", "income", "debt_ratio", "num_accounts", "utilization", "late_payments"], CATEGORICAL),
    "no_history": (["age", "log_income", "debt_ratio", "utilization"], CATEGORICAL),
    "no_categories": (NUMERIC, []),
    "complete_cases": (NUMERIC, CATEGORICAL),
}


def load(path):
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame = frame[frame["risk"].str.strip() != ""].reset_index(drop=True)

    def numeric(column):
        return pd.to_numeric(frame[column].str.strip().replace("", np.nan), errors="raise").astype(float)

    complete = (frame[RAW + CATEGORICAL].apply(lambda col: col.str.strip()) != "").all(axis=1).to_numpy()
    X = pd.DataFrame({c: numeric(c) for c in ["age", "income", "debt_ratio", "num_accounts", "utilization",
                                              "late_payments"]})
    X["log_income"] = np.log1p(X["income"])
    for column in CATEGORICAL:
        X[column] = frame[column].str.strip().replace("", np.nan).astype(object)
    return X, frame["risk"].str.strip().to_numpy(), frame["customer_id"].str.strip().to_numpy(), complete


def preprocessor(numeric, categorical):
    parts = [("num", Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())]), numeric)]
    if categorical:
        parts.append(("cat", Pipeline([("impute", SimpleImputer(strategy="most_frequent")),
                                       ("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False))]),
                      categorical))
    return ColumnTransformer(parts)


def evaluate(X, y, folds, seed, names, numeric=NUMERIC, categorical=CATEGORICAL):
    scores = {}
    for train, test in folds:
        prep = preprocessor(numeric, categorical)
        X_train, X_test = prep.fit_transform(X.iloc[train]), prep.transform(X.iloc[test])
        for name, model in make_models(seed).items():
            if name not in names:
                continue
            pred = model.fit(X_train, y[train]).predict(X_test)
            s = scores.setdefault(name, {"accuracy": [], "macro_f1": []})
            s["accuracy"].append(accuracy_score(y[test], pred))
            s["macro_f1"].append(f1_score(y[test], pred, average="macro", labels=CLASSES))
    return {name: {"accuracy_mean": float(np.mean(s["accuracy"])), "accuracy_std": float(np.std(s["accuracy"])),
                   "macro_f1_mean": float(np.mean(s["macro_f1"])), "macro_f1_std": float(np.std(s["macro_f1"]))}
            for name, s in scores.items()}


def main(data, seed, out):
    X, y, customers, complete = load(data)
    grouped = list(StratifiedGroupKFold(n_splits=5, shuffle=True, random_state=seed).split(X, y, customers))
    methods = evaluate(X, y, grouped, seed, ("logreg", "tree", "forest", "knn"))
    ablation = {}
    for variant, (numeric, categorical) in VARIANTS.items():
        sample, target, folds = X, y, grouped
        if variant == "ungrouped":
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=seed).split(X, y)
        if variant == "complete_cases":  # only fully filled-in applications; folds dealt again on them
            sample, target = X[complete].reset_index(drop=True), y[complete]
            folds = StratifiedGroupKFold(n_splits=5, shuffle=True, random_state=seed).split(
                sample, target, customers[complete])
        table = evaluate(sample, target, folds, seed, ("logreg", "knn"), numeric, categorical)
        ablation[variant] = {name: {k: v[k] for k in ("accuracy_mean", "macro_f1_mean")} for name, v in table.items()}
    result = {
        "n_rows": int(len(y)),
        "n_customers": int(len(set(customers))),
        "class_counts": {c: int((y == c).sum()) for c in CLASSES},
        "methods": methods,
        "ranking": sorted(methods, key=lambda m: (-methods[m]["macro_f1_mean"], m)),
        "ablation": ablation,
    }
    with open(out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
