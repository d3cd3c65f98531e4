# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Decoding CF time coordinates into calendar days.

A day is a ``(year, month, day)`` tuple; the rest of the package never sees the raw time numbers.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

Day = tuple[int, int, int]


class TimeDecodeError(ValueError):
    """A time coordinate whose units this tool does not understand."""


def _reference(units: str) -> dt.datetime:
    try:
        text = units.split(" since ", 1)[1].strip()
    except IndexError as exc:
        raise TimeDecodeError(f"time units {units!r} are not of the form 'UNIT since REFERENCE'") from exc
    return dt.datetime.strptime(text[:10], "%Y-%m-%d")


def decode_days(values: np.ndarray, units: str, calendar: str | None) -> list[Day]:
    """Calendar days of the time stamps ``values``.

    Our archive stores time as "days since <reference>", so each value is a (possibly fractional) number of
    days after the reference date.
    """
    ref = _reference(units)
    out = []
    for value in np.asarray(values, dtype=np.float64):
        stamp = ref + dt.timedelta(days=float(value))
        out.append((stamp.year, stamp.month, stamp.day))
    return out


def format_day(day: Day) -> str:
    return dt.date(*day).isoformat()
