# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Target encoding (paper 2.3): smoothed towards the prior of the fitting rows, out of fold on training rows."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import GroupKFold

SMOOTHING = 10.0
MISSING = "__missing__"


def _levels(values: list[str]) -> list[str]:
    return [v if v.strip() else MISSING for v in values]


def _encode(fit_values: list[str], fit_y: np.ndarray, values: list[str], smoothing: float) -> np.ndarray:
    prior = float(fit_y.mean())
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for v, label in zip(fit_values, fit_y):
        sums[v] = sums.get(v, 0.0) + label
        counts[v] = counts.get(v, 0) + 1
    return np.array([(sums.get(v, 0.0) + smoothing * prior) / (counts.get(v, 0) + smoothing) for v in values])


class TargetEncoder:
    def __init__(self, smoothing: float = SMOOTHING) -> None:
        self.smoothing = smoothing
        self.columns: dict[str, list[str]] = {}
        self.y = np.zeros(0)

    def fit(self, columns: dict[str, list[str]], y) -> "TargetEncoder":
        self.columns = {name: _levels(values) for name, values in columns.items()}
        self.y = np.asarray(y, dtype=float)
        return self

    def transform(self, columns: dict[str, list[str]]) -> np.ndarray:
        return np.column_stack([_encode(fit_values, self.y, _levels(columns[name]), self.smoothing)
                                for name, fit_values in self.columns.items()])

    def fit_transform_oof(self, columns: dict[str, list[str]], y, groups) -> np.ndarray:
        """Training rows' encodings, each from the other four group folds only."""
        self.fit(columns, y)
        folds = list(GroupKFold(n_splits=5).split(self.y, self.y, np.asarray(groups)))
        out = np.zeros((len(self.y), len(self.columns)))
        for j, values in enumerate(self.columns.values()):
            for fit_idx, out_idx in folds:
                out[out_idx, j] = _encode([values[i] for i in fit_idx], self.y[fit_idx],
                                          [values[i] for i in out_idx], self.smoothing)
        return out
