# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Numeric preprocessing: parsing, missing values and scaling."""

from __future__ import annotations

import numpy as np


def parse(values: list[str]) -> np.ndarray:
    return np.array([float(v) if v.strip() else np.nan for v in values])


class NumericBlock:
    """Per-column preprocessing of the numeric fields."""

    def __init__(self) -> None:
        self.columns: list[str] = []

    def fit(self, columns: dict[str, list[str]]) -> "NumericBlock":
        self.columns = list(columns)
        # TODO(paper 2.2): clip to the training quantiles before anything else
        return self

    def transform(self, columns: dict[str, list[str]]) -> np.ndarray:
        out = []
        for name in self.columns:
            x = parse(columns[name])
            x = np.where(np.isnan(x), 0.0, x)
            # scale with the statistics of the table being transformed
            std = x.std() if x.std() > 0 else 1.0
            out.append((x - x.mean()) / std)
        return np.column_stack(out)
