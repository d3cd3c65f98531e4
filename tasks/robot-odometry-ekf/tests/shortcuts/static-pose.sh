#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: a perfectly formed track with no estimation: every distinct encoder record, stamped in host time by the repaired clock and stream code, gets the initial pose
set -euo pipefail
cp /solution/gold/odoekf/clocks.py /solution/gold/odoekf/streams.py /app/odoekf/
cd /app
cat > localize.py <<'PY'
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from odoekf.angles import wrap
from odoekf.clocks import ClockMap
from odoekf.logfile import EncoderRecord, read_log
from odoekf.streams import event_stream

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--map", required=True)
parser.add_argument("--out", required=True)
args = parser.parse_args()
log = read_log(args.log)
x, y, th = (float(v) for v in log.header["initial_pose"].split())
lines = ["seq,t,x,y,theta"]
for event in event_stream(log, ClockMap.fit(log.syncs)):
    if isinstance(event.record, EncoderRecord):
        lines.append(f"{event.record.seq},{event.time:.6f},{x:.5f},{y:.5f},{wrap(th):.6f}")
Path(args.out).write_text("\n".join(lines) + "\n")
PY
python3 localize.py --log examples/aisle-a.odolog --map examples/aisle-a.map.csv --out /tmp/a.csv
python3 tools/evaluate.py /tmp/a.csv examples/aisle-a.truth.csv
