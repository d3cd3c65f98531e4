#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: a crude rewrite that splits every non-comment line on "|" and counts it, with no validation at all.
set -euo pipefail
cd /app
cat > logparse/__main__.py <<'PY'
import json
import sys

entries = []
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    parts = [part.strip() for part in line.split("|")] + ["", "", "", "0"]
    latency = int(parts[3]) if parts[3].isdigit() else 0
    entries.append((parts[0], parts[1].upper(), parts[2], latency))
levels = {level: 0 for level in ("DEBUG", "INFO", "WARN", "ERROR")}
services = {}
for _, level, service, _ in entries:
    levels[level] = levels.get(level, 0) + 1
    services[service] = services.get(service, 0) + 1
latencies = [entry[3] for entry in entries]
count = len(entries)
print(json.dumps({
    "entries": count,
    "malformed": 0,
    "by_level": levels,
    "by_service": services,
    "latency_ms": {"min": min(latencies), "max": max(latencies), "mean": round(sum(latencies) / count, 2)} if count else None,
    "first": min(entry[0] for entry in entries) if count else None,
    "last": max(entry[0] for entry in entries) if count else None,
    "error_rate": round(levels["ERROR"] / count, 4) if count else 0.0,
}))
PY
python3 -m logparse examples/basic.log > /dev/null
