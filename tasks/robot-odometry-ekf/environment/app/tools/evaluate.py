#!/usr/bin/env python3
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Compare a pose track with the simulator's ground truth.

    python3 tools/evaluate.py POSES.csv TRUTH.csv

Prints the position RMSE, the final position error, the heading RMS error and the largest position error over
the encoder records both files list, and complains about rows that are missing, repeated or malformed.
"""

from __future__ import annotations

import csv
import math
import sys


def read_track(path: str) -> tuple[dict[int, tuple[float, ...]], list[str]]:
    rows: dict[int, tuple[float, ...]] = {}
    problems = []
    with open(path, newline="", encoding="utf-8") as handle:
        for line_no, row in enumerate(csv.DictReader(handle), start=2):
            try:
                seq = int(row["seq"])
                values = tuple(float(row[k]) for k in ("t", "x", "y", "theta"))
            except (KeyError, TypeError, ValueError):
                problems.append(f"line {line_no}: malformed row")
                continue
            if seq in rows:
                problems.append(f"line {line_no}: seq {seq} repeated")
            rows[seq] = values
    return rows, problems


def wrap(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    track, problems = read_track(argv[1])
    truth, _ = read_track(argv[2])
    missing = [s for s in truth if s not in track]
    extra = [s for s in track if s not in truth]
    if missing:
        problems.append(f"{len(missing)} encoder records of the truth have no pose (first: seq {missing[0]})")
    if extra:
        problems.append(f"{len(extra)} poses for records the truth does not list (first: seq {extra[0]})")
    common = [s for s in truth if s in track]
    if not common:
        print("no common records", file=sys.stderr)
        return 1
    pos = [math.hypot(track[s][1] - truth[s][1], track[s][2] - truth[s][2]) for s in common]
    head = [wrap(track[s][3] - truth[s][3]) for s in common]
    clock = max(abs(track[s][0] - truth[s][0]) for s in common)
    print(f"records          {len(common)}")
    print(f"position RMSE    {math.sqrt(sum(e * e for e in pos) / len(pos)):.4f} m")
    print(f"final error      {pos[-1]:.4f} m")
    print(f"heading RMS      {math.sqrt(sum(e * e for e in head) / len(head)):.5f} rad")
    print(f"largest error    {max(pos):.4f} m")
    print(f"largest |dt|     {clock:.6f} s")
    for problem in problems[:20]:
        print("problem:", problem)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
