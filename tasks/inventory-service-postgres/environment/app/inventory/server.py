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
    server = Server((host, port), db.Pool(dsn))
    print(f"listening on {host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
