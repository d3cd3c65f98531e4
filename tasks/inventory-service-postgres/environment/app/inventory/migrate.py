# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Apply the SQL files in ``migrations/`` and record them in ``schema_migrations``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import psycopg2

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def run(dsn: str) -> int:
    conn = psycopg2.connect(dsn)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
    for name in sorted(os.listdir(MIGRATIONS)):
        if not name.endswith(".sql"):
            continue
        cur.execute("INSERT INTO schema_migrations (name) VALUES (%s) ON CONFLICT DO NOTHING", (name,))
        try:
            cur.execute((MIGRATIONS / name).read_text())
        except psycopg2.Error as exc:
            print(f"migration {name} failed: {exc}", file=sys.stderr)
            return 1
        print(f"applied {name}")
    conn.close()
    return 0
