# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Grouped bar charts: category i is centred at x = i; inside a group the series' bars sit side by side, in
series order, each ``group_width / n_series`` wide. A bar starts at y = 0 and ends at its value."""

from __future__ import annotations

import numpy as np

from .calibrate import AxisMap


def bar_centres(n_categories: int, n_series: int, group_width: float) -> list[list[float]]:
    width = group_width / n_series
    return [[i - group_width / 2 + (j + 0.5) * width for i in range(n_categories)] for j in range(n_series)]


def bar_value(mask: np.ndarray, axis: AxisMap, col: int, row_lo: int, row_hi: int) -> float:
    rows = np.nonzero(mask[row_lo:row_hi + 1, col])[0] + row_lo
    if len(rows) == 0:
        return 0.0
    return axis.row_to_y(float(rows.min()))


def _runs_in_row(row: np.ndarray) -> list[tuple[int, int]]:
    runs, start = [], None
    for c, on in enumerate(row):
        if on and start is None:
            start = c
        elif not on and start is not None:
            runs.append((start, c - 1))
            start = None
    if start is not None:
        runs.append((start, len(row) - 1))
    return runs


def extract_bars(labels: np.ndarray, axis: AxisMap, n_categories: int, n_series: int,
                 group_width: float) -> list[list[float]]:
    row_lo, row_hi = axis.area.inner_rows()
    scan_row = int(axis.area.bottom) - 3  # just above the baseline every bar crosses
    out = []
    for s in range(n_series):
        mask = labels == s
        runs = _runs_in_row(mask[scan_row])
        width = runs[0][1] - runs[0][0] + 1 if runs else 1
        values = []
        for i in range(n_categories):
            if i < len(runs):
                col = runs[i][0] + width // 2
                values.append(bar_value(mask, axis, col, row_lo, row_hi))
            else:
                values.append(0.0)
        out.append(values)
    return out
