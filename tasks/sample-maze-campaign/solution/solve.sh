#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: a breadth-first-search solver (shortest path), checked on the public campaign.
set -euo pipefail
cat > /app/solver.py <<'PY'
"""Print a shortest move string for a maze file: python3 solver.py MAZE_FILE."""

import sys
from collections import deque

STEPS = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))


def solve(rows):
    find = lambda ch: next((r, row.index(ch)) for r, row in enumerate(rows) if ch in row)
    start, goal = find("S"), find("G")
    came_from = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for move, dr, dc in STEPS:
            r, c = here[0] + dr, here[1] + dc
            if 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] != "#" and (r, c) not in came_from:
                came_from[(r, c)] = (here, move)
                queue.append((r, c))
    path = []
    node = goal
    while came_from[node] is not None:
        node, move = came_from[node]
        path.append(move)
    return "".join(reversed(path))


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        print(solve([line for line in handle.read().splitlines() if line]))
PY
cd /app
for level in mazes/level-*.txt; do
    python3 -m engine move "$level" "$(python3 solver.py "$level")" | tail -n 1
done
