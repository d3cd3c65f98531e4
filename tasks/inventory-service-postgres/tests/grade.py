# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of inventory-service-postgres: fresh PostgreSQL databases, the agent's migrations, the agent's
service under CPU limits, and seeded workloads judged on invariants and final states (read back from the
database itself), never on timings or interleavings.

Races are forced, not hoped for: the verifier holds a row lock on the product (or order) under contention,
fires the concurrent requests, waits until every one of them is blocked inside PostgreSQL (pg_stat_activity),
and only then lets them go. A read-modify-write service has then read stale stock in every request, so a
lost update always shows; a correct one (row locks or conditional updates) always ends in the one legal state.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import time
from datetime import datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

import psycopg2
import psycopg2.errors
from harness import Cluster, Service, call, migrate, parallel, safe_call

from lhtb.grading import Scorecard, stress

SEED = stress.seed_from_env(7311)
LOCK_GUARD_SEC = 60.0  # wall-clock guard only: a concurrent service gets there in well under a second
CENT = Decimal("0.01")
ZONES = {  # zone: dates to report on (clock changes included)
    "America/New_York": ["2026-03-08", "2026-11-01", "2026-06-15"],
    "Europe/Berlin": ["2026-03-29", "2026-10-25", "2026-01-31"],
    "Australia/Sydney": ["2026-04-05", "2026-10-04", "2026-12-31"],
    "Asia/Kolkata": ["2026-02-28", "2026-07-04", "2026-12-31"],
    "Pacific/Auckland": ["2026-04-05", "2026-09-27", "2026-05-20"],
    "America/Los_Angeles": ["2026-03-08", "2026-11-01", "2026-08-01"],
}
OFFSETS = [0, 330, -480, 585, -210, 840, 60, -300]  # minutes east of UTC used to write placed_at


class Fail(Exception):
    pass


def expect(cond: bool, message: str) -> None:
    if not cond:
        raise Fail(message)


class Grader:
    def __init__(self) -> None:
        self.cluster = Cluster()
        self.count = itertools.count(1)
        self.notes: list[str] = []
        self.guard_misses = 0

    # ---- sessions -------------------------------------------------------------------------------------
    def fresh_db(self, label: str) -> str:
        db = f"{label}_{next(self.count)}"
        self.cluster.create_db(db)
        return db

    @contextlib.contextmanager
    def session(self, label: str):
        db = self.fresh_db(label)
        run = migrate(self.cluster, db)
        expect(run.ok, f"migrate: {run.note}")
        svc = Service(self.cluster, db)
        try:
            expect(svc.start(), "the service did not answer GET /health")
            yield db, svc
        finally:
            svc.stop()

    def sql(self, db: str, query: str, args=()):
        with contextlib.closing(self.cluster.admin(db)) as conn, conn.cursor() as cur:
            cur.execute(query, args)
            return cur.fetchall() if cur.description else None

    def waiting(self, db: str) -> int:
        return self.sql(db, "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND usename = 'app'"
                            " AND wait_event_type = 'Lock'", (db,))[0][0]

    def locked(self, db: str, lock_sql: str, lock_args, requests: list) -> tuple[list, bool]:
        """Fire ``requests`` while holding the row lock; release once all are blocked in PostgreSQL."""
        conn = self.cluster.admin(db)
        conn.autocommit = False
        try:
            with conn.cursor() as cur:
                cur.execute(lock_sql, lock_args)
            threads, results = parallel(requests)
            guard = LOCK_GUARD_SEC if self.guard_misses < 1 else 0.0  # a serial service pays once
            deadline = time.monotonic() + guard
            reached = False
            while True:
                if self.waiting(db) >= len(requests):
                    reached = True
                    break
                if time.monotonic() > deadline or not any(t.is_alive() for t in threads):
                    break
                time.sleep(0.02)
            if not reached:
                self.guard_misses += 1
            conn.commit()
        finally:
            conn.close()
        for t in threads:
            t.join(120)
        return results, reached

    # ---- API helpers ----------------------------------------------------------------------------------
    def product(self, sku: str, price: Decimal, stock: int) -> int:
        status, body = call("POST", "/products", {"sku": sku, "name": f"Item {sku}", "price": f"{price:.2f}",
                                                  "stock": stock})
        expect(status == 201 and isinstance(body, dict) and isinstance(body.get("id"), int),
               f"POST /products gave {status}")
        return body["id"]


