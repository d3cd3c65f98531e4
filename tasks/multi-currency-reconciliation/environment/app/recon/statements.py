# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading bank statement exports."""

import csv
import datetime as dt
import re
import sys
from decimal import Decimal

REF = re.compile(r"\b(INV|PAY)-\d{4,6}\b")
NAME = re.compile(r"([A-Za-z0-9]+)_([A-Za-z]{3})")


def _money(text):
    text = (text or "").strip()
    return Decimal(text.replace(",", "")) if text else Decimal(0)


def read_statement(path, account, currency):
    if path.suffix.lower() != ".csv":
        print(f"warning: {path.name}: unsupported format, skipped", file=sys.stderr)
        return []
    text = path.read_text(encoding="utf-8")
    lines = []
    if text.startswith("date;"):
        for row in csv.reader(text.splitlines()[1:], delimiter=";"):
            lines.append({"txn": row[1], "date": dt.date.fromisoformat(row[0]), "text": row[2], "amount": _money(row[3])})
    else:
        for row in csv.DictReader(text.splitlines()):
            day = dt.datetime.strptime(row["Booking Date"], "%d/%m/%Y").date()
            lines.append({"txn": row["Txn ID"], "date": day, "text": row["Details"],
                          "amount": _money(row["Credit"]) - _money(row["Debit"])})
    for line in lines:
        line["account"], line["currency"] = account, currency
        m = REF.search(line["text"])
        line["reference"] = m.group(0) if m else ""
    return lines


def read_all(statements_dir):
    lines, currencies = [], {}
    for path in sorted(statements_dir.iterdir()):
        m = NAME.fullmatch(path.stem)
        if not m:
            continue
        currencies[m[1]] = m[2].upper()
        lines += read_statement(path, m[1], m[2].upper())
    return lines, currencies
