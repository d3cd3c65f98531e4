# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The endpoints. Each handler takes a Request and returns (status, JSON payload) or raises ApiError."""

from __future__ import annotations

import json
from dataclasses import dataclass

from inventory import money, timeutil

MAX_PAGE = 200


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.status, self.code, self.message = status, code, message or code


@dataclass
class Request:
    pool: object
    args: tuple
    query: dict
    body: object
    idempotency_key: str | None


def bad(message: str) -> ApiError:
    return ApiError(400, "bad_request", message)


def health(req: Request):
    conn = req.pool.get()
    cur = conn.cursor()
    cur.execute("SELECT 1")
    ok = cur.fetchone()[0] == 1
    conn.commit()
    req.pool.put(conn)
    return 200, {"ok": ok}


# ---- products --------------------------------------------------------------------------------------------

def product_json(row) -> dict:
    pid, sku, name, price, stock = row
    return {"id": pid, "sku": sku, "name": name, "price": money.text(price), "stock": stock}


def create_product(req: Request):
    body = req.body if isinstance(req.body, dict) else {}
    sku, name, stock = body.get("sku"), body.get("name"), body.get("stock", 0)
    if not isinstance(sku, str) or not sku or not isinstance(name, str) or not name:
        raise bad("sku and name are required strings")
    if not isinstance(stock, int) or stock < 0:
        raise bad("stock must be a non-negative integer")
    try:
        price = money.parse(body.get("price"))
    except money.MoneyError as exc:
        raise bad(str(exc)) from exc
    conn = req.pool.get()
    cur = conn.cursor()
    cur.execute("SELECT 1 FROM products WHERE sku = %s", (sku,))
    if cur.fetchone():
        raise ApiError(409, "duplicate_sku", f"sku {sku!r} exists")
    cur.execute("INSERT INTO products (sku, name, price, stock) VALUES (%s, %s, %s, %s)"
                " RETURNING id, sku, name, price, stock", (sku, name, price, stock))
    row = cur.fetchone()
    conn.commit()
    req.pool.put(conn)
    return 201, product_json(row)


def get_product(req: Request):
    conn = req.pool.get()
    cur = conn.cursor()
    cur.execute("SELECT id, sku, name, price, stock FROM products WHERE id = %s", (int(req.args[0]),))
    row = cur.fetchone()
    if row is None:
        raise ApiError(404, "not_found", "no such product")
    conn.commit()
    req.pool.put(conn)
    return 200, product_json(row)


# ---- orders ----------------------------------------------------------------------------------------------

def parse_order(body):
    if not isinstance(body, dict):
        raise bad("body must be an object")
    items = body.get("items")
    if not isinstance(items, list) or not items:
        raise bad("items must be a non-empty list")
    parsed = []
    for item in items:
        pid = item.get("product_id") if isinstance(item, dict) else None
        qty = item.get("qty") if isinstance(item, dict) else None
        if not isinstance(pid, int) or not isinstance(qty, int) or qty <= 0:
            raise bad("each item needs an integer product_id and a positive integer qty")
        parsed.append((pid, qty))
    discount = body.get("discount_pct", 0)
    if not isinstance(discount, int) or not 0 <= discount <= 100:
        raise bad("discount_pct must be an integer from 0 to 100")
    try:
        placed_at = timeutil.parse_instant(body.get("placed_at"))
    except timeutil.TimeError as exc:
        raise bad(str(exc)) from exc
    return parsed, placed_at, discount


def load_order(cur, order_id: int):
    cur.execute("SELECT id, status, placed_at, discount_pct, total FROM orders WHERE id = %s", (order_id,))
    row = cur.fetchone()
    if row is None:
        return None
    cur.execute("SELECT product_id, qty, unit_price, line_total FROM order_items WHERE order_id = %s"
                " ORDER BY product_id", (order_id,))
    items = [{"product_id": p, "qty": q, "unit_price": money.text(u), "line_total": money.text(t)}
             for p, q, u, t in cur.fetchall()]
    return {"id": row[0], "status": row[1], "placed_at": timeutil.format_instant(row[2]),
            "discount_pct": row[3], "total": money.text(row[4]), "items": items}


