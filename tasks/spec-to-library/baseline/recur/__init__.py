# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""recur -- recurrence rules (a subset of iCalendar RRULE) for naive local datetimes."""

from recur.engine import occurrences
from recur.errors import RuleError
from recur.parser import Rule, parse_rule

__all__ = ["Rule", "RuleError", "occurrences", "parse_rule"]
