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
