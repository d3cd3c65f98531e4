#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the obvious solver bugs (direction table, debug output, visited set) and the floor and
# comment notations, but keeps a plain breadth-first search over full states (slow beyond small levels) and
# misses the player-on-goal and ragged-row parser bugs. It gives up after a fixed number of states.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path

path = Path("/app/sokoban/level.py")
src = path.read_text()
src = src.replace('FLOOR_CHARS = " "', 'FLOOR_CHARS = " -_"')
src = src.replace('        if line.startswith("; "):\n            comments.append(line[2:].strip())',
                  '        if line.startswith(";"):\n            comments.append(line[1:].strip())')
path.write_text(src)
PY
cat > /app/solver.py <<'PY'
import sys
from collections import deque

from sokoban.level import parse_level

MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


MAX_STATES = 150000  # give up instead of running into the time limit


def solve(level):
    start = (level.player, frozenset(level.boxes))
    parent = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if len(parent) > MAX_STATES:
            return None
        player, boxes = state
        if boxes == level.goals:
            path = []
            while parent[state] is not None:
                state, letter = parent[state]
                path.append(letter)
            return "".join(reversed(path))
        for letter, (dr, dc) in MOVES.items():
            target = (player[0] + dr, player[1] + dc)
            if level.is_wall(target):
                continue
            new_boxes = boxes
            if target in boxes:
                beyond = (target[0] + dr, target[1] + dc)
                if level.is_wall(beyond) or beyond in boxes:
                    continue
                new_boxes = (boxes - {target}) | {beyond}
            nxt = (target, new_boxes)
            if nxt not in parent:
                parent[nxt] = (state, letter)
                queue.append(nxt)
    return None


level = parse_level(open(sys.argv[1]).read())
moves = solve(level)
if moves is None:
    sys.exit(1)
print(moves)
PY
python3 solver.py levels/campaign-01.xsb > /dev/null || true
