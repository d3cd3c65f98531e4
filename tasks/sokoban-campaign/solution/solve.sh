#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: fix the level parser, then replace the breadth-first solver with a move-optimal A* over push
# states (cheapest-assignment heuristic, dead squares from reverse pulls, frozen-box pruning).
set -euo pipefail
cd /app

python3 - <<'PY'
from pathlib import Path

path = Path("/app/sokoban/level.py")
src = path.read_text()
fixes = [
    ('FLOOR_CHARS = " "', 'FLOOR_CHARS = " -_"'),
    ('        if line.startswith("; "):\n            comments.append(line[2:].strip())',
     '        if line.lstrip().startswith(";"):\n            comments.append(line.lstrip()[1:].strip())'),
    ('            if ch in ".*":\n                goals.add((r, c))', '            if ch in ".+*":\n                goals.add((r, c))'),
    ("        width=len(rows[0]),", "        width=max(len(line) for line in rows),"),
]
for old, new in fixes:
    assert old in src, old
    src = src.replace(old, new)
path.write_text(src)
PY

cat > /app/solver.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Move-optimal Sokoban solver: python3 solver.py LEVEL_FILE -> one line of LURD moves (pushes upper case).

A* over push states (player cell right after a push, sorted boxes). An edge walks the player to the cell
behind a box along a shortest walk and pushes once (cost = walk + 1). The heuristic is the cheapest
assignment of boxes to distinct goals by lone-box push distance: admissible and consistent, so the first
solved state popped is move-optimal. Pruning that keeps optimality: dead squares (no pull path from any
goal) and frozen boxes off their goals.
"""

from __future__ import annotations

import heapq
import sys
from collections import deque
from itertools import permutations

from sokoban.level import parse_level

DIRS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
INF = 1 << 20


def reachable_floor(level):
    seen = {level.player}
    stack = [level.player]
    while stack:
        r, c = stack.pop()
        for dr, dc in DIRS.values():
            nxt = (r + dr, c + dc)
            if nxt not in seen and not level.is_wall(nxt):
                seen.add(nxt)
                stack.append(nxt)
    return seen


def pull_distances(goal, floor):
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        r, c = queue.popleft()
        for dr, dc in DIRS.values():
            box_from, player = (r - dr, c - dc), (r - 2 * dr, c - 2 * dc)
            if box_from in floor and player in floor and box_from not in dist:
                dist[box_from] = dist[(r, c)] + 1
                queue.append(box_from)
    return dist


def walk(start, floor, boxes, parents=False):
    dist = {start: 0}
    parent = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for letter, (dr, dc) in DIRS.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if nxt in floor and nxt not in boxes and nxt not in dist:
                dist[nxt] = dist[cell] + 1
                if parents:
                    parent[nxt] = (cell, letter)
                queue.append(nxt)
    return dist, parent


def frozen(box, boxes, floor, goals, depth=0, seen=None):
    """True when ``box`` can never move again (walls and other frozen boxes block both axes)."""
    seen = set() if seen is None else seen
    seen.add(box)
    r, c = box

    def blocked(axis):
        (a, b) = ((r - 1, c), (r + 1, c)) if axis == "v" else ((r, c - 1), (r, c + 1))
        if a not in floor or b not in floor:
            return True
        for side in (a, b):
            if side in boxes and (side in seen or frozen(side, boxes, floor, goals, depth + 1, seen)):
                return True
        return False

    return blocked("v") and blocked("h")


def solve(level):
    floor = reachable_floor(level)
    goals = sorted(level.goals)
    tables = [pull_distances(g, floor) for g in goals]
    live = set().union(*tables)
    perms = list(permutations(range(len(goals))))
    cache = {}

    def heuristic(boxes):
        value = cache.get(boxes)
        if value is None:
            rows = [[t.get(b, INF) for t in tables] for b in boxes]
            value = min(sum(rows[i][p[i]] for i in range(len(rows))) for p in perms)
            cache[boxes] = value
        return value

    goal_set = frozenset(goals)
    boxes0 = tuple(sorted(level.boxes))
    if frozenset(boxes0) == goal_set:
        return ""
    start = (level.player, boxes0)
    best = {start: 0}
    came = {start: None}
    heap = [(heuristic(boxes0), 0, level.player, boxes0)]
    while heap:
        _f, cost, player, boxes = heapq.heappop(heap)
        key = (player, boxes)
        if best[key] < cost:
            continue
        box_set = frozenset(boxes)
        if box_set == goal_set:
            return rebuild(key, came, floor)
        dist, _ = walk(player, floor, box_set)
        for box in boxes:
            for letter, (dr, dc) in DIRS.items():
                stand = (box[0] - dr, box[1] - dc)
                dest = (box[0] + dr, box[1] + dc)
                if stand not in dist or dest not in live or dest in box_set:
                    continue
                new_set = (box_set - {box}) | {dest}
                if dest not in goal_set and frozen(dest, new_set, floor, goal_set):
                    continue
                new_boxes = tuple(sorted(new_set))
                h = heuristic(new_boxes)
                if h >= INF:
                    continue
                new_cost = cost + dist[stand] + 1
                new_key = (box, new_boxes)
                if new_cost < best.get(new_key, INF):
                    best[new_key] = new_cost
                    came[new_key] = (key, stand, letter)
                    heapq.heappush(heap, (new_cost + h, new_cost, box, new_boxes))
    return None


def rebuild(key, came, floor):
    segments = []
    while came[key] is not None:
        prev, stand, letter = came[key]
        player, boxes = prev
        _, parent = walk(player, floor, frozenset(boxes), parents=True)
        steps = []
        cell = stand
        while parent[cell] is not None:
            cell, step = parent[cell]
            steps.append(step.lower())
        segments.append("".join(reversed(steps)) + letter)
        key = prev
    return "".join(reversed(segments))


def main():
    with open(sys.argv[1]) as handle:
        level = parse_level(handle.read())
    moves = solve(level)
    if moves is None:
        print("no solution", file=sys.stderr)
        return 1
    print(moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
PY

for level in levels/*.xsb; do
    python3 -m sokoban replay "$level" "$(python3 solver.py "$level")"
done
