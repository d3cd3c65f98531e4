# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cross-validated evaluation."""

import numpy as np
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import KFold

from study.models import make_models


def cross_validate(X, y, seed, folds=5):
    splitter = KFold(n_splits=folds)
    predictions = {name: np.empty(len(y), dtype=object) for name in make_models(seed)}
    for train, test in splitter.split(X):
        for name, model in make_models(seed).items():
            model.fit(X[train], y[train])
            predictions[name][test] = model.predict(X[test])
    table = {}
    for name, pred in predictions.items():
        table[name] = {
            "accuracy_mean": float(accuracy_score(y, pred)),
            "macro_f1_mean": float(f1_score(y, pred, average="weighted")),
        }
    return table
