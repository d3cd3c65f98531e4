#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: fix the level parser, then replace the breadth-first solver with a move-optimal A* over push
# states (cheapest-assignment heuristic, dead squares from reverse pulls, frozen-box pruning) for up to four
# boxes, and a greedy best-first search (same pruning, assignment by dynamic programming) beyond.
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
# run-length encoded rows and '|' row separators (SOK notation)
old = "        rows.append(line)\n"
assert old in src
src = src.replace(old, "        rows.extend(expand_rle(line))\n")
src = src.replace("def parse_level(text: str) -> Level:\n", '''def expand_rle(line: str) -> list:
    if not any(ch.isdigit() or ch == "|" for ch in line):
        return [line]
    rows, row, count = [], [], ""
    for ch in line.rstrip():
        if ch.isdigit():
            count += ch
        elif ch == "|":
            if count:
                raise LevelError(f"count {count} before a row separator")
            rows.append("".join(row))
            row = []
        else:
            row.append(ch * int(count or 1))
            count = ""
    if count:
        raise LevelError(f"count {count} at the end of a row")
    rows.append("".join(row))
    return rows


def parse_level(text: str) -> Level:
''', 1)
path.write_text(src)
PY

cat > /app/solver.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Move-optimal Sokoban solver: python3 solver.py LEVEL_FILE -> one line of LURD moves (pushes upper case).

