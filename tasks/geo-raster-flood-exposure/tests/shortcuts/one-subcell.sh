#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold solution but every population cell sampled at its centre only (subcells ignored): people are not spread over the cell, so flood and zone edges inside a cell are missed.
set -euo pipefail
cp /solution/gold/floodexp/*.py /app/floodexp/
python3 - <<'PY'
from pathlib import Path

p = Path("/app/floodexp/exposure.py")
s = p.read_text()
s = s.replace("subcells(pop, scenario.population.kind, scenario.subcells)",
              "subcells(pop, scenario.population.kind, 1)")
p.write_text(s)
PY
