#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: replace the defective modules of syncaudit. Frame rates and time bases as exact fractions;
# every frame decoded without frame-rate conversion and timed by its own pts (start offsets, edit lists and
# VFR included); audio timed from the stream's start time at its own sample rate; every channel, DC removed,
# loudest channel's envelope; flash and beep thresholds relative to each clip's own levels; beeps paired with
# the nearest flash within 500 ms; drift as the regression slope of audio-minus-video offsets; the verdict on
# the worst event; dropped and repeated frames from the 16-bit frame counter; a JSON-safe report.
set -euo pipefail
cp /solution/app/syncaudit/*.py /app/syncaudit/
cp /solution/app/avsync.py /app/avsync.py
cd /app
python3 avsync.py examples/clips/* --out /tmp/gold-report.json
python3 -m pytest -q /app/tests