def stamp(instant: datetime, offset_min: int, micro: bool = False) -> str:
    local = instant.astimezone(timezone(timedelta(minutes=offset_min)))
    text = local.isoformat(timespec="microseconds" if micro else "seconds")
    return text.replace("+00:00", "Z") if offset_min == 0 and not micro else text


def parse_instant(text) -> datetime:
    expect(isinstance(text, str), "placed_at is not a string")
    value = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    expect(value.tzinfo is not None, "placed_at without an offset")
    return value


def money(value) -> str:
    return f"{Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP):.2f}"


def expected_total(lines: list, discount: int) -> Decimal:
    subtotal = sum((price * qty for price, qty in lines), Decimal(0))
    return (subtotal * (100 - discount) / Decimal(100)).quantize(CENT, rounding=ROUND_HALF_UP)


def base_instant(rng: random.Random) -> datetime:
    return datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(minutes=rng.randrange(0, 360 * 24 * 60))


def order_body(items: list, placed: datetime, rng: random.Random, discount: int = 0) -> dict:
    body = {"items": [{"product_id": p, "qty": q} for p, q in items], "placed_at": stamp(placed, rng.choice(OFFSETS))}
    if discount or rng.random() < 0.5:
        body["discount_pct"] = discount
    return body


# ---- hidden families ------------------------------------------------------------------------------------------

def storm_case(g: Grader, db: str, i: int) -> bool:
    rng = stress.rng(SEED, "storm", i)
    q, n = rng.randint(1, 4), rng.randint(6, 10)
    k = rng.randint(1, n - 1)
    stock = k * q + rng.randint(0, q - 1)
    pid = g.product(f"storm-{i}", Decimal(rng.randint(100, 9999)) / 100, stock)
    when = base_instant(rng)
    reqs = [("POST", "/orders", order_body([(pid, q)], when + timedelta(seconds=j), rng)) for j in range(n)]
    results, reached = g.locked(db, "SELECT 1 FROM products WHERE id = %s FOR UPDATE", (pid,), reqs)
    expect(reached, "the concurrent reservations were not all in the database at once")
    codes = sorted(code for code, _ in results)
    expect(codes == [201] * k + [409] * (n - k), f"locked storm: statuses {codes}, want {k}x201 {n - k}x409")
    left = g.sql(db, "SELECT stock FROM products WHERE id = %s", (pid,))[0][0]
    expect(left == stock - k * q, f"stock {left} after the storm, want {stock - k * q}")
    sold = g.sql(db, "SELECT coalesce(sum(qty), 0), count(*) FROM order_items WHERE product_id = %s", (pid,))[0]
    expect((int(sold[0]), sold[1]) == (k * q, k), f"order_items hold {sold}, want ({k * q}, {k})")
    # a free-running storm over several products: invariants only
    stocks = {g.product(f"storm-{i}-{m}", Decimal(rng.randint(100, 5000)) / 100, rng.randint(8, 20)): 0
              for m in range(3)}
    for p in stocks:
        stocks[p] = g.sql(db, "SELECT stock FROM products WHERE id = %s", (p,))[0][0]
    pids = list(stocks)
    reqs = []
    for j in range(24):
        chosen = rng.sample(pids, rng.randint(1, 2))
        reqs.append(("POST", "/orders", order_body([(p, rng.randint(1, 3)) for p in chosen],
                                                   when + timedelta(minutes=j), rng)))
    threads, results = parallel(reqs)
    for t in threads:
        t.join(120)
    codes = {code for code, _ in results}
    expect(codes <= {201, 409}, f"free storm: statuses {sorted(codes)}")
    ok_ids = {body["id"] for code, body in results if code == 201}
    rows = g.sql(db, "SELECT DISTINCT order_id FROM order_items WHERE product_id = ANY(%s)", (pids,))
    expect({r[0] for r in rows} == ok_ids, "the orders in the database differ from the 201 answers")
    for p, initial in stocks.items():
        now = g.sql(db, "SELECT stock FROM products WHERE id = %s", (p,))[0][0]
        sold = g.sql(db, "SELECT coalesce(sum(i.qty), 0) FROM order_items i JOIN orders o ON o.id = i.order_id"
                         " WHERE i.product_id = %s AND o.status = 'placed'", (p,))[0][0]
        expect(now >= 0 and now + int(sold) == initial, f"product {p}: stock {now} + sold {sold} != {initial}")
    return True


