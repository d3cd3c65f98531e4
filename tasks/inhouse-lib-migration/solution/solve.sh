#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the migrated invctl (int cents, aware dates, explicit LedgerConfig with half-up rounding and
# minus-style negatives, 1.x input rules and messages kept, v1 data directories upgraded on load), then the
# public examples are replayed.
set -euo pipefail
cp /solution/invctl/*.py /app/invctl/
cd /app
python3 -m pytest -q -p no:cacheprovider tests
