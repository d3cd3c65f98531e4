# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""occurrences(): walk the periods and apply START, UNTIL, COUNT and EXDATE."""

import datetime as dt

from recur.expand import candidates
from recur.parser import parse_rule
from recur.periods import period_starts
from recur.timefmt import parse_start


def occurrences(rule_text, start_text, limit):
    """The first `limit` occurrences (datetimes) of the rule from START on."""
    rule = parse_rule(rule_text)
    start = parse_start(start_text)
    excluded = {dt.datetime.combine(d, t) for d, t in rule.exdates if t is not None}
    excluded_days = {d for d, t in rule.exdates if t is None}
    out = []
    if limit <= 0:
        return out
    for anchor in period_starts(rule, start):
        for day in candidates(rule, anchor, start):
            when = dt.datetime.combine(day, start.time())
            if when < start:
                continue
            if rule.until is not None and when > rule.until:
                return out
            if when in excluded or day in excluded_days:
                continue
            out.append(when)
            if len(out) >= limit or (rule.count is not None and len(out) >= rule.count):
                return out
    return out