def idempotency_case(g: Grader, db: str, i: int, replays: list) -> bool:
    rng = stress.rng(SEED, "idempotency", i)
    pid = g.product(f"idem-{i}", Decimal(rng.randint(100, 9999)) / 100, 500)
    when = base_instant(rng)
    count = lambda: g.sql(db, "SELECT count(*) FROM orders")[0][0]  # noqa: E731
    before = count()
    key = f"k-{SEED % 100000}-{i}-{rng.randrange(10 ** 9)}"
    body = order_body([(pid, rng.randint(1, 5))], when, rng)
    first = call("POST", "/orders", body, {"Idempotency-Key": key})
    expect(first[0] == 201, f"first POST gave {first[0]}")
    for _ in range(rng.randint(1, 3)):
        again = call("POST", "/orders", body, {"Idempotency-Key": key})
        expect(again == first, "a retry with the same key gave another answer")
    expect(count() == before + 1, "a retried request created another order")
    other = dict(body, items=[{"product_id": pid, "qty": body["items"][0]["qty"] + 1}])
    status, _ = call("POST", "/orders", other, {"Idempotency-Key": key})
    expect(status == 422, f"the same key with another body gave {status}, want 422")
    # concurrent duplicates, released together
    key2 = key + "-c"
    body2 = order_body([(pid, rng.randint(1, 5))], when + timedelta(hours=1), rng)
    n = rng.randint(3, 5)
    results, _ = g.locked(db, "SELECT 1 FROM products WHERE id = %s FOR UPDATE", (pid,),
                          [("POST", "/orders", body2, {"Idempotency-Key": key2})] * n)
    expect(all(r == results[0] for r in results) and results[0][0] == 201,
           f"concurrent duplicates answered {[r[0] for r in results]} or differing bodies")
    expect(count() == before + 2, "concurrent duplicates created more than one order")
    stock = g.sql(db, "SELECT stock FROM products WHERE id = %s", (pid,))[0][0]
    expect(stock == 500 - body["items"][0]["qty"] - body2["items"][0]["qty"], f"stock {stock} after retries")
    replays.append((body, key, first))
    return True


def pagination_case(g: Grader, db: str, i: int, known: dict, pid: int) -> bool:
    rng = stress.rng(SEED, "pagination", i)
    instants = [base_instant(rng) for _ in range(rng.randint(3, 6))]
    for _ in range(rng.randint(25, 45)):
        placed = rng.choice(instants)
        status, body = call("POST", "/orders", order_body([(pid, 1)], placed, rng))
        expect(status == 201, f"POST /orders gave {status}")
        known[body["id"]] = placed
    want = sorted(known, key=lambda oid: (known[oid], oid), reverse=True)
    limit = rng.randint(3, 9)
    newest = max(known.values())
    got, cursor, pages = [], None, 0
    while True:
        path = f"/orders?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        status, page = call("GET", path)
        expect(status == 200 and isinstance(page, dict) and isinstance(page.get("orders"), list),
               f"GET {path} gave {status}")
        expect(len(page["orders"]) <= limit, "a page longer than limit")
        for order in page["orders"]:
            if order.get("id") in known:
                expect(parse_instant(order.get("placed_at")) == known[order["id"]],
                       "placed_at differs from the instant posted")
            got.append(order.get("id"))
        pages += 1
        expect(pages <= len(want) + 5, "the walk does not end")
        cursor = page.get("next_cursor")
        if not cursor:
            break
        for _ in range(rng.randint(1, 2)):  # newer orders arrive while the client pages
            newest += timedelta(seconds=rng.randint(1, 90))
            status, body = call("POST", "/orders", order_body([(pid, 1)], newest, rng))
            expect(status == 201, f"POST /orders gave {status}")
            known[body["id"]] = newest
    expect(got == want, f"the walk returned {len(got)} orders ({len(set(got))} distinct), want {len(want)} in order")
    return True


