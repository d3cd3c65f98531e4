# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: python3 -m labfeed FEED_DIR OUT_DIR"""
import sys
from pathlib import Path

from labfeed.output import write_outputs
from labfeed.pipeline import run_feed


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m labfeed FEED_DIR OUT_DIR", file=sys.stderr)
        return 2
    outcome = run_feed(Path(argv[0]))
    write_outputs(outcome, Path(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
