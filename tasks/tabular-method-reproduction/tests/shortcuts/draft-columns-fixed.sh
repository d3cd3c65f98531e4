#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the smallest change that runs everywhere: the draft package with columns read by name, its
# in-sample encoding, missing-as-zero, test-set scaling, stratified split and missing calibration left as shipped
set -euo pipefail
cp /solution/gold/tabmethod/io.py /app/tabmethod/io.py
