# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Compare a digitizer result with an expected JSON, the way the examples are judged.

    python3 -m digitizer.compare META.json EXPECTED.json ACTUAL.json

A point's error is |actual - expected| divided by the y axis span (ylim[1] - ylim[0]); on a log axis both
are measured in log10 units. Prints one line per series and a summary.
"""

from __future__ import annotations

import json
import math
import sys

TOLERANCE = 0.01


def point_error(actual, expected: float, ylim, yscale: str) -> float:
    if isinstance(actual, bool) or not isinstance(actual, (int, float)) or not math.isfinite(actual):
        return 1.0
    if yscale == "log":
        if actual <= 0:
            return 1.0
        span = math.log10(ylim[1]) - math.log10(ylim[0])
        return min(1.0, abs(math.log10(actual) - math.log10(expected)) / span)
    return min(1.0, abs(actual - expected) / abs(ylim[1] - ylim[0]))


def compare(meta: dict, expected: dict, actual: dict) -> list[tuple[str, list[float]]]:
    rows = []
    got = actual.get("series", {}) if isinstance(actual, dict) else {}
    for name, truth in expected["series"].items():
        values = got.get(name) if isinstance(got.get(name), list) else []
        values = list(values) + [None] * (len(truth) - len(values))
        rows.append((name, [point_error(v, t, meta["ylim"], meta.get("yscale", "linear"))
                            for v, t in zip(values, truth)]))
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as a, open(argv[2]) as b, open(argv[3]) as c:
        meta, expected, actual = json.load(a), json.load(b), json.load(c)
    total = hits = 0
    for name, errors in compare(meta, expected, actual):
        ok = sum(e <= TOLERANCE for e in errors)
        total += len(errors)
        hits += ok
        worst = max(errors) if errors else 0.0
        print(f"{name:12s} {ok:3d}/{len(errors):3d} within {TOLERANCE:.0%}  worst error {worst:.4f}")
    print(f"total        {hits:3d}/{total:3d}")
    return 0 if hits == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
