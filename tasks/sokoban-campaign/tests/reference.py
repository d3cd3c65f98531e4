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


def assignment_cost(rows: list) -> int:
    """Cheapest assignment of boxes (rows) to distinct goals (columns): a DP over goal subsets, exact."""
    n = len(rows)
    best = {0: 0}
    for row in rows:
        nxt: dict = {}
        for used, cost in best.items():
            for goal in range(n):
                bit = 1 << goal
                if not used & bit and row[goal] < INF:
                    key = used | bit
                    value = cost + row[goal]
                    if value < nxt.get(key, INF):
                        nxt[key] = value
        best = nxt
        if not best:
            return INF
    return min(best.values())


def greedy_pushes(level: Level, node_limit: int):
    """Pushes of a solution found by greedy best-first search, or None past ``node_limit`` expansions.

    Used to accept large levels (more boxes than an optimal search can prove): a state is (the leftmost-topmost
    cell the player can reach, box set), ordered by the cheapest box-to-goal assignment; dead squares and
    frozen boxes off their goals are pruned. Deterministic, so a level it accepts is solvable by a known method.
    """
    width = level.width + 2
    index = lambda cell: (cell[0] + 1) * width + cell[1] + 1  # noqa: E731
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
    goal_set = frozenset(index(g) for g in level.goals)

    def frozen(box: int, boxes, seen: set) -> bool:
        seen.add(box)
        for a, b in ((box - width, box + width), (box - 1, box + 1)):
            if not floor[a] or not floor[b]:
                continue
            if any(side in boxes and (side in seen or frozen(side, boxes, seen)) for side in (a, b)):
                continue
            return False
        return True

    def reach(player: int, box_set) -> list:
        seen = bytearray(size)
        seen[player] = 1
        queue = [player]
        for cell in queue:
            for nxt in neighbours[cell]:
                if not seen[nxt] and nxt not in box_set:
                    seen[nxt] = 1
                    queue.append(nxt)
        return queue

    boxes0 = tuple(sorted(index(b) for b in level.boxes))
    start_region = reach(index(level.player), frozenset(boxes0))
    h0 = assignment_cost([[t[b] for t in tables] for b in boxes0])
    if h0 >= INF:
        return None
    start = (min(start_region), boxes0)
    pushes = {start: 0}
    heap = [(h0, 0, start[0], boxes0)]
    expanded = 0
    while heap:
        _h, count, player, boxes = heapq.heappop(heap)
        box_set = frozenset(boxes)
        if box_set == goal_set:
            return count
        expanded += 1
        if expanded > node_limit:
            return None
        region = reach(player, box_set)
        inside = set(region)
        for box in boxes:
            for s in steps:
                stand, dest = box - s, box + s
                if stand not in inside or not live[dest] or dest in box_set:
                    continue
                new_set = (box_set - {box}) | {dest}
                if dest not in goal_set and frozen(dest, new_set, set()):
                    continue
                new_boxes = tuple(sorted(new_set))
                key_region = reach(box, new_set)
                key = (min(key_region), new_boxes)
                if key in pushes:
                    continue
                h = assignment_cost([[t[b] for t in tables] for b in new_boxes])
                if h >= INF:
                    continue
                pushes[key] = count + 1
                heapq.heappush(heap, (h, count + 1, key[0], new_boxes))
    return None


def brute_force_solves(level: Level, max_states: int) -> bool:
    """Whether a plain breadth-first search over (player, boxes) states solves ``level`` within ``max_states``
    states: the generator rejects such levels, so every family past "small" needs a real search."""
    start = (level.player, frozenset(level.boxes))
    seen = {start}
    queue = deque([start])
    goals = frozenset(level.goals)
    while queue and len(seen) <= max_states:
        player, boxes = queue.popleft()
        if boxes == goals:
            return True
        for dr, dc in DIRS:
            target = (player[0] + dr, player[1] + dc)
            if level.is_wall(target):
                continue
            new_boxes = boxes
            if target in boxes:
                beyond = (target[0] + dr, target[1] + dc)
                if level.is_wall(beyond) or beyond in boxes:
                    continue
                new_boxes = (boxes - {target}) | {beyond}
            state = (target, new_boxes)
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return False
