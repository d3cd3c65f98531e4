# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The candidate dates of one period (before BYSETPOS, START, UNTIL, COUNT and EXDATE apply)."""

import calendar
import datetime as dt

from recur.periods import MAX_DATE


def nth_weekdays(days, byday):
    """Select from `days` (one month or one year, in order) per BYDAY entries (ordinal 0 = every)."""
    out = set()
    for ordinal, weekday in byday:
        matching = [d for d in days if d.weekday() == weekday]
        if ordinal == 0:
            out.update(matching)
        elif 0 < ordinal <= len(matching):
            out.add(matching[ordinal - 1])
        elif ordinal < 0 and -ordinal <= len(matching):
            out.add(matching[len(matching) + ordinal - 1])
    return sorted(out)


def month_days(year, month, rule, start):
    last = calendar.monthrange(year, month)[1]
    if rule.bymonthday is not None:
        out = [dt.date(year, month, md) for md in rule.bymonthday if md <= last]
        if rule.byday:
            wanted = {wd for _, wd in rule.byday}
            out = [d for d in out if d.weekday() in wanted]
        return out
    if rule.byday:
        return nth_weekdays([dt.date(year, month, d) for d in range(1, last + 1)], rule.byday)
    return [dt.date(year, month, min(start.day, last))]


def candidates(rule, anchor, start):
    if rule.freq == "YEARLY":
        if rule.bymonth is None and rule.bymonthday is None and rule.byday is None:
            return month_days(anchor.year, start.month, rule, start)
        out = []
        for month in rule.bymonth or range(1, 13):
            out += month_days(anchor.year, month, rule, start)
        return out
    if rule.freq == "MONTHLY":
        if rule.bymonth and anchor.month not in rule.bymonth:
            return []
        return month_days(anchor.year, anchor.month, rule, start)
    if rule.freq == "WEEKLY":
        wanted = {wd for _, wd in rule.byday} if rule.byday else {start.weekday()}
        days = [anchor + dt.timedelta(i) for i in range(min(7, (MAX_DATE - anchor).days + 1))]
        return [d for d in days if d.weekday() in wanted and (not rule.bymonth or d.month in rule.bymonth)]
    day = anchor
    if rule.bymonth and day.month not in rule.bymonth:
        return []
    if rule.byday and day.weekday() not in {wd for _, wd in rule.byday}:
        return []
    if rule.bymonthday is not None and day.day not in rule.bymonthday:
        return []
    return [day]
