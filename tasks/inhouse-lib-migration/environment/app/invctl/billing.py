# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Invoices: drafting, issuing (with tax, stock and cost of goods), voiding and instalment plans."""

from ledgerlib import add_days, allocate, apply_rate, fmt_date, fmt_money, next_id, parse_date, parse_money, round_money

from invctl.customers import balance, get_customer, open_amount
from invctl.errors import CreditError, NotFound, StockError, UserError
from invctl.inventory import get_item, parse_qty
from invctl.textfmt import table

PLAN_SPACING_DAYS = 30


def get_invoice(store, inv_id):
    try:
        return store.invoices[inv_id]
    except KeyError:
        raise NotFound(f"unknown invoice {inv_id}") from None


def parse_discount(text):
    try:
        value = float(str(text).strip().rstrip("%"))
    except ValueError:
        raise UserError(f"invalid discount: {text!r}") from None
    if not 0 <= value <= 100:
        raise UserError(f"invalid discount: {text!r}")
    return value


def new_invoice(store, cid, date):
    get_customer(store, cid)
    inv_id = next_id("INV", store.invoices)
    store.invoices[inv_id] = {
        "customer": cid,
        "date": fmt_date(date),
        "status": "draft",
        "lines": [],
        "subtotal": 0.0,
        "tax": 0.0,
        "tax_rate": store.settings["tax_rate"],
        "total": 0.0,
        "paid": 0.0,
        "cost": 0.0,
        "due": None,
        "issued_on": None,
        "voided_on": None,
    }
    return f"created {inv_id} for {cid} on {fmt_date(date)}"


def add_line(store, inv_id, sku, qty_text, discount_text="0", price_text=None):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] != "draft":
        raise UserError(f"{inv_id} is {invoice['status']}, not a draft")
    item = get_item(store, sku)
    qty = parse_qty(qty_text)
    discount = parse_discount(discount_text)
    price = parse_money(price_text) if price_text is not None else item["price"]
    gross = round_money(qty * price)
    amount = apply_rate(gross, 100 - discount)
    invoice["lines"].append({"sku": sku, "qty": qty, "price": price, "discount": discount, "amount": amount})
    less = f" less {discount:g}%" if discount else ""
    number = len(invoice["lines"])
    return f"{inv_id} line {number}: {qty} x {sku} @ {fmt_money(price)}{less} = {fmt_money(amount)}"


def issue(store, inv_id, date):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] != "draft":
        raise UserError(f"{inv_id} is {invoice['status']}, not a draft")
    if not invoice["lines"]:
        raise UserError(f"{inv_id} has no lines")
    if date < parse_date(invoice["date"]):
        raise UserError(f"{inv_id} cannot be issued before its date {invoice['date']}")
    needed = {}
    for line in invoice["lines"]:
        needed[line["sku"]] = needed.get(line["sku"], 0) + line["qty"]
    for sku in sorted(needed):
        have = get_item(store, sku)["on_hand"]
        if needed[sku] > have:
            raise StockError(f"insufficient stock for {sku}: need {needed[sku]}, have {have}")
    cid = invoice["customer"]
    customer = get_customer(store, cid)
    subtotal = round_money(sum(line["amount"] for line in invoice["lines"]))
    tax = apply_rate(subtotal, invoice["tax_rate"])
    total = round_money(subtotal + tax)
    if customer["limit"] is not None:
        owed = balance(store, cid)
        if round_money(owed + total) > customer["limit"]:
            raise CreditError(
                f"credit limit exceeded for {cid}: balance {fmt_money(owed)} + invoice {fmt_money(total)}"
                f" > limit {fmt_money(customer['limit'])}"
            )
    cost = round_money(sum(round_money(line["qty"] * get_item(store, line["sku"])["avg_cost"]) for line in invoice["lines"]))
    store.journal.post(
        date,
        f"invoice {inv_id}",
        [("1100 Receivables", total, 0.0), ("4000 Sales", 0.0, subtotal), ("2100 Sales Tax", 0.0, tax)],
    )
    if cost:
        store.journal.post(date, f"cost of {inv_id}", [("5000 Cost of Goods", cost, 0.0), ("1200 Inventory", 0.0, cost)])
    for sku, qty in needed.items():
        store.items[sku]["on_hand"] -= qty
    due = add_days(date, customer["terms"])
    invoice.update(
        status="issued", subtotal=subtotal, tax=tax, total=total, cost=cost, due=fmt_date(due), issued_on=fmt_date(date)
    )
    message = (
        f"issued {inv_id} to {cid}: subtotal {fmt_money(subtotal)} tax {fmt_money(tax)}"
        f" total {fmt_money(total)} due {fmt_date(due)}"
    )
    if customer["credit"] > 0:
        used = min(customer["credit"], total)
        customer["credit"] = round_money(customer["credit"] - used)
        invoice["paid"] = used
        if used == total:
            invoice["status"] = "paid"
        message += f"; applied credit {fmt_money(used)}"
    return message


