# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""python3 -m recur RULE START N  |  python3 -m recur --batch FILE"""

import re
import sys

from recur.engine import occurrences
from recur.errors import RuleError
from recur.timefmt import format_occurrence


def run_one(rule, start, count):
    if not re.fullmatch(r"\d+", count.strip()):
        raise RuleError(f"bad N: {count!r}")
    return occurrences(rule, start, int(count))


def main(argv):
    if len(argv) == 2 and argv[0] == "--batch":
        with open(argv[1], encoding="utf-8") as handle:
            for line in handle.read().splitlines():
                fields = line.split("\t")
                try:
                    if len(fields) != 3:
                        raise RuleError("a batch line needs RULE, START and N separated by tabs")
                    found = run_one(*fields)
                except RuleError:
                    print("error")
                    continue
                print(" ".join(format_occurrence(d) for d in found))
        return 0
    if len(argv) != 3:
        print("usage: python3 -m recur RULE START N", file=sys.stderr)
        return 2
    try:
        found = run_one(*argv)
    except RuleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for when in found:
        print(format_occurrence(when))
    return 0


sys.exit(main(sys.argv[1:]))
