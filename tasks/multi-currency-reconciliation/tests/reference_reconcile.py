# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reference reconciliation per instruction.md:  python3 reference_reconcile.py STATEMENTS_DIR LEDGER RATES OUT_DIR"""

from __future__ import annotations

import bisect
import csv
import datetime as dt
import json
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

CENT = Decimal("0.01")
REF = re.compile(r"\b(INV|PAY|REF)-\d{4,6}\b", re.IGNORECASE)
NAME = re.compile(r"([A-Za-z0-9]+)_([A-Za-z]{3})")
TAG = re.compile(r":([0-9]{2}[A-Z]?):(.*)")
FIELD61 = re.compile(r"(\d{2})(\d{2})(\d{2})(?:\d{4})?(RC|RD|C|D)(\d+,\d*)N[A-Za-z0-9]{3}(.*)")
SUFFIXES = (".csv", ".xlsx", ".sta")


def q(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _dec_plain(text: str) -> Decimal:
    return Decimal(text.strip().replace(",", "")) if text.strip() else Decimal(0)


def _dec_comma(text: str) -> Decimal:
    return Decimal(text.strip().replace(".", "").replace(",", "."))


def read_mt940(text: str) -> list[dict]:
    lines, field = [], None  # field: the tag whose value a continuation line extends
    for raw in text.splitlines():
        if not raw.strip():
            continue
        m = TAG.match(raw.strip())
        if m:
            tag, value = m[1], m[2].strip()
            field = tag
            if tag == "61":
                f = FIELD61.fullmatch(value)
                yy, mm, dd, mark, amount, rest = f.groups()
                value_amount = Decimal(amount.replace(",", ".") + ("0" if amount.endswith(",") else ""))
                sign = 1 if mark in ("C", "RD") else -1
                lines.append({"txn": rest.split("//")[0].strip(), "date": dt.date(2000 + int(yy), int(mm), int(dd)),
                              "text": "", "amount": sign * value_amount})
            elif tag == "86" and lines:
                lines[-1]["text"] = value
            continue
        if raw.strip() == "-":
            field = None
        elif field == "86" and lines:
            lines[-1]["text"] = (lines[-1]["text"] + " " + raw.strip()).strip()
    return lines


def read_statement(path: Path, account: str, currency: str) -> list[dict]:
    lines = []
    if path.suffix.lower() == ".sta":
        lines = read_mt940(path.read_text(encoding="utf-8-sig"))
    elif path.suffix.lower() == ".xlsx":
        from openpyxl import load_workbook

        sheet = load_workbook(path, read_only=True, data_only=True).worksheets[0]
        header_seen = False
        for row in sheet.iter_rows(values_only=True):
            cells = list(row) + [None] * 4
            if not header_seen:
                header_seen = isinstance(cells[0], str) and cells[0].strip() == "Date"
                continue
            if all(c is None or (isinstance(c, str) and not c.strip()) for c in cells[:4]):
                continue
            when = cells[0]
            if isinstance(when, dt.datetime):
                day = when.date()
            elif isinstance(when, dt.date):
                day = when
            elif isinstance(when, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", when.strip()):
                day = dt.date.fromisoformat(when.strip())
            else:
                continue
            lines.append({"txn": str(cells[1]).strip(), "date": day, "text": str(cells[2] or "").strip(),
                          "amount": q(Decimal(repr(float(cells[3]))))})
    else:
        text = path.read_text(encoding="utf-8-sig")
        first = text.splitlines()[0] if text.strip() else ""
        if first.startswith("date;"):
            for row in csv.reader(text.splitlines()[1:], delimiter=";"):
                if not any(c.strip() for c in row):
                    continue
                lines.append({"txn": row[1].strip(), "date": dt.date.fromisoformat(row[0].strip()),
                              "text": row[2].strip(), "amount": _dec_comma(row[3])})
        else:
            for row in csv.DictReader(text.splitlines()):
                if not any((v or "").strip() for v in row.values()):
                    continue
                d, m, y = row["Value Date"].strip().split("/")
                lines.append({"txn": row["Txn ID"].strip(), "date": dt.date(int(y), int(m), int(d)),
                              "text": row["Details"].strip(),
                              "amount": _dec_plain(row["Credit"] or "") - _dec_plain(row["Debit"] or "")})
    for line in lines:
        line["account"], line["currency"] = account, currency
        refs = []
        for m in REF.finditer(line["text"]):
            if m.group(0).upper() not in refs:
                refs.append(m.group(0).upper())
        line["references"] = refs
    return lines


class Rates:
    def __init__(self, path: Path):
        self.series: dict[str, tuple[list[dt.date], list[Decimal]]] = {}
        rows = []
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                rows.append((row["currency"].strip().upper(), dt.date.fromisoformat(row["date"].strip()),
                             Decimal(row["usd_per_unit"].strip())))
        for ccy, day, value in sorted(rows):
            days, values = self.series.setdefault(ccy, ([], []))
            days.append(day)
            values.append(value)

    def rate(self, ccy: str, day: dt.date) -> Decimal:
        if ccy == "USD":
            return Decimal(1)
        days, values = self.series[ccy]
        index = bisect.bisect_right(days, day) - 1
        if index < 0:
            raise KeyError(f"no {ccy} rate on or before {day}")
        return values[index]

    def convert(self, amount: Decimal, src: str, dst: str, day: dt.date) -> Decimal:
        if src == dst:
            return amount
        return q(amount * self.rate(src, day) / self.rate(dst, day))


def reconcile(statements_dir: Path, ledger_path: Path, rates_path: Path, out_dir: Path) -> dict:
    rates = Rates(rates_path)
    lines, seen, duplicates = [], set(), 0
    account_ccy = {}
    for path in sorted(p for p in statements_dir.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES):
        m = NAME.fullmatch(path.stem)
        if not m:
            continue
        account, ccy = m[1], m[2].upper()
        account_ccy[account] = ccy
        for line in read_statement(path, account, ccy):
            key = (account, line["txn"])
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            lines.append(line)
    ledger = []
    with ledger_path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            ledger.append({"id": row["entry_id"].strip(), "date": dt.date.fromisoformat(row["date"].strip()),
                           "account": row["account"].strip(), "reference": row["reference"].strip().upper(),
                           "amount": Decimal(row["amount"].strip()), "currency": row["currency"].strip().upper(),
                           "kind": row["kind"].strip().lower()})

    status = {}  # (account, txn) -> (ledger_ids, match_type)
    by_txn = {(l["account"], l["txn"]): l for l in lines}
    pairs = 0
    for line in lines:
        key = (line["account"], line["txn"])
        text = line["text"].upper()
        if key in status or not text.startswith("REVERSAL OF "):
            continue
        target = text[len("REVERSAL OF "):].split()[0] if text[len("REVERSAL OF "):].split() else ""
        other = next((l for (a, t), l in by_txn.items() if a == line["account"] and t.upper() == target), None)
        if other is None or other is line or (other["account"], other["txn"]) in status or other["amount"] != -line["amount"]:
            continue
        status[key] = ("", "reversal")
        status[(other["account"], other["txn"])] = ("", "reversal")
        pairs += 1

    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    open_lines = [l for l in lines if (l["account"], l["txn"]) not in status and l["references"]]
    for line in open_lines:
        first = root((line["account"], line["references"][0]))
        for ref in line["references"][1:]:
            other = root((line["account"], ref))
            if other != first:
                parent[max(other, first)] = min(other, first)
                first = min(other, first)
    groups_s: dict[tuple[str, str], list[dict]] = {}
    for line in open_lines:
        groups_s.setdefault(root((line["account"], line["references"][0])), []).append(line)
    groups_l: dict[tuple[str, str], list[dict]] = {}
    for entry in ledger:
        key = (entry["account"], entry["reference"])
        if entry["reference"] and key in parent:
            groups_l.setdefault(root(key), []).append(entry)
    matched_ledger, fx_difference = set(), {}
    for key, slines in groups_s.items():
        entries = groups_l.get(key)
        if not entries or key[0] not in account_ccy:
            continue
        ccy = account_ccy[key[0]]
        expected = sum((rates.convert(e["amount"], e["currency"], ccy, e["date"]) for e in entries), Decimal(0))
        foreign = sum(1 for e in entries if e["currency"] != ccy)
        difference = sum((l["amount"] for l in slines), Decimal(0)) - expected
        if abs(difference) > CENT * foreign:
            continue
        fx_difference[key[0]] = fx_difference.get(key[0], Decimal(0)) + difference
        if len({r for l in slines for r in l["references"]}) > 1:
            kind = "bulk"
        elif len(slines) > 1:
            kind = "split"
        elif any(e["kind"] == "fee" for e in entries):
            kind = "netted"
        elif any(e["currency"] != ccy for e in entries):
            kind = "fx"
        else:
            kind = "exact"
        ids = "+".join(sorted(e["id"] for e in entries))
        for l in slines:
            status[(l["account"], l["txn"])] = (ids, kind)
        matched_ledger.update(e["id"] for e in entries)

    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "matches.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["account", "statement_txn_id", "ledger_ids", "match_type"])
        for (account, txn), (ids, kind) in sorted(status.items()):
            writer.writerow([account, txn, ids, kind])
    unmatched_lines = [l for l in lines if (l["account"], l["txn"]) not in status]
    unmatched_ledger = [e for e in ledger if e["id"] not in matched_ledger]
    rows = [("statement", l["account"], l["txn"], l["date"].isoformat(), f"{l['amount']:.2f}", l["currency"]) for l in unmatched_lines]
    rows += [("ledger", e["account"], e["id"], e["date"].isoformat(), f"{e['amount']:.2f}", e["currency"]) for e in unmatched_ledger]
    with (out_dir / "unmatched.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["source", "account", "id", "date", "amount", "currency"])
        writer.writerows(sorted(rows))
    accounts = {}
    for account in sorted(account_ccy):
        mine = [l for l in lines if l["account"] == account]
        accounts[account] = {
            "currency": account_ccy[account],
            "statement_net": float(sum((l["amount"] for l in mine), Decimal(0))),
            "unmatched_net": float(sum((l["amount"] for l in unmatched_lines if l["account"] == account), Decimal(0))),
            "fx_difference": float(fx_difference.get(account, Decimal(0))),
        }
    summary = {
        "statement_lines": len(lines),
        "duplicates_removed": duplicates,
        "reversal_pairs": pairs,
        "matched_statement_lines": sum(1 for ids, kind in status.values() if kind != "reversal"),
        "matched_ledger_entries": len(matched_ledger),
        "unmatched_statement_lines": len(unmatched_lines),
        "unmatched_ledger_entries": len(unmatched_ledger),
        "accounts": accounts,
        "unmatched_ledger_usd": float(sum((q(e["amount"] * rates.rate(e["currency"], e["date"])) for e in unmatched_ledger), Decimal(0))),
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return summary


if __name__ == "__main__":
    reconcile(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
