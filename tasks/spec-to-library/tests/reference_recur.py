# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reference implementation of the recurrence-rule spec in instruction.md (verifier side only)."""

from __future__ import annotations

import calendar
import datetime as dt
import re

WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
FREQS = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY")
PARTS = ("FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYMONTHDAY", "BYDAY", "BYSETPOS", "WKST", "EXDATE")
MAX_DATE = dt.date(9999, 12, 31)


class RuleError(ValueError):
    pass


def _int(text, low, high, what, allow_zero=False, signed=False):
    if not re.fullmatch(r"[+-]?\d+" if signed else r"\+?\d+", text):
        raise RuleError(f"bad {what}: {text!r}")
    value = int(text)
    if not (low <= abs(value) <= high) or (value == 0 and not allow_zero):
        raise RuleError(f"bad {what}: {text!r}")
    return value


def _stamp(text, what):
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?", text)
    if not m:
        raise RuleError(f"bad {what}: {text!r}")
    try:
        day = dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m[4] is None:
            return day, None
        return day, dt.time(int(m[4]), int(m[5]), int(m[6]))
    except ValueError:
        raise RuleError(f"bad {what}: {text!r}") from None


def parse_start(text):
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?", text.strip())
    if not m:
        raise RuleError(f"bad start: {text!r}")
    try:
        return dt.datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4] or 0), int(m[5] or 0), int(m[6] or 0))
    except ValueError:
        raise RuleError(f"bad start: {text!r}") from None


def parse_rule(text):
    rule = {"INTERVAL": 1, "WKST": 0, "BYMONTH": None, "BYMONTHDAY": None, "BYDAY": None, "BYSETPOS": None,
            "COUNT": None, "UNTIL": None, "EXDATE": []}
    seen = set()
    body = text.strip()
    if not body:
        raise RuleError("empty rule")
    for part in body.split(";"):
        if "=" not in part:
            raise RuleError(f"bad part: {part!r}")
        name, value = part.split("=", 1)
        name, value = name.strip().upper(), value.strip().upper()
        if name not in PARTS:
            raise RuleError(f"unknown part: {name}")
        if name in seen:
            raise RuleError(f"duplicate part: {name}")
        seen.add(name)
        if not value:
            raise RuleError(f"empty value: {name}")
        items = value.split(",")
        if name == "FREQ":
            if value not in FREQS:
                raise RuleError(f"bad FREQ: {value}")
            rule["FREQ"] = value
        elif name == "INTERVAL":
            rule["INTERVAL"] = _int(value, 1, 10**6, "INTERVAL")
        elif name == "COUNT":
            rule["COUNT"] = _int(value, 1, 10**6, "COUNT")
        elif name == "UNTIL":
            day, time = _stamp(value, "UNTIL")
            rule["UNTIL"] = dt.datetime.combine(day, time or dt.time(23, 59, 59))
        elif name == "BYMONTH":
            rule["BYMONTH"] = sorted({_int(v, 1, 12, "BYMONTH") for v in items})
            if any(int(v) < 0 for v in items):
                raise RuleError("bad BYMONTH")
        elif name == "BYMONTHDAY":
            rule["BYMONTHDAY"] = sorted({_int(v, 1, 31, "BYMONTHDAY", signed=True) for v in items})
        elif name == "BYSETPOS":
            rule["BYSETPOS"] = sorted({_int(v, 1, 366, "BYSETPOS", signed=True) for v in items})
        elif name == "WKST":
            if value not in WEEKDAYS:
                raise RuleError(f"bad WKST: {value}")
            rule["WKST"] = WEEKDAYS.index(value)
        elif name == "BYDAY":
            days = set()
            for v in items:
                m = re.fullmatch(r"([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)", v)
                if not m:
                    raise RuleError(f"bad BYDAY: {v!r}")
                n = _int(m[1], 1, 53, "BYDAY", signed=True) if m[1] else 0
                days.add((n, WEEKDAYS.index(m[2])))
            rule["BYDAY"] = sorted(days)
        elif name == "EXDATE":
            rule["EXDATE"] = [_stamp(v, "EXDATE") for v in items]
    if "FREQ" not in rule:
        raise RuleError("FREQ is required")
    if rule["COUNT"] is not None and rule["UNTIL"] is not None:
        raise RuleError("COUNT and UNTIL are exclusive")
    freq = rule["FREQ"]
    if rule["BYDAY"] and any(n for n, _ in rule["BYDAY"]):
        if freq not in ("MONTHLY", "YEARLY") or rule["BYMONTHDAY"] is not None:
            raise RuleError("BYDAY ordinals need FREQ=MONTHLY or YEARLY and no BYMONTHDAY")
    if freq == "WEEKLY" and rule["BYMONTHDAY"] is not None:
        raise RuleError("BYMONTHDAY is not allowed with FREQ=WEEKLY")
    if rule["BYSETPOS"] is not None and not (rule["BYMONTH"] or rule["BYMONTHDAY"] or rule["BYDAY"]):
        raise RuleError("BYSETPOS needs another BY part")
    return rule


def _month_days(year, month, rule, start):
    """Candidate dates of one month, for YEARLY (with months) and MONTHLY."""
    last = calendar.monthrange(year, month)[1]
    if rule["BYMONTHDAY"] is not None:
        out = []
        for md in rule["BYMONTHDAY"]:
            day = md if md > 0 else last + 1 + md
            if 1 <= day <= last:
                out.append(dt.date(year, month, day))
        out = sorted(set(out))
        if rule["BYDAY"]:
            wanted = {wd for _, wd in rule["BYDAY"]}
            out = [d for d in out if d.weekday() in wanted]
        return out
    if rule["BYDAY"]:
        days = [dt.date(year, month, d) for d in range(1, last + 1)]
        return _weekday_select(days, rule["BYDAY"])
    if start.day <= last:
        return [dt.date(year, month, start.day)]
    return []


