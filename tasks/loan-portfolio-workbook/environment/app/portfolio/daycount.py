# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Day-count conventions."""
from __future__ import annotations

import datetime as dt


def year_fraction(basis: str, start: dt.date, end: dt.date) -> float:
    # TODO: the 30/360 book; everything accrues on actual days for now
    return (end - start).days / 365
