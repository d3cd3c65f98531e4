#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: a right-hand wall follower. Never optimal, and it circles forever around an island of
# wall in a maze with loops (it gives up when it repeats a state and prints the moves so far).
set -euo pipefail
cat > /app/solver.py <<'PY'
import sys

rows = [line for line in open(sys.argv[1]).read().splitlines() if line]
DIRS = [("U", -1, 0), ("R", 0, 1), ("D", 1, 0), ("L", 0, -1)]  # clockwise
pos = next((r, row.index("S")) for r, row in enumerate(rows) if "S" in row)
heading = 0
moves, seen = [], set()
while rows[pos[0]][pos[1]] != "G" and (pos, heading) not in seen:
    seen.add((pos, heading))
    for turn in (1, 0, 3, 2):  # right, straight, left, back
        d = (heading + turn) % 4
        name, dr, dc = DIRS[d]
        r, c = pos[0] + dr, pos[1] + dc
        if rows[r][c] != "#":
            pos, heading = (r, c), d
            moves.append(name)
            break
print("".join(moves))
PY
cd /app && python3 solver.py mazes/level-1.txt > /dev/null
