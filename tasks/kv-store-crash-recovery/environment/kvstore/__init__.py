# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A small log-structured key-value store: write-ahead log, memtable, sorted segments, compaction."""

from kvstore.store import Store

__all__ = ["Store"]
