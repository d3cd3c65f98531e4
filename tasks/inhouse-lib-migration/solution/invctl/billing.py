# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Invoices: drafting, issuing (with tax, stock and cost of goods), voiding and instalment plans."""

from invctl.money import add_days, fmt, fmt_day, next_id, parse_amount, parse_day, rate, split_equal

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
        "date": fmt_day(date),
        "status": "draft",
        "lines": [],
        "subtotal": 0,
        "tax": 0,
        "tax_rate": store.settings["tax_rate"],
        "total": 0,
        "paid": 0,
        "cost": 0,
        "due": None,
        "issued_on": None,
        "voided_on": None,
    }
    return f"created {inv_id} for {cid} on {fmt_day(date)}"


def add_line(store, inv_id, sku, qty_text, discount_text="0", price_text=None):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] != "draft":
        raise UserError(f"{inv_id} is {invoice['status']}, not a draft")
    item = get_item(store, sku)
    qty = parse_qty(qty_text)
    discount = parse_discount(discount_text)
    price = parse_amount(price_text) if price_text is not None else item["price"]
    gross = qty * price
    amount = rate(gross, 100 - discount)
    invoice["lines"].append({"sku": sku, "qty": qty, "price": price, "discount": discount, "amount": amount})
    less = f" less {discount:g}%" if discount else ""
    number = len(invoice["lines"])
    return f"{inv_id} line {number}: {qty} x {sku} @ {fmt(price)}{less} = {fmt(amount)}"


def issue(store, inv_id, date):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] != "draft":
        raise UserError(f"{inv_id} is {invoice['status']}, not a draft")
    if not invoice["lines"]:
        raise UserError(f"{inv_id} has no lines")
    if date < parse_day(invoice["date"]):
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
    subtotal = sum(line["amount"] for line in invoice["lines"])
    tax = rate(subtotal, invoice["tax_rate"])
    total = subtotal + tax
    if customer["limit"] is not None:
        owed = balance(store, cid)
        if owed + total > customer["limit"]:
            raise CreditError(
                f"credit limit exceeded for {cid}: balance {fmt(owed)} + invoice {fmt(total)}"
                f" > limit {fmt(customer['limit'])}"
            )
    cost = sum(line["qty"] * get_item(store, line["sku"])["avg_cost"] for line in invoice["lines"])
    store.journal.record(
        date,
        f"invoice {inv_id}",
        [("1100 Receivables", total), ("4000 Sales", -subtotal), ("2100 Sales Tax", -tax)],
    )
    if cost:
        store.journal.record(date, f"cost of {inv_id}", [("5000 Cost of Goods", cost), ("1200 Inventory", -cost)])
    for sku, qty in needed.items():
        store.items[sku]["on_hand"] -= qty
    due = add_days(date, customer["terms"])
    invoice.update(
        status="issued", subtotal=subtotal, tax=tax, total=total, cost=cost, due=fmt_day(due), issued_on=fmt_day(date)
    )
    message = (
        f"issued {inv_id} to {cid}: subtotal {fmt(subtotal)} tax {fmt(tax)}"
        f" total {fmt(total)} due {fmt_day(due)}"
    )
    if customer["credit"] > 0:
        used = min(customer["credit"], total)
        customer["credit"] = customer["credit"] - used
        invoice["paid"] = used
        if used == total:
            invoice["status"] = "paid"
        message += f"; applied credit {fmt(used)}"
    return message


def void(store, inv_id, date):
    invoice = get_invoice(store, inv_id)
    if invoice["status"] not in ("issued",):
        raise UserError(f"cannot void {inv_id}: it is {invoice['status']}")
    if invoice["paid"]:
        raise UserError(f"cannot void {inv_id}: payments of {fmt(invoice['paid'])} applied")
    total, subtotal, tax, cost = invoice["total"], invoice["subtotal"], invoice["tax"], invoice["cost"]
    store.journal.record(
        date,
        f"void {inv_id}",
        [("4000 Sales", subtotal), ("2100 Sales Tax", tax), ("1100 Receivables", -total)],
    )
    if cost:
        store.journal.record(date, f"void cost of {inv_id}", [("1200 Inventory", cost), ("5000 Cost of Goods", -cost)])
    for line in invoice["lines"]:
        store.items[line["sku"]]["on_hand"] += line["qty"]
    invoice.update(status="void", voided_on=fmt_day(date))
    return f"voided {inv_id} (reversed {fmt(total)}, stock returned)"


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
    due = parse_day(invoice["due"])
    lines = [f"{inv_id} plan: {parts} instalments for open {fmt(remaining)}"]
    for index, amount in enumerate(split_equal(remaining, parts)):
        when = add_days(due, PLAN_SPACING_DAYS * index)
        lines.append(f"  {index + 1:>2}. {fmt_day(when)}  {fmt(amount):>12}")
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
        rows.append([number, line["sku"], line["qty"], fmt(line["price"]), disc, fmt(line["amount"])])
    out.append(table(["#", "sku", "qty", "price", "disc", "amount"], rows, "rlrrrr"))
    if invoice["status"] == "draft":
        subtotal = sum(line["amount"] for line in invoice["lines"])
        out.append(f"subtotal {fmt(subtotal)} (draft, tax not computed)")
        return "\n".join(out)
    out.append(f"subtotal {fmt(invoice['subtotal'])}")
    out.append(f"tax {invoice['tax_rate']:g}% {fmt(invoice['tax'])}")
    out.append(f"total {fmt(invoice['total'])}")
    out.append(f"paid {fmt(invoice['paid'])}")
    out.append(f"open {fmt(open_amount(invoice) if invoice['status'] != 'void' else 0)}")
    return "\n".join(out)
