#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: read the answer from container and stream metadata (tags, stream start times) instead of the
# pictures and samples: offset = audio start - video start, counts and drift from tags when present, else 0.
set -euo pipefail
cat > /app/avsync.py <<'PY'
import argparse, json, os, subprocess

parser = argparse.ArgumentParser()
parser.add_argument("clips", nargs="+")
parser.add_argument("--out", required=True)
parser.add_argument("--tolerance-ms", type=float, default=40.0)
args = parser.parse_args()
clips = {}
for path in args.clips:
    info = json.loads(subprocess.run(["ffprobe", "-v", "error", "-of", "json", "-show_format", "-show_streams",
                                      path], capture_output=True, text=True).stdout)
    tags = dict(info.get("format", {}).get("tags", {}))
    starts = {}
    for stream in info.get("streams", []):
        tags.update(stream.get("tags", {}))
        starts.setdefault(stream.get("codec_type"), float(stream.get("start_time", 0) or 0))
    tags = {k.lower(): v for k, v in tags.items()}
    offset = float(tags.get("offset_ms", (starts.get("audio", 0) - starts.get("video", 0)) * 1000))
    clips[os.path.basename(path)] = {
        "offset_ms": offset, "drift_ppm": float(tags.get("drift_ppm", 0)),
        "dropped_frames": int(tags.get("dropped_frames", 0)),
        "duplicated_frames": int(tags.get("duplicated_frames", 0)),
        "in_sync": abs(offset) <= args.tolerance_ms, "events": int(tags.get("events", 7))}
json.dump({"tolerance_ms": args.tolerance_ms, "clips": clips}, open(args.out, "w"))
PY
