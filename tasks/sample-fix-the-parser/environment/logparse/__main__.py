# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: ``python3 -m logparse FILE`` prints the JSON statistics of one log file."""

import argparse
import json
import sys

from logparse.parser import parse_file, summarize


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="logparse", description="Summarise a service log as JSON.")
    parser.add_argument("file", help="path of the log file")
    args = parser.parse_args(argv)
    try:
        entries, malformed = parse_file(args.file)
    except OSError as exc:
        print(f"logparse: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    print(json.dumps(summarize(entries, malformed), indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
