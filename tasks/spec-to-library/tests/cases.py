# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded conformance cases (RULE, START, N) per feature family."""

from __future__ import annotations

import datetime as dt

from lhtb.grading import stress
from reference_recur import RuleError, TooSparse, occurrences

WD = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
FAMILY_SIZES = {
    "basic": 120, "until": 100, "byday": 160, "bymonthday": 140, "bysetpos": 140,
    "weekly_wkst": 120, "exdate": 120, "yearly": 140, "invalid": 144,
}


def _int(rng, low, high):
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def _chance(rng, p):
    return rng.random() < p


def _sample(rng, pool, k):
    pool = list(pool)
    out = []
    for _ in range(min(k, len(pool))):
        out.append(pool.pop(min(int(rng.random() * len(pool)), len(pool) - 1)))
    return out


def _start(rng, month_end=False):
    year, month = _int(rng, 2019, 2030), _int(rng, 1, 12)
    day = _int(rng, 1, 28)
    if month_end:
        day = stress.pick(rng, [29, 30, 31, 31])
        if month == 2:
            year, day = stress.pick(rng, [2024, 2028, 2020]), 29
        elif day == 31 and month in (4, 6, 9, 11):
            day = 30
    when = dt.datetime(year, month, day, _int(rng, 0, 23), stress.pick(rng, [0, 0, 15, 30, 45]), stress.pick(rng, [0, 0, 0, 30]))
    if _chance(rng, 0.15):
        return when.strftime("%Y-%m-%d"), when.replace(hour=0, minute=0, second=0)
    return when.strftime("%Y-%m-%dT%H:%M:%S"), when


def _stamp(when, with_time=True):
    return when.strftime("%Y%m%dT%H%M%S") if with_time else when.strftime("%Y%m%d")


def _byday(rng, ordinals, k=None):
    items = set()
    for _ in range(k or _int(rng, 1, 3)):
        o = stress.pick(rng, [1, 2, 3, 4, -1, -2, 5, -5, 0]) if ordinals else 0
        items.add(((f"+{o}" if o > 0 and _chance(rng, 0.2) else str(o)) if o else "") + stress.pick(rng, WD))
    return "BYDAY=" + ",".join(sorted(items))


def _monthdays(rng, k=None):
    pool = [1, 2, 10, 15, 28, 29, 30, 31, -1, -2, -3, -7, -15, -31, -29]
    return "BYMONTHDAY=" + ",".join(str(v) for v in _sample(rng, pool, k or _int(rng, 1, 3)))


def _months(rng):
    return "BYMONTH=" + ",".join(str(v) for v in sorted(_sample(rng, range(1, 13), _int(rng, 1, 4))))


def _end(rng, start, parts, p_count=0.5, p_until=0.2):
    roll = rng.random()
    if roll < p_count:
        parts.append(f"COUNT={_int(rng, 1, 25)}")
    elif roll < p_count + p_until:
        until = start + dt.timedelta(days=_int(rng, 0, 700), hours=_int(rng, 0, 23))
        parts.append(f"UNTIL={_stamp(until, _chance(rng, 0.5))}")


