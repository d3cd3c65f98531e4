"""``lhtb view --serve``: serve the site with http.server on the loopback interface only."""

from __future__ import annotations

import functools
import http.server
from collections.abc import Callable
from pathlib import Path

HOST = "127.0.0.1"  # never 0.0.0.0: result files hold agent output and the site is for the local user


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def make_server(directory: Path, port: int) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((HOST, port), handler)


def serve(directory: Path, port: int, on_ready: Callable[[str], None]) -> None:
    """Serve until Ctrl-C; ``on_ready`` gets the URL (with the real port when ``port`` is 0)."""
    server = make_server(directory, port)
    try:
        on_ready(f"http://{HOST}:{server.server_address[1]}/")
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
