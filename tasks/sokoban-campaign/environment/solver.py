# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Sokoban solver: python3 solver.py LEVEL_FILE  -> prints a LURD move string.

Work in progress (see README.md). Breadth-first search over game states.
"""

from __future__ import annotations

import sys
from collections import deque

from sokoban.deadlock import dead_squares, frozen_pair
from sokoban.level import parse_level

# letter -> (row delta, column delta)
MOVES = {"u": (1, 0), "d": (-1, 0), "l": (0, -1), "r": (0, 1)}


def successors(level, dead, player, boxes):
    for letter, (dr, dc) in MOVES.items():
        target = (player[0] + dr, player[1] + dc)
        if level.is_wall(target):
            continue
        if target in boxes:
            beyond = (target[0] + dr, target[1] + dc)
            if level.is_wall(beyond) or beyond in boxes or beyond in dead:
                continue
            new_boxes = (boxes - {target}) | {beyond}
            if frozen_pair(level, new_boxes, beyond) and beyond not in level.goals:
                continue
            yield letter.upper(), target, new_boxes
        else:
            yield letter, target, boxes


def solve(level):
    dead = dead_squares(level)
    start = (level.player, frozenset(level.boxes))
    queue = deque([(start, "")])
    seen = set()
    expanded = 0
    while queue:
        (player, boxes), path = queue.popleft()
        if (player, boxes) in seen:
            continue
        seen.add((player, boxes))
        expanded += 1
        if boxes == level.goals:
            print(f"solved after expanding {expanded} states")
            return path
        for letter, nxt_player, nxt_boxes in successors(level, dead, player, boxes):
            queue.append(((nxt_player, nxt_boxes), path + letter))
    return None


def main() -> int:
    with open(sys.argv[1]) as handle:
        level = parse_level(handle.read())
    path = solve(level)
    if path is None:
        print("no solution")
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
