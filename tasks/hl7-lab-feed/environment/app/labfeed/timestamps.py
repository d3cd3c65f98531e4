# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""HL7 timestamps."""
from __future__ import annotations

import datetime as dt
import re

PADDING = "00000101000000"  # YYYYMMDDHHMMSS: month and day 01, time 00:00:00


def to_utc(text: str) -> dt.datetime | None:
    """A DTM as a datetime (our laboratories send UTC)."""
    digits = re.match(r"\d*", text).group(0)[:14]
    if len(digits) < 4:
        return None
    return dt.datetime.strptime(digits + PADDING[len(digits):], "%Y%m%d%H%M%S")


def iso_utc(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_date(text: str) -> dt.date | None:
    try:
        return dt.datetime.strptime(text, "%Y%m%d").date()
    except ValueError:
        return None


def age_in_years(birth: dt.date, on: dt.date) -> int:
    return (on - birth).days // 365
