# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Day-of-year percentile thresholds from the baseline period."""

from __future__ import annotations

import datetime as dt

import numpy as np

from .cfdates import Day


def day_of_year(day: Day) -> int:
    return dt.date(*day).timetuple().tm_yday


def thresholds(days: list[Day], series: np.ndarray, baseline: tuple[int, int], percentile: float,
               window: int) -> dict[int, float]:
    """Threshold per day of year: the percentile of the baseline values whose day of year is within
    +-window of it (wrapping around the year end)."""
    first, last = baseline
    doy = np.array([day_of_year(d) for d in days])
    in_base = np.array([first <= y <= last for y, _m, _d in days])
    out = {}
    for target in range(1, 367):
        distance = np.abs(doy - target)
        distance = np.minimum(distance, 365 - distance)
        values = series[in_base & (distance <= window)]
        out[target] = float(np.percentile(values, percentile, method="nearest"))
    return out


def threshold_of(table: dict[int, float], day: Day) -> float:
    return table[day_of_year(day)]
