#!/usr/bin/env python3
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Estimate the pose track of a recorded run.

    python3 localize.py --log RUN.odolog --map SITE.csv --out POSES.csv [--stats]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from odoekf.landmarks import LandmarkMap  # noqa: E402
from odoekf.logfile import read_log  # noqa: E402
from odoekf.output import write_track  # noqa: E402
from odoekf.pipeline import localize  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--log", required=True, help="sensor log (.odolog)")
    parser.add_argument("--map", required=True, help="landmark survey (CSV: id,x,y)")
    parser.add_argument("--out", required=True, help="pose track to write (CSV: seq,t,x,y,theta)")
    parser.add_argument("--stats", action="store_true", help="print run statistics as JSON on stderr")
    args = parser.parse_args(argv)
    log = read_log(args.log)
    rows, stats = localize(log, LandmarkMap.read(args.map))
    write_track(args.out, rows)
    if args.stats:
        print(json.dumps(stats.__dict__, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
