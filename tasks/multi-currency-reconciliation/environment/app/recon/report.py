# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Writing matches.csv, unmatched.csv and summary.json."""

import csv
import json
from decimal import Decimal


def write_outputs(out_dir, lines, ledger, status, used, rates, currencies):
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / "matches.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["account", "statement_txn_id", "ledger_ids", "match_type"])
        for (account, txn), (ids, kind) in status.items():
            writer.writerow([account, txn, ids, kind])
    unmatched_lines = [l for l in lines if (l["account"], l["txn"]) not in status]
    unmatched_ledger = [e for e in ledger if e["id"] not in used]
    with open(out_dir / "unmatched.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "account", "id", "date", "amount", "currency"])
        for l in unmatched_lines:
            writer.writerow(["statement", l["account"], l["txn"], l["date"].isoformat(), l["amount"], l["currency"]])
        for e in unmatched_ledger:
            writer.writerow(["ledger", e["account"], e["id"], e["date"].isoformat(), e["amount"], e["currency"]])
    accounts = {}
    for account, ccy in currencies.items():
        accounts[account] = {
            "currency": ccy,
            "statement_net": float(sum((l["amount"] for l in lines if l["account"] == account), Decimal(0))),
            "unmatched_net": float(sum((l["amount"] for l in unmatched_lines if l["account"] == account), Decimal(0))),
        }
    summary = {
        "statement_lines": len(lines),
        "duplicates_removed": 0,
        "reversal_pairs": 0,
        "matched_statement_lines": len(status),
        "matched_ledger_entries": len(used),
        "unmatched_statement_lines": len(unmatched_lines),
        "unmatched_ledger_entries": len(unmatched_ledger),
        "accounts": accounts,
        "unmatched_ledger_usd": float(sum((e["amount"] for e in unmatched_ledger), Decimal(0))),
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
