# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cell value parsing: dates, amounts, rates, day-count names."""
from __future__ import annotations

import datetime as dt
import re

EXCEL_EPOCH = dt.date(1899, 12, 31)  # serial 1 = 1900-01-01
MONTHS = {m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}


class ParseError(ValueError):
    pass


def parse_date(value) -> dt.date:
    """A date from a datetime cell, an Excel serial number or text (D/M/Y, ISO, 15-Mar-2023, 15.03.2023)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return EXCEL_EPOCH + dt.timedelta(days=int(value))
    if not isinstance(value, str):
        raise ParseError(f"not a date: {value!r}")
    text = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return EXCEL_EPOCH + dt.timedelta(days=int(float(text)))
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if m:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if m:
        month, day = int(m[1]), int(m[2])
        if month > 12:  # some desks send D/M/Y
            month, day = day, month
        return dt.date(int(m[3]), month, day)
    raise ParseError(f"not a date: {value!r}")


def parse_amount(value) -> float | None:
    """A money amount from a number or text such as "$1,234.50", "USD 1,234.50", "1,234.50"; None if empty."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    if not text:
        return None
    return float(text.lstrip("$"))


def parse_rate(value) -> float:
    """An annual rate in percent points: 5.25 and "5.25%" both mean 5.25 %."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return float(str(value).strip().rstrip("%").strip())


def parse_basis(value) -> str:
    text = str(value or "").strip().upper().replace(" ", "")
    if text in ("30/360", "30/360US", "BOND"):
        return "30/360"
    return "ACT/360"


def parse_int(value) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    return int(float(str(value).strip()))