def money_case(g: Grader, i: int) -> bool:
    rng = stress.rng(SEED, "money", i)
    prices = {}
    for m in range(3):
        price = Decimal(rng.choice([rng.randint(1, 99), rng.randint(100, 99999), rng.choice([5, 15, 25, 35, 45])])) / 100
        pid = g.product(f"money-{i}-{m}", price, 10000)
        status, body = call("GET", f"/products/{pid}")
        expect(status == 200 and body.get("price") == f"{price:.2f}", f"GET /products/{pid} price {body}")
        prices[pid] = price
    for j in range(6):
        chosen = rng.sample(list(prices), rng.randint(1, 3))
        items = [(p, rng.randint(1, 13)) for p in chosen]
        discount = rng.choice([0, 5, 7, 10, 12, 15, 25, 33, 50, 99, 100])
        status, body = call("POST", "/orders", order_body(items, base_instant(rng), rng, discount))
        expect(status == 201, f"POST /orders gave {status}")
        total = expected_total([(prices[p], q) for p, q in items], discount)
        expect(body.get("total") == f"{total:.2f}", f"total {body.get('total')!r}, want {total:.2f}")
        lines = {it.get("product_id"): it for it in body.get("items", [])}
        for p, q in items:
            line = lines.get(p, {})
            expect(line.get("unit_price") == f"{prices[p]:.2f}" and line.get("line_total") == f"{prices[p] * q:.2f}",
                   f"line {line}")
        stored = g.sql(g.money_db, "SELECT total FROM orders WHERE id = %s", (body["id"],))[0][0]
        expect(Decimal(stored) == total, f"orders.total {stored}, want {total}")
    return True


def reports_case(g: Grader, i: int, orders: list, pid_price: tuple) -> bool:
    rng = stress.rng(SEED, "reports", i)
    pid, price = pid_price
    zone_name = sorted(ZONES)[rng.randrange(len(ZONES))]
    tz = ZoneInfo(zone_name)
    days = rng.sample(ZONES[zone_name], 2)
    for day in days:
        midnight = datetime.fromisoformat(day).replace(tzinfo=tz).astimezone(timezone.utc)
        for _ in range(rng.randint(6, 10)):
            placed = midnight + timedelta(minutes=rng.randint(-120, 26 * 60 + 120), seconds=rng.randint(0, 59))
            qty, discount = rng.randint(1, 4), rng.choice([0, 10, 15, 33])
            status, body = call("POST", "/orders", order_body([(pid, qty)], placed, rng, discount))
            expect(status == 201, f"POST /orders gave {status}")
            orders.append({"id": body["id"], "at": placed, "qty": qty, "status": "placed",
                           "total": expected_total([(price, qty)], discount)})
    for order in rng.sample(orders, 2):
        if order["status"] == "placed":
            status, _ = call("POST", f"/orders/{order['id']}/cancel")
            expect(status == 200, f"cancel gave {status}")
            order["status"] = "cancelled"
    for day in days:
        local = [o for o in orders if o["status"] == "placed" and o["at"].astimezone(tz).date().isoformat() == day]
        want = {"orders": len(local), "units": sum(o["qty"] for o in local),
                "revenue": f"{sum((o['total'] for o in local), Decimal(0)):.2f}"}
        status, body = call("GET", f"/reports/daily?date={day}&tz={zone_name}")
        expect(status == 200 and isinstance(body, dict), f"report gave {status}")
        got = {k: body.get(k) for k in want}
        expect(got == want, f"{zone_name} {day}: {got}, want {want}")
    return True


