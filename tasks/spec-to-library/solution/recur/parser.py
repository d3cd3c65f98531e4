# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Rule text -> Rule."""

import datetime as dt
import re
from dataclasses import dataclass, field

from recur.errors import RuleError
from recur.timefmt import parse_stamp

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
FREQS = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY")
PARTS = ("FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYMONTHDAY", "BYDAY", "BYSETPOS", "WKST", "EXDATE")


@dataclass
class Rule:
    freq: str
    interval: int = 1
    count: int | None = None
    until: dt.datetime | None = None
    bymonth: list[int] | None = None
    bymonthday: list[int] | None = None
    byday: list[tuple[int, int]] | None = None  # (ordinal or 0, weekday 0=MO..6=SU)
    bysetpos: list[int] | None = None
    wkst: int = 0
    exdates: list[tuple[dt.date, dt.time | None]] = field(default_factory=list)


def _number(text, low, high, what):
    if not re.fullmatch(r"\+?\d+", text):
        raise RuleError(f"bad {what}: {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise RuleError(f"bad {what}: {text!r}")
    return value


def _signed(text, high, what):
    if not re.fullmatch(r"[+-]?\d+", text):
        raise RuleError(f"bad {what}: {text!r}")
    value = int(text)
    if value == 0 or abs(value) > high:
        raise RuleError(f"bad {what}: {text!r}")
    return value


def _byday(item):
    m = re.fullmatch(r"([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)", item)
    if not m:
        raise RuleError(f"bad BYDAY: {item!r}")
    ordinal = _signed(m[1], 53, "BYDAY") if m[1] else 0
    return ordinal, WEEKDAYS.index(m[2])


def parse_rule(text):
    values = {}
    for part in text.strip().split(";"):
        if "=" not in part:
            raise RuleError(f"bad part: {part!r}")
        name, value = part.split("=", 1)
        name, value = name.strip().upper(), value.strip().upper()
        if name not in PARTS:
            raise RuleError(f"unknown part {name}")
        if name in values:
            raise RuleError(f"duplicate part {name}")
        if not value:
            raise RuleError(f"empty {name}")
        values[name] = value
    if values.get("FREQ") not in FREQS:
        raise RuleError("FREQ missing or invalid")
    rule = Rule(values["FREQ"])
    if "INTERVAL" in values:
        rule.interval = _number(values["INTERVAL"], 1, 10**6, "INTERVAL")
    if "COUNT" in values:
        rule.count = _number(values["COUNT"], 1, 10**6, "COUNT")
    if "UNTIL" in values:
        day, time = parse_stamp(values["UNTIL"], "UNTIL")
        rule.until = dt.datetime.combine(day, time or dt.time(23, 59, 59))
    if "BYMONTH" in values:
        rule.bymonth = sorted({_number(v, 1, 12, "BYMONTH") for v in values["BYMONTH"].split(",")})
    if "BYMONTHDAY" in values:
        rule.bymonthday = sorted({_signed(v, 31, "BYMONTHDAY") for v in values["BYMONTHDAY"].split(",")})
    if "BYDAY" in values:
        rule.byday = sorted({_byday(v) for v in values["BYDAY"].split(",")})
    if "BYSETPOS" in values:
        rule.bysetpos = sorted({_signed(v, 366, "BYSETPOS") for v in values["BYSETPOS"].split(",")})
    if "WKST" in values:
        if values["WKST"] not in WEEKDAYS:
            raise RuleError(f"bad WKST: {values['WKST']}")
        rule.wkst = WEEKDAYS.index(values["WKST"])
    if "EXDATE" in values:
        rule.exdates = [parse_stamp(v, "EXDATE") for v in values["EXDATE"].split(",")]
    if rule.count is not None and rule.until is not None:
        raise RuleError("COUNT and UNTIL are exclusive")
    if rule.byday and any(ordinal for ordinal, _ in rule.byday):
        if rule.freq not in ("MONTHLY", "YEARLY") or rule.bymonthday is not None:
            raise RuleError("BYDAY ordinals need FREQ=MONTHLY or YEARLY and no BYMONTHDAY")
    if rule.freq == "WEEKLY" and rule.bymonthday is not None:
        raise RuleError("BYMONTHDAY is not allowed with FREQ=WEEKLY")
    if rule.bysetpos is not None and not (rule.bymonth or rule.bymonthday or rule.byday):
        raise RuleError("BYSETPOS needs another BY part")
    return rule
