# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The periods a rule walks through: the one containing START, then every INTERVAL-th period."""

import datetime as dt

MAX_DATE = dt.date(9999, 12, 31)


def period_starts(rule, start):
    step = rule.interval
    if rule.freq == "YEARLY":
        year = start.year
        while year <= MAX_DATE.year:
            yield dt.date(year, 1, 1)
            year += step
    elif rule.freq == "MONTHLY":
        index = start.year * 12 + start.month - 1
        while index // 12 <= MAX_DATE.year:
            yield dt.date(index // 12, index % 12 + 1, 1)
            index += step
    elif rule.freq == "WEEKLY":
        day = start.date() - dt.timedelta((start.weekday() - rule.wkst) % 7)
        while True:
            yield day
            if (MAX_DATE - day).days < 7 * step:
                return
            day += dt.timedelta(7 * step)
    else:
        day = start.date()
        while True:
            yield day
            if (MAX_DATE - day).days < step:
                return
            day += dt.timedelta(step)
