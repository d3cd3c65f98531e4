# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Dates in ledgerlib 2: timezone-aware datetimes (midnight in the configured zone)."""

import datetime as _dt
import re

from ledgerlib.errors import DateFormatError

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _aware(value):
    if not isinstance(value, _dt.datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise TypeError(f"ledgerlib 2 needs timezone-aware datetimes, got {value!r}")
    return value


def parse_date(text, config):
    """'2024-03-05' -> datetime(2024, 3, 5, 0, 0, tzinfo=config.tzinfo).  ISO 8601 calendar dates only."""
    m = _ISO.fullmatch(str(text).strip())
    try:
        if m:
            return _dt.datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=config.tzinfo)
    except ValueError:
        pass
    raise DateFormatError(f"not an ISO 8601 date: {text!r}")


def fmt_date(value, style="iso"):
    """style 'iso' -> '2024-03-05T00:00:00+00:00'; style 'date' -> '2024-03-05'."""
    _aware(value)
    if style == "iso":
        return value.isoformat()
    if style == "date":
        return value.strftime("%Y-%m-%d")
    raise ValueError(f"unknown date style {style!r}")


def add_days(value, days):
    return _aware(value) + _dt.timedelta(days=int(days))


def days_between(start, end):
    """Whole days from start to end (negative when end is earlier)."""
    return (_aware(end) - _aware(start)).days
