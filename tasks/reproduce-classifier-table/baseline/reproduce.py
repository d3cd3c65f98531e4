# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Weak baseline: the group's pipeline with the CV and metric fixed, but its preprocessing, row filtering and
model settings left as they were."""

import json
import sys

import numpy as np
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedKFold

sys.path.insert(0, "/app")
from study.data import load_table, split_xy  # noqa: E402
from study.features import prepare  # noqa: E402
from study.models import make_models  # noqa: E402


def main(data, seed, out):
    frame = load_table(data)
    X, y = split_xy(frame)
    features = prepare(X)
    scores = {}
    for train, test in StratifiedKFold(n_splits=5, shuffle=True, random_state=seed).split(features, y):
        for name, model in make_models(seed).items():
            model.fit(features[train], y[train])
            pred = model.predict(features[test])
            s = scores.setdefault(name, {"accuracy": [], "macro_f1": []})
            s["accuracy"].append(accuracy_score(y[test], pred))
            s["macro_f1"].append(f1_score(y[test], pred, average="macro"))
    methods = {n: {"accuracy_mean": float(np.mean(s["accuracy"])), "accuracy_std": float(np.std(s["accuracy"])),
                   "macro_f1_mean": float(np.mean(s["macro_f1"])), "macro_f1_std": float(np.std(s["macro_f1"]))}
               for n, s in scores.items()}
    result = {"n_rows": int(len(y)), "class_counts": {c: int((y == c).sum()) for c in ("low", "medium", "high")},
              "methods": methods, "ranking": sorted(methods, key=lambda m: -methods[m]["macro_f1_mean"])}
    with open(out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
