# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Line charts with a marker at every data point: the value at x is the centre of that point's marker."""

from __future__ import annotations

import numpy as np

from .calibrate import AxisMap


def _runs(rows: np.ndarray) -> list[tuple[int, int]]:
    if len(rows) == 0:
        return []
    breaks = np.nonzero(np.diff(rows) > 1)[0]
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(rows) - 1]))
    return [(int(rows[s]), int(rows[e])) for s, e in zip(starts, ends)]


def point_row(mask: np.ndarray, col: int, row_lo: int, row_hi: int, expect: float | None) -> float | None:
    """Row of the data point in column ``col``, or None."""
    rows = np.nonzero(mask[:, col])[0]
    if len(rows) == 0:
        return None
    return float(rows.min())


def extract_lines(labels: np.ndarray, axis: AxisMap, xs: list[float], n_series: int) -> list[list[float]]:
    row_lo, row_hi = axis.area.inner_rows()
    out = []
    for s in range(n_series):
        mask = labels == s
        values: list[float | None] = []
        for x in xs:
            col = int(np.floor(axis.x_to_col(x)))
            row = point_row(mask, col, row_lo, row_hi, None)
            values.append(None if row is None else axis.row_to_y(row))
        out.append(_fill_gaps(values, xs))
    return out


def _fill_gaps(values: list[float | None], xs: list[float]) -> list[float]:
    known = [(x, v) for x, v in zip(xs, values) if v is not None]
    if not known:
        return [0.0 for _ in values]
    kx = [k[0] for k in known]
    kv = [k[1] for k in known]
    return [v if v is not None else float(np.interp(x, kx, kv)) for x, v in zip(xs, values)]