def cancel_case(g: Grader, db: str, i: int) -> bool:
    rng = stress.rng(SEED, "cancel", i)
    stock = rng.randint(30, 60)
    pid = g.product(f"cancel-{i}", Decimal(rng.randint(100, 9999)) / 100, stock)
    ids, qtys = [], []
    for j in range(3):
        qty = rng.randint(1, 5)
        status, body = call("POST", "/orders", order_body([(pid, qty)], base_instant(rng), rng))
        expect(status == 201, f"POST /orders gave {status}")
        ids.append(body["id"])
        qtys.append(qty)
    first = call("POST", f"/orders/{ids[0]}/cancel")
    expect(first[0] == 200 and first[1].get("status") == "cancelled", f"cancel gave {first[0]}")
    again = call("POST", f"/orders/{ids[0]}/cancel")
    expect(again[0] == 409, f"a second cancel gave {again[0]}, want 409")
    n = rng.randint(3, 6)
    results, _ = g.locked(db, "SELECT 1 FROM orders WHERE id = %s FOR UPDATE", (ids[1],),
                          [("POST", f"/orders/{ids[1]}/cancel", None, None)] * n)
    codes = sorted(r[0] for r in results)
    expect(codes == [200] + [409] * (n - 1), f"concurrent cancels answered {codes}")
    missing = call("POST", f"/orders/{max(ids) + 100000}/cancel")
    expect(missing[0] == 404, f"cancelling a missing order gave {missing[0]}")
    left = g.sql(db, "SELECT stock FROM products WHERE id = %s", (pid,))[0][0]
    expect(left == stock - qtys[2], f"stock {left} after cancels, want {stock - qtys[2]}")
    status, body = call("GET", f"/orders/{ids[0]}")
    expect(status == 200 and body.get("status") == "cancelled", "GET of a cancelled order")
    status, body = call("GET", f"/products/{pid}")
    expect(status == 200 and body.get("stock") == left, "GET /products stock differs from the database")
    return True


def run_cases(g: Grader, family: str, n: int, case) -> list:
    out = []
    for i in range(n):
        try:
            out.append(bool(case(i)))
        except (Fail, OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, psycopg2.Error) as exc:
            g.notes.append(f"{family}[{i}]: {type(exc).__name__}: {exc}"[:300])
            out.append(False)
    return out


def family_storm(g: Grader) -> list:
    with g.session("storm") as (db, _):
        return run_cases(g, "storm", 5, lambda i: storm_case(g, db, i))


def family_idempotency(g: Grader) -> list:
    replays: list = []
    with g.session("idem") as (db, svc):
        results = run_cases(g, "idempotency", 4, lambda i: idempotency_case(g, db, i, replays))
        before = g.sql(db, "SELECT count(*) FROM orders")[0][0]
        svc.stop()
        expect(svc.start(), "the service did not come back after a restart")
        for idx, (body, key, first) in enumerate(replays):
            if safe_call("POST", "/orders", body, {"Idempotency-Key": key}) != first:
                g.notes.append(f"idempotency: a replay after the restart gave another answer (key {key})")
                results[idx] = False
        if g.sql(db, "SELECT count(*) FROM orders")[0][0] != before:
            g.notes.append("idempotency: replays after the restart created orders")
            results = [False] * len(results)
    return results


def family_pagination(g: Grader) -> list:
    known: dict = {}
    with g.session("page") as (db, _):
        pid = g.product("page", Decimal("1.00"), 100000)
        return run_cases(g, "pagination", 4, lambda i: pagination_case(g, db, i, known, pid))


def family_money(g: Grader) -> list:
    with g.session("money") as (db, _):
        g.money_db = db
        return run_cases(g, "money", 4, lambda i: money_case(g, i))


def family_reports(g: Grader) -> list:
    orders: list = []
    with g.session("report") as (db, _):
        price = Decimal("12.35")
        pid = g.product("report", price, 100000)
        return run_cases(g, "reports", 4, lambda i: reports_case(g, i, orders, (pid, price)))


def family_cancel(g: Grader) -> list:
    with g.session("cancel") as (db, _):
        return run_cases(g, "cancel", 4, lambda i: cancel_case(g, db, i))


# ---- fixed hidden checks ------------------------------------------------------------------------------------

def check_migrations(g: Grader) -> bool:
    db = g.fresh_db("migrations")
    run = migrate(g.cluster, db)
    expect(run.ok, f"first migrate: {run.note}")
    g.sql(db, "INSERT INTO products (sku, name, price, stock) VALUES ('m-1', 'kept', 1.25, 3)")
    run = migrate(g.cluster, db)
    expect(run.ok, f"second migrate on a used database: {run.note}")
    rows = g.sql(db, "SELECT name, stock FROM products WHERE sku = 'm-1'")
    expect(rows == [("kept", 3)], "a second migrate lost data")
    for table, cols in {"products": ["id", "sku", "name", "price", "stock"],
                        "orders": ["id", "status", "placed_at", "discount_pct", "total"],
                        "order_items": ["order_id", "product_id", "qty", "unit_price", "line_total"]}.items():
        have = {r[0] for r in g.sql(db, "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
                                    (table,))}
        expect(set(cols) <= have, f"{table} lacks {sorted(set(cols) - have)}")
    return True


