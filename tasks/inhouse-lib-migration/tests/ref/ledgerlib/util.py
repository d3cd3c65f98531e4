# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Small helpers of ledgerlib 1.x."""

import re


def next_id(prefix, existing):
    """The next identifier 'PREFIX-0001' style after the highest one in `existing`."""
    pattern = re.compile(re.escape(prefix) + r"-(\d+)$")
    highest = 0
    for ident in existing:
        m = pattern.match(ident)
        if m:
            highest = max(highest, int(m[1]))
    return f"{prefix}-{highest + 1:04d}"
