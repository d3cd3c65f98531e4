#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: the report is made JSON-safe (numpy booleans and counts cast to bool and int, which was the
# crash) and beep times use the stream's own sample rate instead of 48 kHz. Stream start times, frame
# timestamps, the frame-rate parse, channel layouts, detection thresholds, event pairing, the drift sign,
# the verdict and the frame counter stay broken.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path
p = Path("syncaudit/report.py")
s = p.read_text()
s = s.replace('"in_sync": result.in_sync,', '"in_sync": bool(result.in_sync),')
s = s.replace('"dropped_frames": dropped,', '"dropped_frames": int(dropped),')
p.write_text(s)
p = Path("syncaudit/audio.py")
s = p.read_text()
s = s.replace("    sr = SAMPLE_RATE\n", "    sr = track.sample_rate\n")
p.write_text(s)
PY