def check_schema(g: Grader) -> list:
    out = []
    with g.session("schema") as (db, _):
        types = dict(((t, c), d) for t, c, d in g.sql(
            db, "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = 'public'"))
        want = {("products", "price"): "numeric", ("orders", "total"): "numeric",
                ("order_items", "unit_price"): "numeric", ("order_items", "line_total"): "numeric",
                ("orders", "placed_at"): "timestamp with time zone"}
        out.append(all(types.get(k) == v for k, v in want.items()))
        pid = g.product("schema-1", Decimal("2.50"), 4)
        try:
            g.sql(db, "UPDATE products SET stock = -1 WHERE id = %s", (pid,))
            out.append(False)
        except psycopg2.errors.CheckViolation:
            out.append(True)
        status, _ = call("POST", "/products", {"sku": "schema-1", "name": "again", "price": "1.00", "stock": 1})
        out.append(status == 409 and g.sql(db, "SELECT count(*) FROM products WHERE sku = 'schema-1'")[0][0] == 1)
    return out


def plan_nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from plan_nodes(child)


def check_indexes(g: Grader) -> list:
    db = g.fresh_db("indexes")
    run = migrate(g.cluster, db)
    expect(run.ok, f"migrate: {run.note}")
    queries = [
        "SELECT id, total FROM orders WHERE placed_at >= '2026-03-01T00:00:00Z' AND placed_at < '2026-03-02T00:00:00Z'",
        "SELECT id, placed_at FROM orders WHERE (placed_at, id) < ('2026-03-01T00:00:00Z', 500)"
        " ORDER BY placed_at DESC, id DESC LIMIT 20",
    ]
    out = []
    with contextlib.closing(g.cluster.admin(db)) as conn, conn.cursor() as cur:
        cur.execute("SET enable_seqscan = off")  # a seq scan is then chosen only when no index can serve
        for query in queries:
            cur.execute("EXPLAIN (FORMAT JSON) " + query)
            plan = cur.fetchone()[0][0]["Plan"]
            out.append(not any(n.get("Node Type") == "Seq Scan" and n.get("Relation Name") == "orders"
                               for n in plan_nodes(plan)))
    return out


def check_concurrency(g: Grader) -> bool:
    with g.session("concurrency") as (db, _):
        pid = g.product("conc", Decimal("3.00"), 100)
        when = datetime(2026, 5, 1, tzinfo=timezone.utc)
        rng = stress.rng(SEED, "concurrency")
        reqs = [("POST", "/orders", order_body([(pid, 1)], when, rng))] * 12
        results, reached = g.locked(db, "SELECT 1 FROM products WHERE id = %s FOR UPDATE", (pid,), reqs)
        expect(reached, "12 concurrent orders were not all in the database at once")
        expect(all(r[0] == 201 for r in results), "concurrent orders failed")
        expect(g.sql(db, "SELECT stock FROM products WHERE id = %s", (pid,))[0][0] == 88, "stock after 12 orders")
    return True


def check_connections(g: Grader) -> bool:
    with g.session("connections") as (db, _):
        pid = g.product("conn", Decimal("4.00"), 2)
        when = "2026-05-01T10:00:00Z"
        bad = [("GET", "/products/999999", None, None), ("POST", "/orders", {"items": [{"product_id": pid, "qty": 50}],
                                                                              "placed_at": when}, None),
               ("POST", "/orders", {"items": [{"product_id": 999999, "qty": 1}], "placed_at": when}, None),
               ("POST", "/orders/999999/cancel", None, None), ("GET", "/orders/999999", None, None)]
        for j in range(60):
            safe_call(*bad[j % len(bad)])
        safe_call("POST", "/orders", raw=b"{not json")
        threads, _ = parallel(bad * 3)
        for t in threads:
            t.join(60)
        deadline = time.monotonic() + 10
        while True:
            rows = g.sql(db, "SELECT state, count(*) FROM pg_stat_activity WHERE datname = %s AND usename = 'app'"
                             " GROUP BY state", (db,))
            states = dict(rows)
            total = sum(states.values())
            if states.get("idle in transaction", 0) == 0 and total <= 30:
                break
            expect(time.monotonic() < deadline, f"connections after errors: {states}")
            time.sleep(0.2)
        status, body = call("POST", "/orders", {"items": [{"product_id": pid, "qty": 1}], "placed_at": when})
        expect(status == 201, f"an order after the errors gave {status}")
        expect(g.sql(db, "SELECT count(*) FROM orders WHERE id = %s", (body.get("id"),))[0][0] == 1,
               "the order is not in the database")
    return True


