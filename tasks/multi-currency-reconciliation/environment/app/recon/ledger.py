# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The general-ledger export."""

import csv
import datetime as dt
from decimal import Decimal


def read_ledger(path):
    entries = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["kind"] == "fee":
                continue  # bank fees are booked separately
            entries.append({"id": row["entry_id"], "date": dt.date.fromisoformat(row["date"]), "account": row["account"],
                            "reference": row["reference"], "amount": Decimal(row["amount"]),
                            "currency": row["currency"], "kind": row["kind"]})
    return entries
