# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A small thread-safe connection pool."""

from __future__ import annotations

import threading

import psycopg2


class Pool:
    def __init__(self, dsn: str, size: int = 16) -> None:
        self.dsn = dsn
        self.size = size
        self.idle: list = []
        self.in_use: set = set()  # for the stats endpoint we never finished
        self.lock = threading.Lock()

    def get(self):
        with self.lock:
            if self.idle:
                conn = self.idle.pop()
                self.in_use.add(conn)
                return conn
        conn = psycopg2.connect(self.dsn)
        with self.lock:
            self.in_use.add(conn)
        return conn

    def put(self, conn) -> None:
        with self.lock:
            self.in_use.discard(conn)
            if len(self.idle) < self.size:
                self.idle.append(conn)
                return
        conn.close()
