#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the package with every defect repaired -
#   encoders.py  counters wrap modulo 2^encoder_bits; encoder_sign applied; a lost frame's delta spans the gap
#   config.py    calibration read from the header's *_m keys; deg/s converted with pi/180 (not 180/pi)
#   clocks.py    least-squares line host = a + c*mcu through the SYN pairs (the draft fitted an offset only)
#   streams.py   every ENC/GYR stamp mapped to host time; repeats dropped; events sorted by time
#   landmarks.py bearings wrapped; the bearing row of H had the x/y signs swapped and lacked the scanner offset
#   ekf.py       heading wrapped after every prediction and correction (output.py: and in the track)
#   motion.py    F has the bias column (d/db of x, y, theta); without it the bias never learns from detections
#   pipeline.py  zero-velocity bias updates while parked; bias random walk while moving; id-0 detections
#                associated by Mahalanobis distance; chi-square gate; wheel heading when the gyro is silent
set -euo pipefail
cp /solution/odoekf/*.py /app/odoekf/
cd /app
python3 localize.py --log examples/aisle-b.odolog --map examples/aisle-b.map.csv --out /tmp/aisle-b.csv
python3 tools/evaluate.py /tmp/aisle-b.csv examples/aisle-b.truth.csv
