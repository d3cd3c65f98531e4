#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the smallest spec-shaped program: reads everything with the shipped package, matches nothing
set -euo pipefail
cd /app
cat > reconcile.py <<'PY'
import json
import sys
from pathlib import Path

sys.path.insert(0, "/app")
from recon.ledger import read_ledger
from recon.statements import read_all

out = Path(sys.argv[4])
out.mkdir(parents=True, exist_ok=True)
lines, currencies = read_all(Path(sys.argv[1]))
ledger = read_ledger(sys.argv[2])
rows = sorted(
    [("statement", l["account"], l["txn"], l["date"].isoformat(), f"{l['amount']:.2f}", l["currency"]) for l in lines]
    + [("ledger", e["account"], e["id"], e["date"].isoformat(), f"{e['amount']:.2f}", e["currency"]) for e in ledger]
)
(out / "matches.csv").write_text("account,statement_txn_id,ledger_ids,match_type\n")
(out / "unmatched.csv").write_text("source,account,id,date,amount,currency\n" + "".join(",".join(r) + "\n" for r in rows))
accounts = {}
for account, ccy in currencies.items():
    net = float(sum(l["amount"] for l in lines if l["account"] == account))
    accounts[account] = {"currency": ccy, "statement_net": round(net, 2), "unmatched_net": round(net, 2)}
summary = {"statement_lines": len(lines), "duplicates_removed": 0, "reversal_pairs": 0, "matched_statement_lines": 0,
           "matched_ledger_entries": 0, "unmatched_statement_lines": len(lines), "unmatched_ledger_entries": len(ledger),
           "accounts": accounts, "unmatched_ledger_usd": 0.0}
(out / "summary.json").write_text(json.dumps(summary))
PY
