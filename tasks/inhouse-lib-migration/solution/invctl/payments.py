# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Customer payments (applied to the oldest due invoices first) and refunds of unapplied credit."""

from invctl.money import fmt, fmt_day, next_id, parse_amount

from invctl.customers import get_customer, open_amount, open_invoices
from invctl.errors import UserError


def pay(store, cid, amount_text, date, ref=None):
    customer = get_customer(store, cid)
    amount = parse_amount(amount_text)
    if amount <= 0:
        raise UserError(f"payment must be positive: {amount_text}")
    pay_id = next_id("PAY", [p["id"] for p in store.payments])
    store.journal.record(date, f"payment {pay_id} {cid}", [("1000 Cash", amount), ("1100 Receivables", -amount)])
    remaining = amount
    applied = {}
    for inv_id, invoice in open_invoices(store, cid):
        if remaining <= 0:
            break
        part = min(remaining, open_amount(invoice))
        invoice["paid"] = invoice["paid"] + part
        if open_amount(invoice) == 0:
            invoice["status"] = "paid"
        applied[inv_id] = part
        remaining = remaining - part
    customer["credit"] = customer["credit"] + remaining
    store.payments.append(
        {"id": pay_id, "kind": "payment", "customer": cid, "date": fmt_day(date), "amount": amount,
         "applied": applied, "ref": ref}
    )
    parts = ", ".join(f"{inv_id} {fmt(part)}" for inv_id, part in applied.items()) or "no open invoices"
    return f"{pay_id} {fmt(amount)} from {cid}: {parts}; unapplied {fmt(remaining)}"


def refund(store, cid, amount_text, date):
    customer = get_customer(store, cid)
    amount = parse_amount(amount_text)
    if amount <= 0:
        raise UserError(f"refund must be positive: {amount_text}")
    if amount > customer["credit"]:
        raise UserError(f"refund {fmt(amount)} exceeds credit {fmt(customer['credit'])} of {cid}")
    ref_id = next_id("REF", [p["id"] for p in store.payments])
    store.journal.record(date, f"refund {ref_id} {cid}", [("1100 Receivables", amount), ("1000 Cash", -amount)])
    customer["credit"] = customer["credit"] - amount
    store.payments.append(
        {"id": ref_id, "kind": "refund", "customer": cid, "date": fmt_day(date), "amount": amount,
         "applied": {}, "ref": None}
    )
    return f"{ref_id} refunded {fmt(amount)} to {cid}; credit left {fmt(customer['credit'])}"
