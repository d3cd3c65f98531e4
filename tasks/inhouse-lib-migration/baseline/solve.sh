#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: a mechanical migration that makes invctl start and gets int cents and half-up rounding right,
# but keeps ledgerlib 2's defaults elsewhere: negatives in parentheses, ISO-only dates, leftover instalment
# cents on the last parts, and old (ledgerlib 1) data directories are not upgraded.
set -euo pipefail
cp /solution/invctl/*.py /app/invctl/
cd /app
python3 -m pytest -q -p no:cacheprovider tests || true
