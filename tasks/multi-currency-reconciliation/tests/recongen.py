# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Deterministic generator of a month-end reconciliation data set: bank statements (CSV and XLSX in three bank
formats, and MT940-like .sta text statements), a general-ledger export and daily FX rates.

    python3 recongen.py OUT_DIR [SEED]      -> OUT_DIR/statements/*, OUT_DIR/ledger.csv, OUT_DIR/rates.csv
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

BASE_RATES = {"USD": 1.0, "EUR": 1.085, "GBP": 1.27, "CHF": 1.13}
KNOBS = ("fx", "split", "netted", "reversal", "duplicate", "unmatched", "formats", "weekend", "mt940", "bulk")
CENT = Decimal("0.01")


def q(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _int(rng, low, high):
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def _pick(rng, seq):
    return seq[min(int(rng.random() * len(seq)), len(seq) - 1)]


class Rates:
    def __init__(self, rng, start: dt.date, days: int):
        self.table: dict[tuple[str, dt.date], Decimal] = {}
        level = {c: BASE_RATES[c] * (1 + 0.04 * (rng.random() - 0.5)) for c in BASE_RATES}
        for i in range(days):
            day = start + dt.timedelta(i)
            for ccy in ("EUR", "GBP", "CHF"):
                level[ccy] *= 1 + 0.006 * (rng.random() - 0.5)
                if day.weekday() < 5:
                    self.table[(ccy, day)] = Decimal(f"{level[ccy]:.4f}")

    def rate(self, ccy: str, day: dt.date) -> Decimal:
        if ccy == "USD":
            return Decimal(1)
        while (ccy, day) not in self.table:
            day -= dt.timedelta(1)
        return self.table[(ccy, day)]

    def convert(self, amount: Decimal, src: str, dst: str, day: dt.date) -> Decimal:
        if src == dst:
            return amount
        return q(amount * self.rate(src, day) / self.rate(dst, day))

    def csv(self) -> str:
        out = io.StringIO()
        out.write("date,currency,usd_per_unit\n")
        for (ccy, day), value in sorted(self.table.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            out.write(f"{day.isoformat()},{ccy},{value}\n")
        return out.getvalue()


def make_dataset(rng: random.Random, knobs: frozenset) -> dict[str, bytes]:
    start = dt.date(2024, 1, 1) + dt.timedelta(_int(rng, 0, 300))
    rates = Rates(rng, start - dt.timedelta(15), 60)
    all_formats = ["A", "B", "C"] if "formats" in knobs else ["A"]
    if "mt940" in knobs:
        all_formats = ["D", *all_formats[1:]] if "formats" in knobs else ["D"]
    accounts = []
    for i, ccy in enumerate(["USD", "EUR", "GBP"] if _chance(rng, 0.5) else ["EUR", "USD", "CHF"]):
        accounts.append((f"{ccy[:2]}{_int(rng, 10, 99)}{i}", ccy, all_formats[i % len(all_formats)]))
    ledger: list[dict] = []
    lines: dict[str, list[dict]] = {acct: [] for acct, _, _ in accounts}
    serial = {"L": 1000 + _int(rng, 0, 500), "T": 50000 + _int(rng, 0, 9000), "R": _int(rng, 1000, 5000)}

    def next_id(kind):
        serial[kind] += _int(rng, 1, 7)
        return serial[kind]

    def day_in_month():
        return start + dt.timedelta(_int(rng, 0, 27))

    def business(day):
        if "weekend" in knobs:
            return day
        while day.weekday() >= 5:
            day -= dt.timedelta(1)
        return day

    def amount():
        return Decimal(_int(rng, 1000, 2500000)) / 100

    def add_line(acct, day, text, value, txn=None):
        line = {"txn": txn or f"T{next_id('T')}", "date": day, "text": text, "amount": value}
        lines[acct].append(line)
        return line

    for acct, ccy, _fmt in accounts:
        for _ in range(_int(rng, 6, 10)):
            receipt = _chance(rng, 0.65)
            prefix = "INV" if receipt else "PAY"
            ref = f"{prefix}-{next_id('R'):05d}"
            sign = 1 if receipt else -1
            lday = business(day_in_month())
            kinds = ["plain"]
            if "fx" in knobs:
                kinds.append("fx")
            if "split" in knobs:
                kinds.append("split")
            if "netted" in knobs and receipt:
                kinds.append("netted")
            if "unmatched" in knobs:
                kinds.append("outstanding")
            kind = _pick(rng, kinds)
            gross = amount()
            lccy = ccy
            if kind == "fx":
                lccy = _pick(rng, [c for c in BASE_RATES if c != ccy])
            ledger.append({"entry_id": f"GL{next_id('L')}", "date": lday, "account": acct, "reference": ref,
                           "amount": sign * gross, "currency": lccy, "kind": "receipt" if receipt else "payment"})
            expected = rates.convert(sign * gross, lccy, ccy, lday)
            desc = _pick(rng, ["Payment {r} ACME GMBH", "SEPA CT {r}", "Wire {r} / Northwind", "{r} Contoso Ltd", "TRF {r}"])
            sday = lday + dt.timedelta(_int(rng, 0, 4))
            if kind == "netted":
                fee = Decimal(_int(rng, 50, 4500)) / 100
                ledger.append({"entry_id": f"GL{next_id('L')}", "date": lday, "account": acct, "reference": ref,
                               "amount": -fee, "currency": ccy, "kind": "fee"})
                add_line(acct, sday, desc.format(r=ref) + " NET OF CHARGES", expected - fee)
            elif kind == "split":
                parts = _int(rng, 2, 3)
                cut = sorted({q(expected * Decimal(_int(rng, 15, 85)) / 100) for _ in range(parts - 1)})
                pieces, prev = [], Decimal(0)
                for c in cut + [expected]:
                    pieces.append(c - prev)
                    prev = c
                for k, piece in enumerate(pieces):
                    if piece != 0:
                        add_line(acct, sday + dt.timedelta(k * _int(rng, 1, 6)), desc.format(r=ref.lower() if _chance(rng, 0.3) else ref) + f" part {k + 1}", piece)
            elif kind == "outstanding":
                if _chance(rng, 0.5):  # partially paid only
                    add_line(acct, sday, desc.format(r=ref) + " partial", q(expected * Decimal("0.4")))
            else:
                if kind == "fx":  # the bank's own conversion: a cent off (within tolerance) or clearly off
                    roll = rng.random()
                    if roll < 0.3:
                        expected += _pick(rng, [CENT, -CENT])
                    elif roll < 0.4:
                        expected += _pick(rng, [1, -1]) * CENT * _int(rng, 2, 9)
                add_line(acct, sday, desc.format(r=ref), expected)
        if "bulk" in knobs:  # one remittance settling several invoices
            for _ in range(_int(rng, 2, 3)):
                refs, total, lday, foreign = [], Decimal(0), business(day_in_month()), 0
                for _k in range(_int(rng, 2, 3)):
                    ref = f"INV-{next_id('R'):05d}"
                    lccy = _pick(rng, [c for c in BASE_RATES if c != ccy]) if "fx" in knobs and _chance(rng, 0.4) else ccy
                    gross = amount()
                    eday = business(lday - dt.timedelta(_int(rng, 0, 5)))
                    ledger.append({"entry_id": f"GL{next_id('L')}", "date": eday, "account": acct, "reference": ref,
                                   "amount": gross, "currency": lccy, "kind": "receipt"})
                    refs.append(ref)
                    foreign += lccy != ccy
                    total += rates.convert(gross, lccy, ccy, eday)
                variant = _pick(rng, ["one", "one", "two_lines", "short"])
                sday = lday + dt.timedelta(_int(rng, 0, 4))
                joined = _pick(rng, [", ".join(refs), "/".join(refs), " ".join(refs), ", ".join(refs[:-1]) + " and " + refs[-1]])
                text = _pick(rng, ["Remittance {r} Fabrikam", "BULK PAYMENT {r}", "Invoices {r} - Tailspin Toys"]).format(r=joined)
                if variant == "one":
                    if foreign and _chance(rng, 0.5):  # rounding differences of the bank's conversions
                        total += _pick(rng, [1, -1]) * CENT * _int(rng, 1, foreign)
                    add_line(acct, sday, text, total)
                elif variant == "short":  # the payer took a discount: does not add up
                    add_line(acct, sday, text, total - Decimal(_int(rng, 100, 2000)) / 100)
                else:
                    part = q(total * Decimal(_int(rng, 40, 80)) / 100)
                    add_line(acct, sday, text, part)
                    add_line(acct, sday + dt.timedelta(_int(rng, 1, 5)), f"Balance {refs[-1].lower() if _chance(rng, 0.4) else refs[-1]}", total - part)
        if "unmatched" in knobs:
            for _ in range(_int(rng, 1, 3)):
                text = _pick(rng, ["ACCOUNT MAINTENANCE FEE", "INTEREST", "CARD SETTLEMENT 4471", f"REF-{next_id('R'):05d} unknown payer"])
                add_line(acct, day_in_month(), text, Decimal(_int(rng, -50000, 50000)) / 100 or Decimal("1.00"))
            ledger.append({"entry_id": f"GL{next_id('L')}", "date": business(day_in_month()), "account": acct,
                           "reference": "", "amount": -amount(), "currency": ccy, "kind": "payment"})
        if "reversal" in knobs:
            for _ in range(_int(rng, 1, 2)):
                victims = [l for l in lines[acct] if "REVERSAL" not in l["text"]]
                if victims and _chance(rng, 0.6):
                    base = _pick(rng, victims)  # booked twice, the second booking reversed
                    dup = add_line(acct, base["date"], base["text"], base["amount"])
                else:
                    dup = add_line(acct, day_in_month(), "DIRECT DEBIT 88{0}".format(_int(rng, 100, 999)), -amount())
                add_line(acct, dup["date"] + dt.timedelta(_int(rng, 1, 3)), f"REVERSAL OF {dup['txn']}", -dup["amount"])
    for acct in lines:
        lines[acct].sort(key=lambda l: (l["date"], l["txn"]))
        if "duplicate" in knobs:
            for _ in range(_int(rng, 1, 3)):
                if lines[acct]:
                    victim = _pick(rng, lines[acct])
                    lines[acct].insert(lines[acct].index(victim) + 1, dict(victim))

    files: dict[str, bytes] = {}
    for acct, ccy, fmt in accounts:
        name = f"statements/{acct}_{ccy}"
        if fmt == "A":
            files[name + ".csv"] = _format_a(lines[acct]).encode("utf-8")
        elif fmt == "B":
            files[name + ".csv"] = _format_b(lines[acct]).encode("utf-8")
        elif fmt == "C":
            files[name + ".xlsx"] = _format_c(acct, lines[acct])
        else:
            files[name + _pick(rng, [".sta", ".STA"])] = _format_d(rng, acct, ccy, lines[acct]).encode("utf-8")
    rng_order = ledger[:]
    rng_order.sort(key=lambda e: (e["date"], e["entry_id"]))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["entry_id", "date", "account", "reference", "amount", "currency", "kind"])
    for e in rng_order:
        writer.writerow([e["entry_id"], e["date"].isoformat(), e["account"], e["reference"], f"{e['amount']:.2f}", e["currency"], e["kind"]])
    files["ledger.csv"] = out.getvalue().encode("utf-8")
    files["rates.csv"] = rates.csv().encode("utf-8")
    return files


def _chance(rng, p):
    return rng.random() < p


def _thousands(value: Decimal) -> str:
    return f"{value:,.2f}"


def _format_a(lines) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Booking Date", "Value Date", "Txn ID", "Details", "Debit", "Credit"])
    for l in lines:
        booking = l["date"] + dt.timedelta(1 if l["date"].weekday() == 4 else 0)
        debit = _thousands(-l["amount"]) if l["amount"] < 0 else ""
        credit = _thousands(l["amount"]) if l["amount"] >= 0 else ""
        writer.writerow([booking.strftime("%d/%m/%Y"), l["date"].strftime("%d/%m/%Y"), l["txn"], l["text"], debit, credit])
    return out.getvalue()


def _format_b(lines) -> str:
    out = ["date;txn;description;amount"]
    for l in lines:
        text = f"{l['amount']:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
        out.append(f"{l['date'].isoformat()};{l['txn']};{l['text']};{text}")
    return "\n".join(out) + "\n"


def _format_c(acct, lines) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Statement"
    sheet.append([f"Statement of account {acct}"])
    sheet.append([])
    sheet.append(["Date", "Transaction", "Reference", "Amount"])
    for l in lines:
        sheet.append([dt.datetime.combine(l["date"], dt.time()), l["txn"], l["text"], float(l["amount"])])
    sheet.append(["Closing balance", None, None, float(sum((l["amount"] for l in lines), Decimal(0)))])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _mt_amount(rng, value: Decimal) -> str:
    text = f"{abs(value):.2f}".replace(".", ",")
    return text.rstrip("0") if _chance(rng, 0.5) else text


def _format_d(rng, acct, ccy, lines) -> str:
    """MT940-like: :61: value date YYMMDD, optional entry date MMDD, mark C/D/RC/RD, amount with a decimal comma,
    N + 3-character type code, transaction id, optional //bank reference; :86: description, maybe continued."""
    out = []
    blocks = [lines]
    if len(lines) > 8 and _chance(rng, 0.6):
        cut = _int(rng, 3, len(lines) - 3)
        blocks = [lines[:cut], lines[cut:]]
    balance = Decimal(_int(rng, 100000, 9000000)) / 100
    for number, block in enumerate(blocks, 1):
        first = block[0]["date"] if block else dt.date(2024, 1, 1)
        out += [f":20:STMT{first:%y%m%d}{number}", f":25:{acct}", f":28C:{_int(rng, 10, 300)}/{number}",
                f":60{'F' if number == 1 else 'M'}:{'C' if balance >= 0 else 'D'}{first:%y%m%d}{ccy}{_mt_amount(rng, balance)}"]
        for l in block:
            reversal = l["text"].upper().startswith("REVERSAL OF ")
            mark = ("RD" if l["amount"] >= 0 else "RC") if reversal else ("C" if l["amount"] >= 0 else "D")
            entry = f"{l['date'] + dt.timedelta(_int(rng, 0, 2)):%m%d}" if _chance(rng, 0.6) else ""
            code = _pick(rng, ["TRF", "MSC", "CHG", "DDT", "COL"])
            bank_ref = f"//{_int(rng, 10**9, 10**10 - 1)}" if _chance(rng, 0.7) else ""
            out.append(f":61:{l['date']:%y%m%d}{entry}{mark}{_mt_amount(rng, l['amount'])}N{code}{l['txn']}{bank_ref}")
            text = l["text"]
            spaces = [i for i, c in enumerate(text) if c == " "]
            if spaces and _chance(rng, 0.5):
                cut = _pick(rng, spaces)
                out += [f":86:{text[:cut]}", text[cut + 1:]]
            elif text:
                out.append(f":86:{text}")
            balance += l["amount"]
        last = block[-1]["date"] if block else first
        final = "F" if number == len(blocks) else "M"
        out += [f":62{final}:{'C' if balance >= 0 else 'D'}{last:%y%m%d}{ccy}{_mt_amount(rng, balance)}", "-"]
    return "\r\n".join(out) + "\r\n"


def write_dataset(out_dir: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


if __name__ == "__main__":
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20240301
    write_dataset(Path(sys.argv[1]), make_dataset(random.Random(seed), frozenset(KNOBS)))
