# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Customers, their payment terms, credit limits and open balances."""

from invctl.money import fmt, parse_amount

from invctl.errors import NotFound, UserError


def get_customer(store, cid):
    try:
        return store.customers[cid]
    except KeyError:
        raise NotFound(f"unknown customer {cid}") from None


def add_customer(store, cid, name, terms_text="30", limit_text=None):
    if cid in store.customers:
        raise UserError(f"customer {cid} already exists")
    try:
        terms = int(terms_text)
    except ValueError:
        raise UserError(f"invalid terms: {terms_text!r}") from None
    if terms < 0 or terms > 365:
        raise UserError(f"invalid terms: {terms_text!r}")
    limit = parse_amount(limit_text) if limit_text is not None else None
    store.customers[cid] = {"name": name, "terms": terms, "limit": limit, "credit": 0}
    limit_note = f", limit {fmt(limit)}" if limit is not None else ""
    return f"added customer {cid}: {name} (net {terms}{limit_note})"


def open_amount(invoice):
    return invoice["total"] - invoice["paid"]


def open_invoices(store, cid):
    found = [
        (inv_id, inv)
        for inv_id, inv in store.invoices.items()
        if inv["customer"] == cid and inv["status"] == "issued" and open_amount(inv) > 0
    ]
    return sorted(found, key=lambda pair: (pair[1]["due"], pair[0]))


def balance(store, cid):
    """What the customer owes: open invoices minus unapplied credit (may be negative)."""
    owed = sum(open_amount(inv) for _, inv in open_invoices(store, cid))
    return owed - store.customers[cid]["credit"]


def list_customers(store):
    rows = []
    for cid in sorted(store.customers):
        cust = store.customers[cid]
        limit = fmt(cust["limit"]) if cust["limit"] is not None else "-"
        rows.append([cid, cust["name"], cust["terms"], limit, fmt(balance(store, cid))])
    return rows
