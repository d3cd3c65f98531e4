#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: repairs the filter core only - calibration keys, angle wrapping, both Jacobians and the
# zero-velocity bias update. The log handling stays as shipped: counters are not unwrapped, encoder_sign and
# deg/s are wrong, MCU stamps are never mapped to host time, records are taken in file order with repeats, there
# is no gate and no association of unread ids, a silent gyro holds its last rate, lost frames drop motion.
# Clean runs are tracked as well as the reference; every other family fails.
set -euo pipefail
cp /solution/odoekf/*.py /app/odoekf/
cd /app
python3 localize.py --log examples/aisle-a.odolog --map examples/aisle-a.map.csv --out /tmp/aisle-a.csv
python3 tools/evaluate.py /tmp/aisle-a.csv examples/aisle-a.truth.csv
