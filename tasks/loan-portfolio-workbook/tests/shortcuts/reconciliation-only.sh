#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: a report that holds only the reconciliation (the balance column summed, the totals row copied) and empty loan, segment and bucket sections.
set -euo pipefail
cat > /app/loanreport.py <<'PY'
import json, re, sys
from openpyxl import load_workbook
wb = load_workbook(sys.argv[1], data_only=True)
ws = wb.worksheets[0]
rows = list(ws.iter_rows(values_only=True))
hdr = next(i for i, r in enumerate(rows) if sum(v is not None for v in r) > 4)
col = next(j for j, v in enumerate(rows[hdr]) if v and re.search(r"balance|outstanding", str(v), re.I))
amt = lambda v: float(re.sub(r"[^0-9.\-]", "", str(v))) if v not in (None, "") else 0.0
total, s = None, 0.0
for r in rows[hdr + 1:]:
    if r[0] is None:
        continue
    if str(r[0]).strip().lower().startswith("total"):
        total = amt(r[col])
    else:
        s += amt(r[col])
s = round(s, 2)
print(json.dumps({"report_date": None, "loans": {}, "segments": {}, "buckets": {},
                  "reconciliation": {"tape_total": total, "computed_total": s,
                                     "difference": None if total is None else round(s - total, 2)}}))
PY
