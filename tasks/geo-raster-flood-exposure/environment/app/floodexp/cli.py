# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: python3 flood_exposure.py SCENARIO.json [--format json|table] [--out FILE] [--describe]."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from floodexp.describe import describe
from floodexp.exposure import compute
from floodexp.manifest import load_scenario
from floodexp.report import to_json, to_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="flood_exposure.py", description=__doc__)
    parser.add_argument("scenario", type=Path, help="the scenario manifest (scenario.json)")
    parser.add_argument("--format", choices=("json", "table"), default="json")
    parser.add_argument("--out", type=Path, help="write the report here instead of standard output")
    parser.add_argument("--describe", action="store_true",
                        help="print what the scenario's files declare (CRS, grid, nodata, scale, unit) and stop")
    args = parser.parse_args(argv)
    try:
        scenario = load_scenario(args.scenario)
        if args.describe:
            print(json.dumps(describe(scenario), indent=2, default=str))
            return 0
        report = compute(scenario)
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"flood_exposure: {exc}", file=sys.stderr)
        return 2
    text = to_json(report) if args.format == "json" else to_table(report)
    if args.out:
        args.out.write_text(text + "\n")
    else:
        print(text)
    return 0