A* over push states (player cell right after a push, sorted boxes). An edge walks the player to the cell
behind a box along a shortest walk and pushes once (cost = walk + 1). The heuristic is the cheapest
assignment of boxes to distinct goals by lone-box push distance: admissible and consistent, so the first
solved state popped is move-optimal. Pruning that keeps optimality: dead squares (no pull path from any
goal) and frozen boxes off their goals. Cells are integers r * width + c (with a margin) internally.
Beyond four boxes an optimal search does not fit the time limit: a greedy best-first search over the same
states (player normalised to its region), ordered by the assignment cost, finds some solution instead.
"""

from __future__ import annotations

import heapq
import sys
from itertools import permutations

from sokoban.level import parse_level

INF = 1 << 20
LETTERS = "UDLR"


class Board:
    def __init__(self, level):
        self.width = level.width + 2
        self.size = (level.height + 2) * self.width
        self.steps = (-self.width, self.width, -1, 1)  # U D L R
        seen = {level.player}
        stack = [level.player]
        while stack:  # the floor the player can reach
            r, c = stack.pop()
            for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nxt not in seen and not level.is_wall(nxt):
                    seen.add(nxt)
                    stack.append(nxt)
        self.floor = bytearray(self.size)
        for cell in seen:
            self.floor[self.index(cell)] = 1
        self.neighbours = [[(i + s, k) for k, s in enumerate(self.steps) if self.floor[i + s]]
                           if self.floor[i] else [] for i in range(self.size)]
        self.goals = sorted(self.index(g) for g in level.goals)
        self.tables = [self.pulls(g) for g in self.goals]
        self.live = bytearray(self.size)
        for i in range(self.size):
            self.live[i] = any(t[i] < INF for t in self.tables)

    def index(self, cell):
        return (cell[0] + 1) * self.width + cell[1] + 1

    def pulls(self, goal):
        dist = [INF] * self.size
        dist[goal] = 0
        queue = [goal]
        for cell in queue:
            for s in self.steps:
                box_from, player = cell - s, cell - 2 * s
                if 0 <= player < self.size and self.floor[box_from] and self.floor[player] \
                        and dist[box_from] == INF:
                    dist[box_from] = dist[cell] + 1
                    queue.append(box_from)
        return dist

    def walk(self, player, boxes, parents=False):
        dist = [-1] * self.size
        for b in boxes:
            dist[b] = -2
        dist[player] = 0
        parent = {player: None} if parents else None
        queue = [player]
        for cell in queue:
            d = dist[cell] + 1
            for nxt, k in self.neighbours[cell]:
                if dist[nxt] == -1:
                    dist[nxt] = d
                    if parents:
                        parent[nxt] = (cell, k)
                    queue.append(nxt)
        return dist, parent

    def frozen(self, box, boxes, seen=None):
        """True when ``box`` can never move again (walls and other frozen boxes block both axes)."""
        seen = set() if seen is None else seen
        seen.add(box)
        for a, b in ((box - self.width, box + self.width), (box - 1, box + 1)):
            if not self.floor[a] or not self.floor[b]:
                continue
            if any(side in boxes and (side in seen or self.frozen(side, boxes, seen)) for side in (a, b)):
                continue
            return False
        return True


def solve(level):
    board = Board(level)
    tables = board.tables
    perms = list(permutations(range(len(tables))))
    cache = {}

    def heuristic(boxes):
        value = cache.get(boxes)
        if value is None:
            rows = [[t[b] for t in tables] for b in boxes]
            value = min(sum(rows[i][p[i]] for i in range(len(rows))) for p in perms)
            cache[boxes] = value
        return value

    goal_set = frozenset(board.goals)
    boxes0 = tuple(sorted(board.index(b) for b in level.boxes))
    player0 = board.index(level.player)
    if frozenset(boxes0) == goal_set:
        return ""
    if heuristic(boxes0) >= INF:
        return None
    start = (player0, boxes0)
    best = {start: 0}
    came = {start: None}
    heap = [(heuristic(boxes0), 0, player0, boxes0)]
    live, steps = board.live, board.steps
    while heap:
        _f, cost, player, boxes = heapq.heappop(heap)
        key = (player, boxes)
        if best[key] < cost:
            continue
        box_set = frozenset(boxes)
        if box_set == goal_set:
            return rebuild(board, key, came)
        dist, _ = board.walk(player, boxes)
        for box in boxes:
            for k, s in enumerate(steps):
                stand, dest = box - s, box + s
                if dist[stand] < 0 or not live[dest] or dest in box_set:
                    continue
                new_set = (box_set - {box}) | {dest}
                if dest not in goal_set and board.frozen(dest, new_set):
                    continue
                new_boxes = tuple(sorted(new_set))
                h = heuristic(new_boxes)
                if h >= INF:
                    continue
                new_cost = cost + dist[stand] + 1
                new_key = (box, new_boxes)
                if new_cost < best.get(new_key, INF):
                    best[new_key] = new_cost
                    came[new_key] = (key, stand, k)
                    heapq.heappush(heap, (new_cost + h, new_cost, box, new_boxes))
    return None


def assignment(rows):
    """Cheapest assignment of boxes (rows) to distinct goals: dynamic programming over goal subsets."""
    best = {0: 0}
    for row in rows:
        nxt = {}
        for used, cost in best.items():
            for goal, d in enumerate(row):
                bit = 1 << goal
                if not used & bit and d < INF:
                    value = cost + d
                    if value < nxt.get(used | bit, INF):
                        nxt[used | bit] = value
        if not nxt:
            return INF
        best = nxt
    return min(best.values())


def solve_greedy(level):
    board = Board(level)
    tables, live, steps = board.tables, board.live, board.steps
    goal_set = frozenset(board.goals)

    def region(player, box_set):
        dist, _ = board.walk(player, box_set)
        return dist

    def cost(boxes):
        return assignment([[t[b] for t in tables] for b in boxes])

    boxes0 = tuple(sorted(board.index(b) for b in level.boxes))
    player0 = board.index(level.player)
    if cost(boxes0) >= INF:
        return None
    dist0 = region(player0, boxes0)
    start = (min(i for i, d in enumerate(dist0) if d >= 0), boxes0)
    came = {start: None}  # key -> (previous key, player cell in it, stand cell, push direction)
    where = {start: player0}  # key -> the player's actual cell
    heap = [(cost(boxes0), 0, start)]  # (assignment cost, pushes, key): fewer pushes first among equals
    while heap:
        _h, pushes, key = heapq.heappop(heap)
        _, boxes = key
        box_set = frozenset(boxes)
        if box_set == goal_set:
            return rebuild(board, key, came, where)
        player = where[key]
        dist = region(player, boxes)
        for box in boxes:
            for k, s in enumerate(steps):
                stand, dest = box - s, box + s
                if dist[stand] < 0 or not live[dest] or dest in box_set:
                    continue
                new_set = (box_set - {box}) | {dest}
                if dest not in goal_set and board.frozen(dest, new_set):
                    continue
                new_boxes = tuple(sorted(new_set))
                after = region(box, new_boxes)
                new_key = (min(i for i, d in enumerate(after) if d >= 0), new_boxes)
                if new_key in came:
                    continue
                h = cost(new_boxes)
                if h >= INF:
                    continue
                came[new_key] = (key, stand, k)
                where[new_key] = box
                heapq.heappush(heap, (h, pushes + 1, new_key))
    return None


def rebuild(board, key, came, where=None):
    segments = []
    while came[key] is not None:
        prev, stand, push = came[key]
        player, boxes = prev
        if where is not None:  # greedy keys hold a normalised player cell
            player = where[prev]
        _, parent = board.walk(player, boxes, parents=True)
        steps = []
        cell = stand
        while parent[cell] is not None:
            cell, k = parent[cell]
            steps.append(LETTERS[k].lower())
        segments.append("".join(reversed(steps)) + LETTERS[push])
        key = prev
    return "".join(reversed(segments))


def main():
    with open(sys.argv[1]) as handle:
        level = parse_level(handle.read())
    moves = solve(level) if len(level.boxes) <= 4 else solve_greedy(level)
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
