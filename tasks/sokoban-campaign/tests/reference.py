# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's move-optimal Sokoban solver (hidden).

A* search over push states: a state is (player cell right after the last push, box set); an edge is "walk to
the cell behind a box (shortest walk) and push once", costing walk length + 1. Any solution is a sequence of
such segments, so the first time a solved state is popped its cost is the minimum number of moves (the
heuristic, the cheapest assignment of boxes to distinct goals by push distance, is consistent: a push changes
it by at most 1). Dead squares (no pull path from any goal) are pruned, which keeps optimality. The search
stops after ``node_limit`` expansions and returns None ("not proven"), a deterministic cut-off.
Cells are integers r * width + c internally.
"""

from __future__ import annotations

import heapq
from collections import deque
from itertools import permutations

from sokoban.level import DIRECTIONS, Level

DIRS = tuple(DIRECTIONS.values())
INF = 1 << 20


def pull_distances(goal, floor: set) -> dict:
    """cell -> fewest pushes that bring a lone box from the cell to ``goal`` (cells as (row, col))."""
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


def optimal_moves(level: Level, node_limit: int = 60000):
    """The minimum number of moves that solves ``level``, or None past ``node_limit`` expansions."""
    width = level.width + 2
    index = lambda cell: (cell[0] + 1) * width + cell[1] + 1  # noqa: E731  (one cell of margin all round)
    floor_cells = set(level.floor_cells())
    size = (level.height + 2) * width
    floor = bytearray(size)
    for cell in floor_cells:
        floor[index(cell)] = 1
    steps = (-width, width, -1, 1)
    neighbours = [[i + s for s in steps if floor[i + s]] if floor[i] else [] for i in range(size)]

    tables = []
    for goal in sorted(level.goals):
        table = [INF] * size
        for cell, d in pull_distances(goal, floor_cells).items():
            table[index(cell)] = d
        tables.append(table)
    live = bytearray(size)
    for i in range(size):
        live[i] = any(t[i] < INF for t in tables)
    perms = list(permutations(range(len(tables))))
    cache: dict = {}

    def heuristic(boxes: tuple) -> int:
        value = cache.get(boxes)
        if value is None:
            rows = [[t[b] for t in tables] for b in boxes]
            value = min(sum(rows[i][p[i]] for i in range(len(rows))) for p in perms)
            cache[boxes] = value
        return value

    goal_set = frozenset(index(g) for g in level.goals)
    boxes0 = tuple(sorted(index(b) for b in level.boxes))
    player0 = index(level.player)
    if heuristic(boxes0) >= INF:
        return None
    best = {(player0, boxes0): 0}
    heap = [(heuristic(boxes0), 0, player0, boxes0)]
    expanded = 0
    while heap:
        _f, cost, player, boxes = heapq.heappop(heap)
        if best.get((player, boxes), -1) < cost:
            continue
        box_set = frozenset(boxes)
        if box_set == goal_set:
            return cost
        expanded += 1
        if expanded > node_limit:
            return None
        dist = [-1] * size
        for b in boxes:
            dist[b] = -2  # blocked
        dist[player] = 0
        queue = [player]
        for cell in queue:
            d = dist[cell] + 1
            for nxt in neighbours[cell]:
                if dist[nxt] == -1:
                    dist[nxt] = d
                    queue.append(nxt)
        for box in boxes:
            for s in steps:
                stand, dest = box - s, box + s
                if dist[stand] < 0 or not live[dest] or dest in box_set:
                    continue
                new_boxes = tuple(sorted([dest if b == box else b for b in boxes]))
                h = heuristic(new_boxes)
                if h >= INF:
                    continue
                new_cost = cost + dist[stand] + 1
                key = (box, new_boxes)
                if new_cost < best.get(key, INF):
                    best[key] = new_cost
                    heapq.heappush(heap, (new_cost + h, new_cost, box, new_boxes))
    return None
