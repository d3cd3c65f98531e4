#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: a report that only works on clean exports (exact headers, USD, no duplicates or gaps).
set -euo pipefail
cat > /app/report.py <<'PY'
import csv
import glob
import json
import sys

csv_dir = sys.argv[1] if len(sys.argv) > 1 else "/app/data"
output = sys.argv[2] if len(sys.argv) > 2 else "/app/summary.json"
summary = {"orders": 0, "skipped": 0, "total_usd": 0.0, "by_region": {}, "by_month": {}}
for path in sorted(glob.glob(csv_dir + "/*.csv")):
    with open(path) as handle:
        for row in csv.DictReader(handle):
            amount = float(row["amount"])
            month = row["date"][:7]
            summary["orders"] += 1
            summary["total_usd"] += amount
            summary["by_region"][row["region"]] = summary["by_region"].get(row["region"], 0) + amount
            summary["by_month"][month] = summary["by_month"].get(month, 0) + amount
summary["total_usd"] = round(summary["total_usd"], 2)
for key in ("by_region", "by_month"):
    summary[key] = {k: round(v, 2) for k, v in summary[key].items()}
with open(output, "w") as handle:
    json.dump(summary, handle, indent=2)
PY
cd /app && python3 report.py || true