def _weekday_select(days, byday):
    out = set()
    for n, wd in byday:
        matching = [d for d in days if d.weekday() == wd]
        if n == 0:
            out.update(matching)
        elif n > 0 and n <= len(matching):
            out.add(matching[n - 1])
        elif n < 0 and -n <= len(matching):
            out.add(matching[n])
    return sorted(out)


def _period_days(freq, anchor, rule, start):
    """Candidate dates of the period beginning at anchor (a date)."""
    bymonth = rule["BYMONTH"]
    if freq == "YEARLY":
        year = anchor.year
        if rule["BYMONTH"] is None and rule["BYMONTHDAY"] is None and rule["BYDAY"] is None:
            last = calendar.monthrange(year, start.month)[1]
            return [dt.date(year, start.month, start.day)] if start.day <= last else []
        if rule["BYDAY"] and rule["BYMONTH"] is None and rule["BYMONTHDAY"] is None:
            days = [dt.date(year, 1, 1) + dt.timedelta(i) for i in range(366 if calendar.isleap(year) else 365)]
            return _weekday_select(days, rule["BYDAY"])
        out = []
        for month in bymonth or range(1, 13):
            out += _month_days(year, month, rule, start)
        return out
    if freq == "MONTHLY":
        if bymonth and anchor.month not in bymonth:
            return []
        return _month_days(anchor.year, anchor.month, rule, start)
    if freq == "WEEKLY":
        wanted = {wd for _, wd in rule["BYDAY"]} if rule["BYDAY"] else {start.weekday()}
        out = []
        for i in range(min(7, (MAX_DATE - anchor).days + 1)):
            day = anchor + dt.timedelta(i)
            if day.weekday() in wanted and (not bymonth or day.month in bymonth) and day <= MAX_DATE:
                out.append(day)
        return sorted(out)
    # DAILY
    day = anchor
    if bymonth and day.month not in bymonth:
        return []
    if rule["BYDAY"] and day.weekday() not in {wd for _, wd in rule["BYDAY"]}:
        return []
    if rule["BYMONTHDAY"] is not None:
        last = calendar.monthrange(day.year, day.month)[1]
        if not any((md if md > 0 else last + 1 + md) == day.day for md in rule["BYMONTHDAY"]):
            return []
    return [day]


def _anchors(freq, start, rule):
    """Period starts: the period containing start, then every INTERVAL periods."""
    step = rule["INTERVAL"]
    if freq == "YEARLY":
        year = start.year
        while year <= 9999:
            yield dt.date(year, 1, 1)
            year += step
    elif freq == "MONTHLY":
        index = start.year * 12 + start.month - 1
        while index // 12 <= 9999:
            yield dt.date(index // 12, index % 12 + 1, 1)
            index += step
    elif freq == "WEEKLY":
        day = start.date() - dt.timedelta((start.weekday() - rule["WKST"]) % 7)
        while day <= MAX_DATE:
            yield day
            if MAX_DATE - day < dt.timedelta(7 * step):
                return
            day += dt.timedelta(7 * step)
    else:
        day = start.date()
        while True:
            yield day
            if MAX_DATE - day < dt.timedelta(step):
                return
            day += dt.timedelta(step)


class TooSparse(Exception):
    """Raised (for the case generator only) when a rule needs more than max_periods periods."""


def occurrences(rule_text, start_text, limit, max_periods=None):
    rule = parse_rule(rule_text)
    start = parse_start(start_text)
    out = []
    if limit <= 0:
        return out
    counted = 0
    ex_stamps = {dt.datetime.combine(d, t) for d, t in rule["EXDATE"] if t is not None}
    ex_days = {d for d, t in rule["EXDATE"] if t is None}
    for periods, anchor in enumerate(_anchors(rule["FREQ"], start, rule)):
        if max_periods is not None and periods > max_periods:
            raise TooSparse(rule_text)
        days = _period_days(rule["FREQ"], anchor, rule, start)
        if rule["BYSETPOS"] is not None and days:
            picked = set()
            for pos in rule["BYSETPOS"]:
                if pos > 0 and pos <= len(days):
                    picked.add(days[pos - 1])
                elif pos < 0 and -pos <= len(days):
                    picked.add(days[pos])
            days = sorted(picked)
        for day in days:
            when = dt.datetime.combine(day, start.time())
            if when < start:
                continue
            if rule["UNTIL"] is not None and when > rule["UNTIL"]:
                return out
            counted += 1
            if when not in ex_stamps and day not in ex_days:
                out.append(when)
                if len(out) >= limit:
                    return out
            if rule["COUNT"] is not None and counted >= rule["COUNT"]:
                return out
    return out


def run(args):
    """(exit status, stdout) of `python3 -m recur RULE START N` per the spec."""
    if len(args) != 3:
        return 2, ""
    try:
        if not re.fullmatch(r"\d+", args[2].strip()):
            raise RuleError("bad N")
        found = occurrences(args[0], args[1], int(args[2]))
    except RuleError:
        return 2, ""
    return 0, "".join(d.strftime("%Y-%m-%dT%H:%M:%S") + "\n" for d in found)
