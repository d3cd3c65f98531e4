#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: ignores references and MT940 fields alike: scrapes every statement file for (id, amount) pairs with
# regular expressions and pairs each line greedily with the first same-account ledger entry of the same amount
set -euo pipefail
cd /app
cat > reconcile.py <<'PY'
import csv
import json
import re
import sys
from pathlib import Path

out = Path(sys.argv[4])
out.mkdir(parents=True, exist_ok=True)
NAME = re.compile(r"([A-Za-z0-9]+)_([A-Za-z]{3})\.(csv|sta)", re.IGNORECASE)
PAIR = re.compile(r"(T\d{4,})\D+?(-?[\d.,]+\d)")
lines, currencies = [], {}
for path in sorted(Path(sys.argv[1]).iterdir()):
    m = NAME.fullmatch(path.name)
    if not m:
        continue
    currencies[m[1]] = m[2].upper()
    for t, a in PAIR.findall(path.read_text(errors="replace")):
        try:
            lines.append((m[1], t, round(float(a.replace(",", "")), 2)))
        except ValueError:
            pass
ledger = list(csv.DictReader(open(sys.argv[2])))
used, matches = set(), []
for acct, txn, amount in lines:
    for e in ledger:
        if e["entry_id"] not in used and e["account"] == acct and abs(float(e["amount"]) - amount) < 0.005:
            used.add(e["entry_id"])
            matches.append((acct, txn, e["entry_id"], "exact"))
            break
(out / "matches.csv").write_text("account,statement_txn_id,ledger_ids,match_type\n" + "".join(",".join(r) + "\n" for r in sorted(set(matches))))
rows = sorted(("ledger", e["account"], e["entry_id"], e["date"], e["amount"], e["currency"]) for e in ledger if e["entry_id"] not in used)
(out / "unmatched.csv").write_text("source,account,id,date,amount,currency\n" + "".join(",".join(r) + "\n" for r in rows))
summary = {"statement_lines": len(lines), "duplicates_removed": 0, "reversal_pairs": 0, "matched_statement_lines": len(matches),
           "matched_ledger_entries": len(used), "unmatched_statement_lines": len(lines) - len(matches),
           "unmatched_ledger_entries": len(rows), "accounts": {a: {"currency": c, "statement_net": 0.0, "unmatched_net": 0.0} for a, c in currencies.items()},
           "unmatched_ledger_usd": 0.0}
(out / "summary.json").write_text(json.dumps(summary))
PY
