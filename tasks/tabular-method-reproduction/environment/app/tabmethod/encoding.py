# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Target encoding of the categorical fields."""

from __future__ import annotations

import numpy as np

SMOOTHING = 10.0


class TargetEncoder:
    """Smoothed mean of the label per category level."""

    def __init__(self, smoothing: float = SMOOTHING) -> None:
        self.smoothing = smoothing
        self.tables: dict[str, dict[str, float]] = {}

    def fit(self, columns: dict[str, list[str]], y) -> "TargetEncoder":
        y = np.asarray(y, dtype=float)
        for name, values in columns.items():
            sums: dict[str, float] = {}
            counts: dict[str, int] = {}
            for v, label in zip(values, y):
                sums[v] = sums.get(v, 0.0) + label
                counts[v] = counts.get(v, 0) + 1
            self.tables[name] = {v: (sums[v] + self.smoothing * 0.5) / (counts[v] + self.smoothing) for v in sums}
        return self

    def transform(self, columns: dict[str, list[str]]) -> np.ndarray:
        return np.column_stack([[self.tables[name].get(v, 0.5) for v in columns[name]] for name in self.tables])

    def fit_transform(self, columns: dict[str, list[str]], y) -> np.ndarray:
        return self.fit(columns, y).transform(columns)
