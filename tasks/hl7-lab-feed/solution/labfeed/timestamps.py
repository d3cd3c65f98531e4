# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""HL7 DTM values (YYYY[MM[DD[HH[MM[SS[.S{1,4}]]]]]][+/-ZZZZ]) to UTC."""
from __future__ import annotations

import datetime as dt
import re

DTM = re.compile(r"(\d{4})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:(\d{2})(?:\.\d{1,4})?)?)?)?)?)?([+-]\d{4})?")


def parse_offset(text: str) -> dt.timedelta | None:
    """The UTC offset a DTM carries, or None."""
    m = DTM.fullmatch(text)
    if not m or not m[7]:
        return None
    sign = -1 if m[7][0] == "-" else 1
    return sign * dt.timedelta(hours=int(m[7][1:3]), minutes=int(m[7][3:5]))


def to_utc(text: str, default_offset: dt.timedelta | None) -> dt.datetime | None:
    """A DTM as a naive UTC datetime; missing parts take their lowest value; None when not a DTM."""
    m = DTM.fullmatch(text)
    if not m:
        return None
    year, month, day, hour, minute, second = (int(g) if g else d for g, d in zip(m.groups()[:6], (0, 1, 1, 0, 0, 0)))
    try:
        local = dt.datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    offset = parse_offset(text)
    if offset is None:
        offset = default_offset or dt.timedelta(0)
    return local - offset


def iso_utc(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_date(text: str) -> dt.date | None:
    """PID-7 birth date: its first eight characters YYYYMMDD."""
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", text[:8])
    if not m:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def completed_years(birth: dt.date, on: dt.date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))