def check_durability(g: Grader) -> bool:
    with g.session("durable") as (db, svc):
        rng = stress.rng(SEED, "durability")
        pids = [g.product(f"d-{m}", Decimal(rng.randint(100, 9999)) / 100, 50) for m in range(4)]
        oids = []
        for j in range(8):
            status, body = call("POST", "/orders", order_body([(rng.choice(pids), rng.randint(1, 4))],
                                                              base_instant(rng), rng))
            expect(status == 201, f"POST /orders gave {status}")
            oids.append(body["id"])
        for oid in oids[:2]:
            expect(call("POST", f"/orders/{oid}/cancel")[0] == 200, "cancel failed")
        paths = [f"/products/{p}" for p in pids] + [f"/orders/{o}" for o in oids]
        before = [call("GET", p) for p in paths]
        svc.stop()
        expect(svc.start(), "the service did not come back after being killed")
        after = [call("GET", p) for p in paths]
        expect(before == after and all(s == 200 for s, _ in after), "answers changed across a restart")
        expect(g.sql(db, "SELECT count(*) FROM orders")[0][0] == 8, "the database does not hold the 8 orders")
    return True


# ---- public checks ---------------------------------------------------------------------------------------------

def check_public_example(g: Grader) -> bool:
    with g.session("public") as (db, _):
        status, prod = call("POST", "/products", {"sku": "MUG-01", "name": "Mug", "price": "7.45", "stock": 10})
        expect(status == 201 and prod == {"id": prod.get("id"), "sku": "MUG-01", "name": "Mug", "price": "7.45",
                                          "stock": 10}, f"POST /products: {status} {prod}")
        status, order = call("POST", "/orders", {"items": [{"product_id": prod["id"], "qty": 3}],
                                                  "placed_at": "2026-03-01T23:30:00-05:00", "discount_pct": 10})
        expect(status == 201 and order.get("total") == "20.12" and order.get("status") == "placed",
               f"POST /orders: {status} {order}")
        expect(parse_instant(order["placed_at"]) == datetime(2026, 3, 2, 4, 30, tzinfo=timezone.utc),
               "placed_at")
        status, again = call("GET", f"/orders/{order['id']}")
        expect(status == 200 and again == order, "GET /orders/{id}")
        status, left = call("GET", f"/products/{prod['id']}")
        expect(status == 200 and left.get("stock") == 7, "stock after the order")
    return True


def check_public_health(g: Grader) -> bool:
    with g.session("health"):
        return True


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    g = Grader()
    started = time.monotonic()

    def timed(check):  # progress on stdout for the log; never part of a score
        def run():
            try:
                return check(g)
            finally:
                print(f"{check.__name__}: done at {time.monotonic() - started:.1f} s", flush=True)
        return run

    try:
        card.binary("public_migrate_and_health", 0.25, timed(check_public_health), visibility="public")
        card.binary("public_example_order", 0.25, timed(check_public_example), visibility="public")
        card.binary("migrations_fresh_and_rerun", 1, timed(check_migrations))
        card.fraction("schema_types_and_constraints", 0.5, timed(check_schema))
        card.fraction("indexes_for_list_and_report", 0.5, timed(check_indexes))
        card.binary("concurrent_requests", 1, timed(check_concurrency))
        card.binary("restart_durability", 1.5, timed(check_durability))
        card.binary("no_connection_leaks", 1, timed(check_connections))
        card.fraction("stress_reservation_storms", 3, timed(family_storm))
        card.fraction("stress_idempotent_retries", 2, timed(family_idempotency))
        card.fraction("stress_keyset_pagination", 2, timed(family_pagination))
        card.fraction("stress_money_arithmetic", 1.5, timed(family_money))
        card.fraction("stress_daily_reports_tz", 2, timed(family_reports))
        card.fraction("stress_cancel_restock", 1, timed(family_cancel))
    finally:
        g.cluster.stop()
    for note in g.notes[:40]:
        print("note:", note)
    card.write()


if __name__ == "__main__":
    main()
