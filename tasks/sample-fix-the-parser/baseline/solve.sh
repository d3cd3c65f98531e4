#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes only the crash a naive agent sees first (bytes vs str), misses the other two bugs.
set -euo pipefail
cd /app
sed -i 's/open(path, "rb")/open(path, encoding="utf-8")/' logparse/parser.py
python3 -m logparse examples/basic.log > /dev/null
