# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: python3 -m kvstore DATA_DIR SCRIPT [--crash-after N] [--crash-in PHASE:K]

SCRIPT has one command per line (blank lines and lines starting with # are ignored):
  put KEY VALUE   -> ok          del KEY -> ok           get KEY -> VALUE or (nil)
  scan FROM TO    -> KEY=VALUE lines for FROM <= KEY < TO in byte order, then "end"
  dump            -> every live KEY=VALUE line in byte order, then "end"
  flush | compact -> ok          stats   -> bytes_written=N fsyncs=N meta_ops=N
"""

from __future__ import annotations

import argparse
import sys

from kvstore import vfs
from kvstore.store import Store


def _phase(text: str) -> tuple:
    name, _, count = text.partition(":")
    if name not in ("flush", "compact") or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError("expected flush:K or compact:K with K >= 1")
    return name, int(count)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="kvstore")
    parser.add_argument("data_dir")
    parser.add_argument("script")
    parser.add_argument("--crash-after", type=int, default=0, help="crash after the N-th acknowledged write")
    parser.add_argument("--crash-in", type=_phase, help="crash at the K-th storage call inside flush/compact")
    args = parser.parse_args(argv)
    if args.crash_in:
        vfs.arm(*args.crash_in)
    store = Store(args.data_dir)
    out = sys.stdout
    writes = 0
    with open(args.script) as handle:
        lines = handle.read().splitlines()
    for line in lines:
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        cmd, rest = parts[0], [p.encode() for p in parts[1:]]
        if cmd == "put":
            store.put(rest[0], rest[1])
        elif cmd == "del":
            store.delete(rest[0])
        elif cmd == "get":
            value = store.get(rest[0])
            out.write((value.decode() if value is not None else "(nil)") + "\n")
            continue
        elif cmd in ("scan", "dump"):
            start, end = (rest[0], rest[1]) if cmd == "scan" else (b"", b"\xff")
            for key, value in store.scan(start, end):
                out.write(f"{key.decode()}={value.decode()}\n")
            out.write("end\n")
            continue
        elif cmd == "flush":
            store.flush()
        elif cmd == "compact":
            store.compact()
        elif cmd == "stats":
            out.write(" ".join(f"{k}={v}" for k, v in vfs.STATS.items()) + "\n")
            continue
        else:
            print(f"unknown command {cmd!r}", file=sys.stderr)
            return 2
        out.write("ok\n")
        if cmd in ("put", "del"):
            writes += 1
            if writes == args.crash_after:
                vfs.crash()
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
