# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Numeric preprocessing (paper 2.2): training-quantile clipping, median fill with indicator, training scaling."""

from __future__ import annotations

import numpy as np


def parse(values: list[str]) -> np.ndarray:
    return np.array([float(v) if v.strip() else np.nan for v in values])


class NumericBlock:
    def __init__(self) -> None:
        self.stats: dict[str, tuple[float, float, float, float, float]] = {}

    def fit(self, columns: dict[str, list[str]]) -> "NumericBlock":
        for name, values in columns.items():
            x = parse(values)
            lo, hi = np.nanpercentile(x, [1, 99])
            clipped = np.clip(x, lo, hi)
            median = float(np.nanmedian(clipped))
            filled = np.where(np.isnan(x), median, clipped)
            std = float(filled.std())
            self.stats[name] = (float(lo), float(hi), median, float(filled.mean()), std if std > 0 else 1.0)
        return self

    def transform(self, columns: dict[str, list[str]]) -> np.ndarray:
        out = []
        for name, (lo, hi, median, mean, std) in self.stats.items():
            x = parse(columns[name])
            missing = np.isnan(x)
            filled = np.where(missing, median, np.clip(x, lo, hi))
            out += [(filled - mean) / std, missing.astype(float)]
        return np.column_stack(out)