def create_order(req: Request):
    items, placed_at, discount = parse_order(req.body)
    key = req.idempotency_key
    conn = req.pool.get()
    cur = conn.cursor()
    if key:
        cur.execute("SELECT response FROM idempotency_keys WHERE key = %s", (key,))
        row = cur.fetchone()
        if row:
            conn.commit()
            req.pool.put(conn)
            return 201, json.loads(row[0])
    lines = []
    for pid, qty in items:
        cur.execute("SELECT price, stock FROM products WHERE id = %s", (pid,))
        row = cur.fetchone()
        if row is None:
            raise ApiError(404, "not_found", f"no product {pid}")
        price, stock = row
        if stock < qty:
            raise ApiError(409, "insufficient_stock", f"not enough stock of product {pid}")
        lines.append((pid, qty, price, stock))
    subtotal = sum(price * qty for _, qty, price, _ in lines)
    total = money.discounted(subtotal, discount)
    cur.execute("INSERT INTO orders (status, placed_at, discount_pct, total) VALUES ('placed', %s, %s, %s)"
                " RETURNING id", (placed_at, discount, total))
    order_id = cur.fetchone()[0]
    for pid, qty, price, stock in lines:
        cur.execute("INSERT INTO order_items (order_id, product_id, qty, unit_price, line_total)"
                    " VALUES (%s, %s, %s, %s, %s)", (order_id, pid, qty, price, price * qty))
        cur.execute("UPDATE products SET stock = %s WHERE id = %s", (stock - qty, pid))
    response = load_order(cur, order_id)
    if key:
        cur.execute("INSERT INTO idempotency_keys (key, response) VALUES (%s, %s)", (key, json.dumps(response)))
    conn.commit()
    req.pool.put(conn)
    return 201, response


def get_order(req: Request):
    conn = req.pool.get()
    cur = conn.cursor()
    order = load_order(cur, int(req.args[0]))
    if order is None:
        raise ApiError(404, "not_found", "no such order")
    conn.commit()
    req.pool.put(conn)
    return 200, order


def cancel_order(req: Request):
    order_id = int(req.args[0])
    conn = req.pool.get()
    cur = conn.cursor()
    cur.execute("UPDATE orders SET status = 'cancelled' WHERE id = %s RETURNING id", (order_id,))
    if cur.fetchone() is None:
        raise ApiError(404, "not_found", "no such order")
    cur.execute("SELECT product_id, qty FROM order_items WHERE order_id = %s", (order_id,))
    for pid, qty in cur.fetchall():
        cur.execute("UPDATE products SET stock = stock + %s WHERE id = %s", (qty, pid))
    order = load_order(cur, order_id)
    conn.commit()
    req.pool.put(conn)
    return 200, order


def list_orders(req: Request):
    try:
        limit = int(req.query.get("limit", "50"))
        offset = int(req.query.get("cursor") or 0)
    except ValueError as exc:
        raise bad("limit and cursor must be integers") from exc
    if not 1 <= limit <= MAX_PAGE:
        raise bad(f"limit must be from 1 to {MAX_PAGE}")
    conn = req.pool.get()
    cur = conn.cursor()
    cur.execute("SELECT id FROM orders ORDER BY placed_at DESC LIMIT %s OFFSET %s", (limit + 1, offset))
    rows = cur.fetchall()
    page = [load_order(cur, oid) for (oid,) in rows[:limit]]
    conn.commit()
    req.pool.put(conn)
    nxt = str(offset + limit) if len(rows) > limit else None
    return 200, {"orders": page, "next_cursor": nxt}


# ---- reports ---------------------------------------------------------------------------------------------

def daily_report(req: Request):
    tz = req.query.get("tz", "UTC")
    try:
        day = timeutil.parse_day(req.query.get("date"))
    except timeutil.TimeError as exc:
        raise bad(str(exc)) from exc
    conn = req.pool.get()
    cur = conn.cursor()
    cur.execute("SELECT id, total FROM orders WHERE placed_at::date = %s", (day,))
    rows = cur.fetchall()
    units = 0
    for oid, _ in rows:
        cur.execute("SELECT sum(qty) FROM order_items WHERE order_id = %s", (oid,))
        units += cur.fetchone()[0] or 0
    conn.commit()
    req.pool.put(conn)
    revenue = sum(total for _, total in rows)
    return 200, {"date": day.isoformat(), "tz": tz, "orders": len(rows), "units": units,
                 "revenue": money.text(revenue)}
