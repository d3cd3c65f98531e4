#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the read path (newest segment first, half-open scans without tombstones) and replays
# tombstones from the WAL, and the compaction merge order; leaves group commit, torn-log handling,
# flush/compaction ordering and the write amplification alone.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path

path = Path("/app/kvstore/store.py")
src = path.read_text()
fixes = [
    ("        for _name, table in self.segments:\n            if key in table:",
     "        for _name, table in reversed(self.segments):\n            if key in table:"),
    ("if start <= k <= end]", "if start <= k < end and v[0] == records.PUT]"),
    ("            for _name, table in reversed(self.segments):\n                merged.update(table)",
     "            for _name, table in self.segments:\n                merged.update(table)"),
    ("            if op == records.PUT:\n                self.memtable[key] = (op, value)",
     "            self.memtable[key] = (op, value)"),
]
for old, new in fixes:
    assert old in src, old
    src = src.replace(old, new)
path.write_text(src)
PY
