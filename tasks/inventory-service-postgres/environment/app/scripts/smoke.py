# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Replay the example of the README against a running service on a fresh database.

    python3 scripts/smoke.py PORT
"""

from __future__ import annotations

import http.client
import json
import sys


def call(port: int, method: str, path: str, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data) if data else None
    finally:
        conn.close()


def main() -> int:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
    steps = [
        ("GET", "/health", None),
        ("POST", "/products", {"sku": "MUG-01", "name": "Mug", "price": "7.45", "stock": 10}),
        ("POST", "/orders", {"items": [{"product_id": 1, "qty": 3}], "placed_at": "2026-03-01T23:30:00-05:00",
                             "discount_pct": 10}),
        ("GET", "/orders/1", None),
        ("GET", "/products/1", None),
        ("GET", "/orders?limit=10", None),
        ("GET", "/reports/daily?date=2026-03-01&tz=America/New_York", None),
    ]
    for method, path, body in steps:
        status, payload = call(port, method, path, body)
        print(f"{method} {path} -> {status} {json.dumps(payload)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
