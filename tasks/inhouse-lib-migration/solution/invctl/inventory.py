# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Items, stock receipts and adjustments (moving average cost)."""

from invctl.money import divide, fmt, fmt_day, parse_amount

from invctl.errors import NotFound, StockError, UserError


def parse_qty(text, allow_negative=False):
    try:
        qty = int(str(text).strip())
    except ValueError:
        raise UserError(f"invalid quantity: {text!r}") from None
    if qty == 0 or (qty < 0 and not allow_negative):
        raise UserError(f"invalid quantity: {text!r}")
    return qty


def get_item(store, sku):
    try:
        return store.items[sku]
    except KeyError:
        raise NotFound(f"unknown item {sku}") from None


def add_item(store, sku, name, price_text):
    if sku in store.items:
        raise UserError(f"item {sku} already exists")
    price = parse_amount(price_text)
    if price < 0:
        raise UserError(f"price must not be negative: {price_text}")
    store.items[sku] = {"name": name, "price": price, "on_hand": 0, "avg_cost": 0}
    return f"added item {sku}: {name} at {fmt(price)}"


def set_price(store, sku, price_text):
    item = get_item(store, sku)
    price = parse_amount(price_text)
    if price < 0:
        raise UserError(f"price must not be negative: {price_text}")
    old, item["price"] = item["price"], price
    return f"price of {sku}: {fmt(old)} -> {fmt(price)}"


def stock_value(item):
    return item["on_hand"] * item["avg_cost"]


def receive(store, sku, qty_text, cost_text, date):
    item = get_item(store, sku)
    qty = parse_qty(qty_text)
    cost = parse_amount(cost_text)
    if cost < 0:
        raise UserError(f"cost must not be negative: {cost_text}")
    received = qty * cost
    value = stock_value(item) + received
    item["on_hand"] += qty
    item["avg_cost"] = divide(value, item["on_hand"])
    if received:
        store.journal.record(date, f"receipt {sku} x{qty}", [("1200 Inventory", received), ("2000 Payables", -received)])
    return (
        f"received {qty} x {sku} at {fmt(cost)} on {fmt_day(date)} "
        f"(on hand {item['on_hand']}, avg cost {fmt(item['avg_cost'])})"
    )


def adjust(store, sku, delta_text, reason, date):
    item = get_item(store, sku)
    delta = parse_qty(delta_text, allow_negative=True)
    if item["on_hand"] + delta < 0:
        raise StockError(f"cannot adjust {sku} by {delta}: only {item['on_hand']} on hand")
    value = abs(delta) * item["avg_cost"]
    item["on_hand"] += delta
    if value:
        if delta < 0:
            lines = [("5100 Shrinkage", value), ("1200 Inventory", -value)]
        else:
            lines = [("1200 Inventory", value), ("5100 Shrinkage", -value)]
        store.journal.record(date, f"adjust {sku} {delta:+d} {reason}", lines)
    return f"adjusted {sku} by {delta:+d} ({reason}): on hand {item['on_hand']}, value change {fmt(value if delta > 0 else -value)}"


def list_items(store):
    rows = []
    for sku in sorted(store.items):
        item = store.items[sku]
        rows.append([sku, item["name"], fmt(item["price"]), item["on_hand"], fmt(item["avg_cost"])])
    return rows
