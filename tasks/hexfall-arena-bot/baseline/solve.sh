#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the full-column test (always legal now) and plays a one-ply greedy move on a half-right
# model of the rules: it knows gravity and flanking, but not that flanking wraps across the side edges, not
# that hazards blow up, and not that flips are multiplied by the number of lines.
set -euo pipefail
cat > /app/bot <<'PY'
#!/usr/bin/env python3
import sys


def read_state(path):
    lines = open(path).read().splitlines()
    width, height = map(int, lines[1].split()[1:3])
    me = lines[2].split()[1]
    return width, height, me, [list(row) for row in lines[5:5 + height]]


def landing(rows, c):
    r = -1
    for i in range(len(rows)):
        if rows[i][c] in ".^":
            r = i
        else:
            break
    return r


def gain(rows, width, height, r, c, me):
    other = "B" if me == "A" else "A"
    flipped = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if not dr and not dc:
                continue
            n, rr, cc = 0, r + dr, c + dc
            while 0 <= rr < height and 0 <= cc < width and rows[rr][cc] == other:
                n, rr, cc = n + 1, rr + dr, cc + dc
            if n and 0 <= rr < height and 0 <= cc < width and rows[rr][cc] == me:
                flipped += n
    return 1 + 2 * flipped


def main():
    width, height, me, rows = read_state(sys.argv[1])
    order = sorted(range(width), key=lambda c: (abs(c - (width - 1) / 2), c))
    best, best_gain = None, -1
    for c in order:
        r = landing(rows, c)
        if r < 0:
            continue
        g = gain(rows, width, height, r, c, me)
        if g > best_gain:
            best, best_gain = c, g
    print(0 if best is None else best)


main()
PY
chmod 755 /app/bot
