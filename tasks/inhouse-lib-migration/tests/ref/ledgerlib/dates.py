# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Date helpers of ledgerlib 1.x: plain datetime.date values."""

import datetime as _dt
import re

from ledgerlib.errors import ValidationError

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def parse_date(text):
    """'2024-03-05' or '05/03/2024' (day first) -> datetime.date.  Raises ValidationError."""
    raw = str(text).strip()
    try:
        if m := _ISO.fullmatch(raw):
            return _dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m := _DMY.fullmatch(raw):
            return _dt.date(int(m[3]), int(m[2]), int(m[1]))
    except ValueError:
        pass
    raise ValidationError(f"invalid date: {text!r}")


def fmt_date(value):
    return value.isoformat()


def add_days(value, days):
    return value + _dt.timedelta(days=int(days))


def days_between(start, end):
    """Whole days from start to end (negative when end is earlier)."""
    return (end - start).days
