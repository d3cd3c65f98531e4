# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Matching statement lines to ledger entries."""


def match(lines, ledger, rates, currencies):
    """Returns {(account, txn): (ledger_ids, match_type)} and the set of matched ledger ids."""
    status, used = {}, set()
    for line in lines:
        if not line["reference"]:
            continue
        for entry in ledger:
            if entry["id"] in used or entry["account"] != line["account"] or entry["reference"] != line["reference"]:
                continue
            ccy = currencies[line["account"]]
            expected = rates.convert(entry["amount"], entry["currency"], ccy, line["date"])
            if expected == line["amount"]:
                kind = "fx" if entry["currency"] != ccy else "exact"
                status[(line["account"], line["txn"])] = (entry["id"], kind)
                used.add(entry["id"])
                break
    return status, used
