#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: no database at all, a stub that answers the health check and the instruction's example from canned data
set -euo pipefail
cd /app
cat > inventory/migrate.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
def run(dsn):
    return 0
PY
cat > inventory/server.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ORDER = {"id": 1, "status": "placed", "placed_at": "2026-03-02T04:30:00Z", "discount_pct": 10, "total": "20.12",
         "items": [{"product_id": 1, "qty": 3, "unit_price": "7.45", "line_total": "22.35"}]}
STATE = {"stock": 10}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            return self.reply(200, {"ok": True})
        if self.path.startswith("/orders/"):
            return self.reply(200, ORDER)
        if self.path.startswith("/products/"):
            return self.reply(200, {"id": 1, "sku": "MUG-01", "name": "Mug", "price": "7.45", "stock": STATE["stock"]})
        return self.reply(404, {"error": "not_found"})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/products":
            return self.reply(201, {"id": 1, "sku": "MUG-01", "name": "Mug", "price": "7.45", "stock": 10})
        if self.path == "/orders":
            STATE["stock"] = 7
            return self.reply(201, ORDER)
        return self.reply(404, {"error": "not_found"})


def serve(dsn, host, port):
    ThreadingHTTPServer((host, port), Handler).serve_forever()
PY
