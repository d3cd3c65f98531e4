# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's move-optimal Sokoban solver (hidden).

A* search over push states: a state is (player cell right after the last push, box set); an edge is
"walk to the cell behind a box (shortest walk) and push once", costing walk length + 1. Any solution is a
sequence of such segments, so the first time a solved state is popped its cost is the minimum number of moves (the heuristic, the cheapest
assignment of boxes to distinct goals by push distance, is consistent: a push changes it by at most 1).
Dead squares (where a box can never reach a goal) are pruned; that keeps optimality. The search stops after
``node_limit`` expansions and returns None ("not computable"), a deterministic cut-off.
"""

from __future__ import annotations

import heapq
from itertools import permutations
from collections import deque

from sokoban.level import DIRECTIONS, Level

DIRS = tuple(DIRECTIONS.values())


def pull_distances(goal, floor: set) -> dict:
    """cell -> fewest pushes that bring a lone box from the cell to ``goal``."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        r, c = queue.popleft()
        for dr, dc in DIRS:
            box_from = (r - dr, c - dc)
            player = (r - 2 * dr, c - 2 * dc)
            if box_from in floor and player in floor and box_from not in dist:
                dist[box_from] = dist[(r, c)] + 1
                queue.append(box_from)
    return dist


def push_distances(level: Level, floor: set) -> dict:
    """cell -> fewest pushes that bring a lone box from the cell to its nearest goal (live cells only)."""
    best: dict = {}
    for goal in sorted(level.goals):
        for cell, d in pull_distances(goal, floor).items():
            best[cell] = min(d, best.get(cell, d))
    return best


class Matching:
    """Admissible, consistent lower bound: the cheapest assignment of boxes to distinct goals (push counts)."""

    INF = 1 << 20

    def __init__(self, level: Level, floor: set) -> None:
        self.tables = [pull_distances(goal, floor) for goal in sorted(level.goals)]
        self.perms = list(permutations(range(len(self.tables))))
        self.cache: dict = {}

    def __call__(self, boxes: tuple) -> int:
        value = self.cache.get(boxes)
        if value is None:
            rows = [[table.get(b, self.INF) for table in self.tables] for b in boxes]
            value = min(sum(rows[i][p[i]] for i in range(len(rows))) for p in self.perms)
            self.cache[boxes] = value
        return value


def walk_distances(start, floor: set, boxes) -> dict:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        d = dist[(r, c)] + 1
        for dr, dc in DIRS:
            nxt = (r + dr, c + dc)
            if nxt in floor and nxt not in boxes and nxt not in dist:
                dist[nxt] = d
                queue.append(nxt)
    return dist


def optimal_moves(level: Level, node_limit: int = 60000):
    """The minimum number of moves that solves ``level``, or None past ``node_limit`` expansions."""
    floor = set(level.floor_cells())
    live = push_distances(level, floor)  # the live squares
    heuristic = Matching(level, floor)
    goals = level.goals
    boxes0 = tuple(sorted(level.boxes))
    if heuristic(boxes0) >= Matching.INF:
        return None
    best = {(level.player, boxes0): 0}
    heap = [(heuristic(boxes0), 0, level.player, boxes0)]
    expanded = 0
    while heap:
        _f, cost, player, boxes = heapq.heappop(heap)
        if best.get((player, boxes), -1) < cost:
            continue
        box_set = frozenset(boxes)
        if box_set == goals:
            return cost
        expanded += 1
        if expanded > node_limit:
            return None
        dist = walk_distances(player, floor, box_set)
        for box in boxes:
            for dr, dc in DIRS:
                stand = (box[0] - dr, box[1] - dc)
                dest = (box[0] + dr, box[1] + dc)
                if stand not in dist or dest not in live or dest in box_set:
                    continue
                new_boxes = tuple(sorted((box_set - {box}) | {dest}))
                new_cost = cost + dist[stand] + 1
                key = (box, new_boxes)
                if new_cost < best.get(key, 1 << 30):
                    best[key] = new_cost
                    h = heuristic(new_boxes)
                    if h < Matching.INF:
                        heapq.heappush(heap, (new_cost + h, new_cost, box, new_boxes))
    return None