def make_case(family: str, rng, index: int = 0, order: list[int] | None = None) -> tuple[str, str, str]:
    n = str(_int(rng, 1, 30))
    start_text, start = _start(rng, month_end=family in ("bymonthday", "yearly") and _chance(rng, 0.4))
    parts: list[str] = []
    if family == "basic":
        parts = [f"FREQ={stress.pick(rng, ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'])}"]
        if _chance(rng, 0.6):
            parts.append(f"INTERVAL={_int(rng, 1, 5)}")
        if _chance(rng, 0.3):
            start_text, start = _start(rng, month_end=True)
        _end(rng, start, parts, 0.5, 0.0)
        if _chance(rng, 0.1):
            n = "0"
    elif family == "until":
        parts = [f"FREQ={stress.pick(rng, ['DAILY', 'WEEKLY', 'MONTHLY'])}", f"INTERVAL={_int(rng, 1, 3)}"]
        if _chance(rng, 0.4):
            parts.append(_byday(rng, False))
        until = start + dt.timedelta(days=_int(rng, 0, 120))
        parts.append(f"UNTIL={_stamp(until, _chance(rng, 0.4))}")
        n = "40"
    elif family == "byday":
        freq = stress.pick(rng, ["MONTHLY", "MONTHLY", "YEARLY", "WEEKLY", "DAILY"])
        parts = [f"FREQ={freq}"]
        if freq == "YEARLY":
            parts.append(_months(rng))
        parts.append(_byday(rng, freq in ("MONTHLY", "YEARLY") and _chance(rng, 0.8)))
        if _chance(rng, 0.4):
            parts.append(f"INTERVAL={_int(rng, 1, 3)}")
        _end(rng, start, parts)
    elif family == "bymonthday":
        freq = stress.pick(rng, ["MONTHLY", "MONTHLY", "YEARLY", "DAILY"])
        parts = [f"FREQ={freq}", _monthdays(rng)]
        if _chance(rng, 0.35):
            parts.append(_months(rng))
        if _chance(rng, 0.25):
            parts.append(_byday(rng, False))
        if freq == "MONTHLY" and _chance(rng, 0.3):
            parts = [f"FREQ={freq}"]  # plain monthly from a month-end start
            start_text, start = _start(rng, month_end=True)
        _end(rng, start, parts)
    elif family == "bysetpos":
        freq = stress.pick(rng, ["MONTHLY", "MONTHLY", "WEEKLY", "YEARLY"])
        parts = [f"FREQ={freq}"]
        if freq == "YEARLY":
            parts.append(_months(rng))
        if freq != "WEEKLY" and _chance(rng, 0.3):
            parts.append(_monthdays(rng))
        else:
            parts.append(_byday(rng, False, _int(rng, 2, 5)))
        parts.append("BYSETPOS=" + ",".join(str(v) for v in _sample(rng, [1, 2, 3, -1, -2, -3], _int(rng, 1, 2))))
        if freq == "WEEKLY" and _chance(rng, 0.5):
            parts.append(f"WKST={stress.pick(rng, WD)}")
        _end(rng, start, parts)
    elif family == "weekly_wkst":
        parts = ["FREQ=WEEKLY", f"INTERVAL={_int(rng, 2, 4)}", _byday(rng, False, _int(rng, 2, 4))]
        parts.append(f"WKST={stress.pick(rng, WD)}")
        _end(rng, start, parts)
    elif family == "exdate":
        freq = stress.pick(rng, ["DAILY", "WEEKLY", "MONTHLY"])
        parts = [f"FREQ={freq}"]
        if freq == "WEEKLY" and _chance(rng, 0.5):
            parts.append(_byday(rng, False))
        step = {"DAILY": 1, "WEEKLY": 7, "MONTHLY": 30}[freq]
        ex = []
        for _ in range(_int(rng, 1, 4)):
            when = start + dt.timedelta(days=step * _int(rng, 0, 8))
            if _chance(rng, 0.5):
                ex.append(_stamp(when, False))
            elif _chance(rng, 0.8):
                ex.append(_stamp(when, True))
            else:
                ex.append(_stamp(when + dt.timedelta(hours=1), True))  # a miss
        parts.append("EXDATE=" + ",".join(ex))
        _end(rng, start, parts, 0.7, 0.1)
    elif family == "yearly":
        parts = ["FREQ=YEARLY"]
        kind = _int(rng, 0, 4)
        if kind == 0:
            parts.append(_byday(rng, True, 1))  # ordinals within the year
        elif kind == 1:
            parts += [_months(rng), _byday(rng, True)]
        elif kind == 2:
            parts += ["BYMONTH=2", "BYMONTHDAY=" + stress.pick(rng, ["29", "-1", "28,29", "30"])]
        elif kind == 3:
            start_text, start = _start(rng, month_end=True)
        else:
            parts.append(_monthdays(rng, 1))
        if _chance(rng, 0.4):
            parts.append(f"INTERVAL={_int(rng, 1, 4)}")
        _end(rng, start, parts, 0.3, 0.0)
        n = str(_int(rng, 1, 12))
    else:  # invalid
        kinds = order or list(range(INVALID_KINDS))
        return _invalid(rng, start_text, n, kinds[index % len(kinds)])
    if _chance(rng, 0.15):
        parts = [p.lower() if _chance(rng, 0.5) else p for p in parts]
    rest = parts[1:]
    order = _sample(rng, rest, len(rest)) if _chance(rng, 0.3) else rest
    return ";".join([parts[0], *order]), start_text, n


INVALID_RULES = [
    "FREQ=DAILY;COUNT=3;UNTIL=20301231",
    "FREQ=WEEKLY;BYDAY=1MO",
    "FREQ=DAILY;BYDAY=-1FR",
    "FREQ=MONTHLY;BYMONTHDAY=15;BYDAY=2TU",
    "FREQ=WEEKLY;BYMONTHDAY=3",
    "FREQ=MONTHLY;BYSETPOS=1",
    "FREQ=MONTHLY;BYMONTHDAY=0",
    "FREQ=YEARLY;BYMONTH=13",
    "FREQ=DAILY;FOO=1",
    "FREQ=DAILY;INTERVAL=2;INTERVAL=3",
    "INTERVAL=2;COUNT=4",
    "FREQ=DAILY;INTERVAL=0",
    "FREQ=HOURLY",
    "FREQ=MONTHLY;BYDAY=54MO",
    "FREQ=DAILY;EXDATE=20240230",
    "FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO",
]
BAD_STARTS = ["2024-02-30", "2024-13-01", "2024/01/05", "tomorrow", "2024-01-05 10:00"]
BAD_COUNTS = ["-1", "x", "2.5", ""]
INVALID_KINDS = len(INVALID_RULES) + 2  # every bad rule, a bad start, a bad N


def _invalid(rng, start_text, n, kind):
    """Invalid input of kind ``kind``: the family cycles through every kind (a seeded order), so each trial tests
    every kind of error about equally often and a program's score does not depend on which kinds were drawn."""
    if kind == len(INVALID_RULES):
        return "FREQ=DAILY;COUNT=3", stress.pick(rng, BAD_STARTS), n
    if kind == len(INVALID_RULES) + 1:
        return "FREQ=DAILY;COUNT=3", start_text, stress.pick(rng, BAD_COUNTS)
    return INVALID_RULES[kind], start_text, n


def _reasonable(case) -> bool:
    """Valid cases must not need to walk more than 20000 periods (rules that never or hardly ever match)."""
    try:
        occurrences(case[0], case[1], int(case[2]), max_periods=20000)
    except TooSparse:
        return False
    except (RuleError, ValueError):
        return True
    return True


def family_cases(seed: int, family: str, n: int | None = None) -> list[tuple[str, str, str]]:
    order = _sample(stress.rng(seed, "recur", family, "order"), range(INVALID_KINDS), INVALID_KINDS)
    out = []
    for i in range(FAMILY_SIZES[family] if n is None else n):
        rng = stress.rng(seed, "recur", family, i)
        case = make_case(family, rng, i, order)
        while family != "invalid" and not _reasonable(case):
            case = make_case(family, rng, i, order)
        out.append(case)
    return out
