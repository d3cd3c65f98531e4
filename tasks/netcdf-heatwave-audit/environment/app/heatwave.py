# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: python3 heatwave.py DATA_DIR --regions REGIONS.json --out REPORT.json"""

from __future__ import annotations

import argparse
import sys

from hwaudit.config import load_config
from hwaudit.record import load_record
from hwaudit.report import build_report, write_report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regional heatwave statistics from daily tasmax NetCDF files.")
    parser.add_argument("data_dir", help="directory of *.nc files (any names, any split)")
    parser.add_argument("--regions", required=True, help="regions.json: periods, percentile, window, boxes")
    parser.add_argument("--out", required=True, help="where to write the JSON report")
    args = parser.parse_args(argv)
    config = load_config(args.regions)
    record = load_record(args.data_dir, config.regions)
    write_report(build_report(record, config), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
