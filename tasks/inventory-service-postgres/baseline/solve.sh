#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: repairs the migration runner only (numeric order, each file once, recorded after it ran, one
# transaction per file). The schema keeps floats and naive timestamps; races, idempotency, pagination,
# money, time zones, cancellation and the connection leaks are left alone.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path

path = Path("/app/inventory/migrate.py")
src = path.read_text()
fixes = [
    ("    for name in sorted(os.listdir(MIGRATIONS)):\n",
     "    cur.execute(\"SELECT name FROM schema_migrations\")\n"
     "    applied = {row[0] for row in cur.fetchall()}\n"
     "    names = [n for n in os.listdir(MIGRATIONS) if n.endswith(\".sql\") and n.split(\"_\")[0].isdigit()]\n"
     "    for name in sorted(names, key=lambda n: int(n.split(\"_\")[0])):\n"
     "        if name in applied:\n"
     "            continue\n"),
    ("        cur.execute(\"INSERT INTO schema_migrations (name) VALUES (%s) ON CONFLICT DO NOTHING\", (name,))\n"
     "        try:\n"
     "            cur.execute((MIGRATIONS / name).read_text())\n",
     "        try:\n"
     "            cur.execute(\"BEGIN\")\n"
     "            cur.execute((MIGRATIONS / name).read_text())\n"
     "            cur.execute(\"INSERT INTO schema_migrations (name) VALUES (%s)\", (name,))\n"
     "            cur.execute(\"COMMIT\")\n"),
]
for old, new in fixes:
    assert old in src, old
    src = src.replace(old, new)
path.write_text(src)
PY
