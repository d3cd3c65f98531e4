#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: numeric-order migrations applied once each in a transaction, a schema with numeric money,
# timestamptz, CHECK and UNIQUE constraints and the placed_at index; a bounded pool that always returns (and
# rolls back) its connections; row-locked reservations in product-id order with deadlock retries; idempotency
# keys claimed by a unique insert in the same transaction; keyset pagination on (placed_at, id); Decimal money
# rounded half up; offsets honoured on input and local days computed with zoneinfo for reports; cancellation
# by a conditional update.
set -euo pipefail
cd /app
rm -f migrations/*.sql
cat > /app/inventory/__init__.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A small inventory and orders HTTP JSON service on PostgreSQL."""
LHTB_EOF
cat > /app/inventory/__main__.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: ``python3 -m inventory migrate --dsn DSN`` and ``python3 -m inventory serve --dsn DSN --port P``."""

from __future__ import annotations

import argparse
import sys

from inventory import migrate, server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="inventory")
    sub = parser.add_subparsers(dest="command", required=True)
    mig = sub.add_parser("migrate", help="apply the migrations in migrations/")
    mig.add_argument("--dsn", required=True)
    srv = sub.add_parser("serve", help="serve the HTTP API on 127.0.0.1")
    srv.add_argument("--dsn", required=True)
    srv.add_argument("--port", type=int, default=8080)
    srv.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    if args.command == "migrate":
        return migrate.run(args.dsn)
    return server.serve(args.dsn, args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
LHTB_EOF
cat > /app/inventory/api.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The endpoints. Each handler takes a Request and returns (status, JSON payload) or raises ApiError."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime

import psycopg2
import psycopg2.errorcodes
from psycopg2.extras import Json

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
    def work(cur):
        cur.execute("SELECT 1")
        return cur.fetchone()[0] == 1
    return 200, {"ok": req.pool.transaction(work)}


# ---- products --------------------------------------------------------------------------------------------

def product_json(row) -> dict:
    pid, sku, name, price, stock = row
    return {"id": pid, "sku": sku, "name": name, "price": money.text(price), "stock": stock}


def create_product(req: Request):
    body = req.body if isinstance(req.body, dict) else {}
    sku, name, stock = body.get("sku"), body.get("name"), body.get("stock", 0)
    if not isinstance(sku, str) or not sku or not isinstance(name, str) or not name:
        raise bad("sku and name are required strings")
    if not isinstance(stock, int) or isinstance(stock, bool) or stock < 0:
        raise bad("stock must be a non-negative integer")
    try:
        price = money.parse(body.get("price"))
    except money.MoneyError as exc:
        raise bad(str(exc)) from exc

    def work(cur):
        cur.execute("INSERT INTO products (sku, name, price, stock) VALUES (%s, %s, %s, %s)"
                    " ON CONFLICT (sku) DO NOTHING RETURNING id, sku, name, price, stock",
                    (sku, name, price, stock))
        return cur.fetchone()
    row = req.pool.transaction(work)
    if row is None:
        raise ApiError(409, "duplicate_sku", f"sku {sku!r} exists")
    return 201, product_json(row)


def get_product(req: Request):
    def work(cur):
        cur.execute("SELECT id, sku, name, price, stock FROM products WHERE id = %s", (int(req.args[0]),))
        return cur.fetchone()
    row = req.pool.transaction(work)
    if row is None:
        raise ApiError(404, "not_found", "no such product")
    return 200, product_json(row)


# ---- orders ----------------------------------------------------------------------------------------------

def parse_order(body) -> tuple[list[tuple[int, int]], datetime, int]:
    if not isinstance(body, dict):
        raise bad("body must be an object")
    items = body.get("items")
    if not isinstance(items, list) or not items:
        raise bad("items must be a non-empty list")
    merged: dict[int, int] = {}
    for item in items:
        pid = item.get("product_id") if isinstance(item, dict) else None
        qty = item.get("qty") if isinstance(item, dict) else None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (pid, qty)) or qty <= 0:
            raise bad("each item needs an integer product_id and a positive integer qty")
        merged[pid] = merged.get(pid, 0) + qty
    discount = body.get("discount_pct", 0)
    if not isinstance(discount, int) or isinstance(discount, bool) or not 0 <= discount <= 100:
        raise bad("discount_pct must be an integer from 0 to 100")
    try:
        placed_at = timeutil.parse_instant(body.get("placed_at"))
    except timeutil.TimeError as exc:
        raise bad(str(exc)) from exc
    return sorted(merged.items()), placed_at, discount


def load_order(cur, order_id: int) -> dict | None:
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


def request_hash(body) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def create_order(req: Request):
    items, placed_at, discount = parse_order(req.body)
    key = req.idempotency_key
    if key is not None and not (0 < len(key) <= 200):
        raise bad("Idempotency-Key must be 1 to 200 characters")
    digest = request_hash(req.body)

    def work(cur):
        if key is not None:
            # the insert waits for a concurrent request holding the same key, then sees its outcome
            cur.execute("INSERT INTO idempotency_keys (key, request_hash) VALUES (%s, %s)"
                        " ON CONFLICT (key) DO NOTHING RETURNING key", (key, digest))
            if cur.fetchone() is None:
                cur.execute("SELECT request_hash, status_code, response FROM idempotency_keys WHERE key = %s",
                            (key,))
                stored_hash, status, response = cur.fetchone()
                if stored_hash != digest:
                    raise ApiError(422, "idempotency_mismatch", "the key was used with another body")
                return status, response
        ids = [pid for pid, _ in items]
        cur.execute("SELECT id, price, stock FROM products WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (ids,))
        found = {pid: (price, stock) for pid, price, stock in cur.fetchall()}
        missing = [pid for pid in ids if pid not in found]
        if missing:
            raise ApiError(404, "not_found", f"no product {missing[0]}")
        short = [pid for pid, qty in items if found[pid][1] < qty]
        if short:
            raise ApiError(409, "insufficient_stock", f"not enough stock of product {short[0]}")
        lines = [(pid, qty, found[pid][0], found[pid][0] * qty) for pid, qty in items]
        total = money.discounted(sum(line[3] for line in lines), discount)
        cur.execute("INSERT INTO orders (status, placed_at, discount_pct, total) VALUES ('placed', %s, %s, %s)"
                    " RETURNING id", (placed_at, discount, total))
        order_id = cur.fetchone()[0]
        for pid, qty, unit, line_total in lines:
            cur.execute("INSERT INTO order_items (order_id, product_id, qty, unit_price, line_total)"
                        " VALUES (%s, %s, %s, %s, %s)", (order_id, pid, qty, unit, line_total))
            cur.execute("UPDATE products SET stock = stock - %s WHERE id = %s", (qty, pid))
        response = load_order(cur, order_id)
        if key is not None:
            cur.execute("UPDATE idempotency_keys SET status_code = 201, response = %s WHERE key = %s",
                        (Json(response), key))
        return 201, response
    return req.pool.transaction(work)


def get_order(req: Request):
    order = req.pool.transaction(lambda cur: load_order(cur, int(req.args[0])))
    if order is None:
        raise ApiError(404, "not_found", "no such order")
    return 200, order


def cancel_order(req: Request):
    order_id = int(req.args[0])

    def work(cur):
        cur.execute("UPDATE orders SET status = 'cancelled' WHERE id = %s AND status = 'placed' RETURNING id",
                    (order_id,))
        if cur.fetchone() is None:
            cur.execute("SELECT 1 FROM orders WHERE id = %s", (order_id,))
            if cur.fetchone() is None:
                raise ApiError(404, "not_found", "no such order")
            raise ApiError(409, "not_cancellable", "the order is already cancelled")
        cur.execute("SELECT product_id, qty FROM order_items WHERE order_id = %s ORDER BY product_id",
                    (order_id,))
        for pid, qty in cur.fetchall():
            cur.execute("UPDATE products SET stock = stock + %s WHERE id = %s", (qty, pid))
        return load_order(cur, order_id)
    return 200, req.pool.transaction(work)


def encode_cursor(placed_at: datetime, order_id: int) -> str:
    raw = f"{placed_at.isoformat()}|{order_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(text: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
        stamp, order_id = raw.rsplit("|", 1)
        return datetime.fromisoformat(stamp), int(order_id)
    except (ValueError, UnicodeDecodeError) as exc:
        raise bad("bad cursor") from exc


def list_orders(req: Request):
    try:
        limit = int(req.query.get("limit", "50"))
    except ValueError as exc:
        raise bad("limit must be an integer") from exc
    if not 1 <= limit <= MAX_PAGE:
        raise bad(f"limit must be from 1 to {MAX_PAGE}")
    cursor = req.query.get("cursor")
    after = decode_cursor(cursor) if cursor else None

    def work(cur):
        # keyset pagination: rows inserted meanwhile never shift the pages that follow
        if after is None:
            cur.execute("SELECT id, placed_at FROM orders ORDER BY placed_at DESC, id DESC LIMIT %s", (limit + 1,))
        else:
            cur.execute("SELECT id, placed_at FROM orders WHERE (placed_at, id) < (%s, %s)"
                        " ORDER BY placed_at DESC, id DESC LIMIT %s", (after[0], after[1], limit + 1))
        rows = cur.fetchall()
        page = [load_order(cur, oid) for oid, _ in rows[:limit]]
        nxt = encode_cursor(rows[limit - 1][1], rows[limit - 1][0]) if len(rows) > limit else None
        return page, nxt
    page, nxt = req.pool.transaction(work)
    return 200, {"orders": page, "next_cursor": nxt}


# ---- reports ---------------------------------------------------------------------------------------------

def daily_report(req: Request):
    try:
        tz = timeutil.zone(req.query.get("tz", "UTC"))
        start, end = timeutil.local_day(req.query.get("date"), tz)
    except timeutil.TimeError as exc:
        raise bad(str(exc)) from exc

    def work(cur):
        cur.execute("SELECT count(*), coalesce(sum(total), 0) FROM orders"
                    " WHERE status = 'placed' AND placed_at >= %s AND placed_at < %s", (start, end))
        count, revenue = cur.fetchone()
        cur.execute("SELECT coalesce(sum(i.qty), 0) FROM orders o JOIN order_items i ON i.order_id = o.id"
                    " WHERE o.status = 'placed' AND o.placed_at >= %s AND o.placed_at < %s", (start, end))
        return count, int(cur.fetchone()[0]), revenue
    count, units, revenue = req.pool.transaction(work)
    return 200, {"date": req.query.get("date"), "tz": tz.key, "orders": count, "units": units,
                 "revenue": money.text(revenue)}
LHTB_EOF
cat > /app/inventory/db.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A bounded, thread-safe connection pool and a transaction helper that retries deadlocks."""

from __future__ import annotations

import contextlib
import threading
import time

import psycopg2
import psycopg2.errorcodes

RETRYABLE = {psycopg2.errorcodes.DEADLOCK_DETECTED, psycopg2.errorcodes.SERIALIZATION_FAILURE}


class Pool:
    def __init__(self, dsn: str, size: int = 16) -> None:
        self.dsn = dsn
        self.size = size
        self.idle: list = []
        self.open_count = 0
        self.cond = threading.Condition()

    def acquire(self):
        with self.cond:
            while not self.idle and self.open_count >= self.size:
                self.cond.wait()
            if self.idle:
                return self.idle.pop()
            self.open_count += 1
        try:
            return psycopg2.connect(self.dsn)
        except Exception:
            with self.cond:
                self.open_count -= 1
                self.cond.notify()
            raise

    def release(self, conn) -> None:
        broken = conn.closed != 0
        if not broken:
            try:
                conn.rollback()  # never hand on a connection inside a transaction
            except psycopg2.Error:
                broken = True
        with self.cond:
            if broken:
                self.open_count -= 1
                with contextlib.suppress(Exception):
                    conn.close()
            else:
                self.idle.append(conn)
            self.cond.notify()

    @contextlib.contextmanager
    def connection(self):
        conn = self.acquire()
        try:
            yield conn
        finally:
            self.release(conn)

    def transaction(self, work, attempts: int = 5):
        """Run ``work(cursor)`` in one transaction and commit; retry it on deadlocks and serialization
        failures. Anything it raises rolls the transaction back."""
        for attempt in range(attempts):
            with self.connection() as conn:
                try:
                    with conn.cursor() as cur:
                        result = work(cur)
                    conn.commit()
                    return result
                except psycopg2.Error as exc:
                    conn.rollback()
                    if exc.pgcode not in RETRYABLE or attempt == attempts - 1:
                        raise
                except BaseException:
                    conn.rollback()
                    raise
            time.sleep(0.01 * (attempt + 1))
        raise RuntimeError("unreachable")
LHTB_EOF
cat > /app/inventory/migrate.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Apply ``migrations/NNNN_name.sql`` in numeric order, each once, each in its own transaction."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import psycopg2

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+\.sql$")


def pending(applied: set[str]) -> list[Path]:
    files = [p for p in MIGRATIONS.iterdir() if NAME.match(p.name)]
    files.sort(key=lambda p: (int(NAME.match(p.name).group(1)), p.name))
    return [p for p in files if p.name not in applied]


def run(dsn: str) -> int:
    conn = psycopg2.connect(dsn)
    try:
        with conn, conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(727001)")
            cur.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                        " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        with conn, conn.cursor() as cur:
            cur.execute("SELECT name FROM schema_migrations")
            applied = {row[0] for row in cur.fetchall()}
        for path in pending(applied):
            try:
                with conn, conn.cursor() as cur:
                    cur.execute(path.read_text())
                    cur.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,))
            except psycopg2.Error as exc:
                print(f"migration {path.name} failed: {exc}", file=sys.stderr)
                return 1
            print(f"applied {path.name}")
    finally:
        conn.close()
    return 0
LHTB_EOF
cat > /app/inventory/money.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Money is Decimal with two places, rounded half up; on the wire it is a string like "12.50"."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


class MoneyError(ValueError):
    pass


def parse(text) -> Decimal:
    if not isinstance(text, str):
        raise MoneyError("money must be a string such as \"12.50\"")
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise MoneyError(f"not an amount: {text!r}") from exc
    if not value.is_finite() or value < 0 or value != value.quantize(CENT):
        raise MoneyError(f"not an amount with at most two decimals: {text!r}")
    return value.quantize(CENT)


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def discounted(subtotal: Decimal, discount_pct: int) -> Decimal:
    return cents(subtotal * (100 - discount_pct) / Decimal(100))


def text(value: Decimal) -> str:
    return f"{cents(Decimal(value)):.2f}"
LHTB_EOF
cat > /app/inventory/server.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""HTTP plumbing: a threading server, JSON bodies, routing to ``api`` handlers and error mapping."""

from __future__ import annotations

import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from inventory import api, db

MAX_BODY = 1 << 20
ROUTES = [
    ("GET", re.compile(r"^/health$"), api.health),
    ("POST", re.compile(r"^/products$"), api.create_product),
    ("GET", re.compile(r"^/products/(\d+)$"), api.get_product),
    ("POST", re.compile(r"^/orders$"), api.create_order),
    ("GET", re.compile(r"^/orders$"), api.list_orders),
    ("GET", re.compile(r"^/orders/(\d+)$"), api.get_order),
    ("POST", re.compile(r"^/orders/(\d+)/cancel$"), api.cancel_order),
    ("GET", re.compile(r"^/reports/daily$"), api.daily_report),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "inventory/1.0"

    def log_message(self, fmt, *args) -> None:  # quiet: the access log is not needed
        pass

    def do_GET(self) -> None:
        self.dispatch("GET")

    def do_POST(self) -> None:
        self.dispatch("POST")

    def dispatch(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        try:
            body = self.read_body() if method == "POST" else None
            for verb, pattern, handler in ROUTES:
                match = pattern.match(url.path)
                if match and verb == method:
                    request = api.Request(self.server.pool, match.groups(), query, body,
                                          self.headers.get("Idempotency-Key"))
                    status, payload = handler(request)
                    break
            else:
                raise api.ApiError(404, "not_found", f"no route {method} {url.path}")
        except api.ApiError as exc:
            status, payload = exc.status, {"error": exc.code, "message": exc.message}
        except Exception as exc:  # a bug or a lost database: answer 500, keep serving
            print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
            status, payload = 500, {"error": "internal", "message": type(exc).__name__}
        self.send_json(status, payload)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise api.ApiError(400, "bad_request", "body too large")
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"null")
        except ValueError as exc:
            raise api.ApiError(400, "bad_request", "body is not JSON") from exc

    def send_json(self, status: int, payload) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address, pool: db.Pool) -> None:
        super().__init__(address, Handler)
        self.pool = pool


def serve(dsn: str, host: str, port: int) -> int:
    server = Server((host, port), db.Pool(dsn, size=24))
    print(f"listening on {host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
LHTB_EOF
cat > /app/inventory/timeutil.py <<'LHTB_EOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Instants: RFC 3339 with an offset in, UTC with a ``Z`` out; local calendar days through zoneinfo."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class TimeError(ValueError):
    pass


def parse_instant(text) -> datetime:
    if not isinstance(text, str):
        raise TimeError("placed_at must be a string")
    raw = text.strip()
    if raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    try:
        value = datetime.fromisoformat(raw)
    except ValueError as exc:
        raise TimeError(f"not an RFC 3339 timestamp: {text!r}") from exc
    if value.tzinfo is None:
        raise TimeError(f"timestamp without an offset: {text!r}")
    return value.astimezone(timezone.utc)


def format_instant(value: datetime) -> str:
    value = value.astimezone(timezone.utc)
    if value.microsecond:
        return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def zone(name) -> ZoneInfo:
    if not isinstance(name, str) or not name or ".." in name:
        raise TimeError("tz must be an IANA zone name")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise TimeError(f"unknown time zone {name!r}") from exc


def local_day(day_text, tz: ZoneInfo) -> tuple[datetime, datetime]:
    """[start, end) of the local calendar day ``day_text`` in ``tz``, as UTC instants (23 or 25 hours long on
    the days clocks change)."""
    try:
        day = date.fromisoformat(day_text)
    except (TypeError, ValueError) as exc:
        raise TimeError(f"not a date: {day_text!r}") from exc
    start = datetime.combine(day, time(0), tzinfo=tz)
    end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)
    return start.astimezone(timezone.utc), end.astimezone(timezone.utc)
LHTB_EOF
cat > /app/migrations/0001_products.sql <<'LHTB_EOF'
-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE TABLE products (
    id         bigserial PRIMARY KEY,
    sku        text NOT NULL UNIQUE,
    name       text NOT NULL,
    price      numeric(12, 2) NOT NULL CHECK (price >= 0),
    stock      integer NOT NULL CHECK (stock >= 0),
    created_at timestamptz NOT NULL DEFAULT now()
);
LHTB_EOF
cat > /app/migrations/0002_orders.sql <<'LHTB_EOF'
-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE TABLE orders (
    id           bigserial PRIMARY KEY,
    status       text NOT NULL CHECK (status IN ('placed', 'cancelled')),
    placed_at    timestamptz NOT NULL,
    discount_pct integer NOT NULL DEFAULT 0 CHECK (discount_pct BETWEEN 0 AND 100),
    total        numeric(12, 2) NOT NULL CHECK (total >= 0),
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE order_items (
    order_id   bigint NOT NULL REFERENCES orders (id),
    product_id bigint NOT NULL REFERENCES products (id),
    qty        integer NOT NULL CHECK (qty > 0),
    unit_price numeric(12, 2) NOT NULL,
    line_total numeric(12, 2) NOT NULL,
    PRIMARY KEY (order_id, product_id)
);
LHTB_EOF
cat > /app/migrations/0003_idempotency.sql <<'LHTB_EOF'
-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
CREATE TABLE idempotency_keys (
    key          text PRIMARY KEY,
    request_hash text NOT NULL,
    status_code  integer,
    response     jsonb,
    created_at   timestamptz NOT NULL DEFAULT now()
);
LHTB_EOF
cat > /app/migrations/0004_indexes.sql <<'LHTB_EOF'
-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
-- listing (newest first, keyset) and the daily report (a range of placed_at) read orders by placed_at
CREATE INDEX orders_placed_at_id ON orders (placed_at DESC, id DESC);
CREATE INDEX order_items_product ON order_items (product_id);
LHTB_EOF
find /app -name __pycache__ -prune -exec rm -rf {} +
