# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Weak baseline: a naive reproduction of Table 1 -- per-fold preprocessing and the pilot values right, but folds
dealt by application (repeat customers straddle training and held-out folds) and no Table 2."""

import json
import sys

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

sys.path.insert(0, "/app")
from study.models import make_models  # noqa: E402

NUMERIC = ["age", "log_income", "debt_ratio", "num_accounts", "utilization", "late_payments"]
CATEGORICAL = ["region", "employment"]
CLASSES = ["low", "medium", "high"]


def load(path):
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame = frame[frame["risk"].str.strip() != ""].reset_index(drop=True)

    def numeric(column):
        return pd.to_numeric(frame[column].str.strip().replace("", np.nan)).astype(float)

    X = pd.DataFrame({"age": numeric("age"), "log_income": np.log1p(numeric("income")),
                      "debt_ratio": numeric("debt_ratio"), "num_accounts": numeric("num_accounts"),
                      "utilization": numeric("utilization"), "late_payments": numeric("late_payments")})
    for column in CATEGORICAL:
        X[column] = frame[column].str.strip().replace("", np.nan).astype(object)
    return X, frame["risk"].str.strip().to_numpy(), frame["customer_id"].str.strip().nunique()


def main(data, seed, out):
    X, y, customers = load(data)
    scores = {}
    for train, test in StratifiedKFold(n_splits=5, shuffle=True, random_state=seed).split(X, y):
        prep = ColumnTransformer([
            ("num", Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())]), NUMERIC),
            ("cat", Pipeline([("impute", SimpleImputer(strategy="most_frequent")),
                              ("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False))]), CATEGORICAL),
        ])
        X_train, X_test = prep.fit_transform(X.iloc[train]), prep.transform(X.iloc[test])
        for name, model in make_models(seed).items():
            pred = model.fit(X_train, y[train]).predict(X_test)
            s = scores.setdefault(name, {"accuracy": [], "macro_f1": []})
            s["accuracy"].append(accuracy_score(y[test], pred))
            s["macro_f1"].append(f1_score(y[test], pred, average="macro", labels=CLASSES))
    methods = {n: {"accuracy_mean": float(np.mean(s["accuracy"])), "accuracy_std": float(np.std(s["accuracy"])),
                   "macro_f1_mean": float(np.mean(s["macro_f1"])), "macro_f1_std": float(np.std(s["macro_f1"]))}
               for n, s in scores.items()}
    result = {"n_rows": int(len(y)), "n_customers": int(customers), "class_counts": {c: int((y == c).sum()) for c in CLASSES},
              "methods": methods, "ranking": sorted(methods, key=lambda m: (-methods[m]["macro_f1_mean"], m))}
    with open(out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
