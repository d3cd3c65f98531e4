# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Parsing and formatting of the date/time forms used by rules and the CLI."""

import datetime as dt
import re

from recur.errors import RuleError

_START = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?")
_STAMP = re.compile(r"(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?")


def parse_start(text):
    m = _START.fullmatch(text.strip())
    if not m:
        raise RuleError(f"bad start: {text!r}")
    try:
        return dt.datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4] or 0), int(m[5] or 0), int(m[6] or 0))
    except ValueError:
        raise RuleError(f"bad start: {text!r}") from None


def parse_stamp(text, what):
    """'20240105' -> (date, None); '20240105T093000' -> (date, time)."""
    m = _STAMP.fullmatch(text)
    if not m:
        raise RuleError(f"bad {what}: {text!r}")
    try:
        day = dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m[4] is None:
            return day, None
        return day, dt.time(int(m[4]), int(m[5]), int(m[6]))
    except ValueError:
        raise RuleError(f"bad {what}: {text!r}") from None


def format_occurrence(value):
    return value.strftime("%Y-%m-%d %H:%M:%S")