def void(store, inv_id, date):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] not in ("issued",):
        raise UserError(f"cannot void {inv_id}: it is {invoice['status']}")
    if invoice["paid"]:
        raise UserError(f"cannot void {inv_id}: payments of {fmt_money(invoice['paid'])} applied")
    total, subtotal, tax, cost = invoice["total"], invoice["subtotal"], invoice["tax"], invoice["cost"]
    store.journal.post(
        date,
        f"void {inv_id}",
        [("4000 Sales", subtotal, 0.0), ("2100 Sales Tax", tax, 0.0), ("1100 Receivables", 0.0, total)],
    )
    if cost:
        store.journal.post(date, f"void cost of {inv_id}", [("1200 Inventory", cost, 0.0), ("5000 Cost of Goods", 0.0, cost)])
    for line in invoice["lines"]:
        store.items[line["sku"]]["on_hand"] += line["qty"]
    invoice.update(status="void", voided_on=fmt_date(date))
    return f"voided {inv_id} (reversed {fmt_money(total)}, stock returned)"


def plan(store, inv_id, parts_text):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] != "issued":
        raise UserError(f"cannot plan {inv_id}: it is {invoice['status']}")
    try:
        parts = int(parts_text)
    except ValueError:
        raise UserError(f"invalid number of instalments: {parts_text!r}") from None
    if not 1 <= parts <= 24:
        raise UserError(f"invalid number of instalments: {parts_text!r}")
    remaining = open_amount(invoice)
    due = parse_date(invoice["due"])
    lines = [f"{inv_id} plan: {parts} instalments for open {fmt_money(remaining)}"]
    for index, amount in enumerate(allocate(remaining, parts)):
        when = add_days(due, PLAN_SPACING_DAYS * index)
        lines.append(f"  {index + 1:>2}. {fmt_date(when)}  {fmt_money(amount):>12}")
    return "\n".join(lines)


def show(store, inv_id):
    invoice = get_invoice(store, inv_id)
    cid = invoice["customer"]
    customer = get_customer(store, cid)
    out = [
        f"Invoice {inv_id}  customer {cid} ({customer['name']})  status {invoice['status']}",
        f"date {invoice['date']}  due {invoice['due'] or '-'}",
    ]
    rows = []
    for number, line in enumerate(invoice["lines"], start=1):
        disc = f"{line['discount']:g}%" if line["discount"] else ""
        rows.append([number, line["sku"], line["qty"], fmt_money(line["price"]), disc, fmt_money(line["amount"])])
    out.append(table(["#", "sku", "qty", "price", "disc", "amount"], rows, "rlrrrr"))
    if invoice["status"] == "draft":
        subtotal = round_money(sum(line["amount"] for line in invoice["lines"]))
        out.append(f"subtotal {fmt_money(subtotal)} (draft, tax not computed)")
        return "\n".join(out)
    out.append(f"subtotal {fmt_money(invoice['subtotal'])}")
    out.append(f"tax {invoice['tax_rate']:g}% {fmt_money(invoice['tax'])}")
    out.append(f"total {fmt_money(invoice['total'])}")
    out.append(f"paid {fmt_money(invoice['paid'])}")
    out.append(f"open {fmt_money(open_amount(invoice) if invoice['status'] != 'void' else 0.0)}")
    return "\n".join(out)
