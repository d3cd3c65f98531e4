# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Recover the data series of a chart: python3 digitize.py CHART.png META.json  (JSON on stdout)."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from digitizer.report import digitize  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: digitize.py CHART.png META.json", file=sys.stderr)
        return 2
    result = digitize(argv[1], argv[2])
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
