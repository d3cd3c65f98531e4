# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded Sokoban level generator (hidden): reverse play from a solved state.

A room is carved, boxes are put on their goals, and the player walks backwards at random, pulling boxes
(the reverse of a push). Every state reached that way is solvable by replaying the walk forwards, so every
generated level is solvable. Only ``Random.random()`` is used, so levels are identical across Python versions.
"""

from __future__ import annotations

import random

from reference import brute_force_solves, greedy_pushes, optimal_moves, push_distances
from sokoban.level import DIRECTIONS, Level, parse_level

DIRS = tuple(DIRECTIONS.values())

# family -> knobs
FAMILIES = {
    "small": dict(size=((8, 10), (6, 8)), boxes=2, walls=0.05, outline=0.0, steps=1200, fancy=0.0, min_pushes=10),
    "medium": dict(size=((9, 11), (7, 9)), boxes=3, walls=0.08, outline=0.0, steps=1500, fancy=0.3,
                   min_pushes=12),
    "rooms": dict(size=((10, 12), (8, 10)), boxes=3, walls=0.05, outline=0.0, steps=1500, fancy=0.3,
                  divider=True, min_pushes=12),
    "crowded": dict(size=((6, 8), (5, 7)), boxes=4, walls=0.12, outline=0.0, steps=1200, fancy=0.3,
                    min_pushes=10),
    "encoded": dict(size=((9, 11), (7, 9)), boxes=3, walls=0.08, outline=0.2, steps=1500, fancy=1.0,
                    min_pushes=12, rle=True),
    "irregular": dict(size=((10, 12), (9, 11)), boxes=3, walls=0.08, outline=0.35, steps=1500, fancy=1.0,
                      min_pushes=12, on_goal=True),
    # more boxes than a move-optimal search proves in time: graded on solving only
    "warehouse": dict(size=((10, 12), (9, 11)), boxes=6, walls=0.08, outline=0.1, steps=4000, fancy=0.3,
                      min_pushes=24, optimal=False),
}


def randint(rng: random.Random, low: int, high: int) -> int:
    """Uniform integer in [low, high] drawn through rng.random()."""
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def shuffled(rng: random.Random, items: list) -> list:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = randint(rng, 0, i)
        items[i], items[j] = items[j], items[i]
    return items


def _connected(cells: set) -> bool:
    if not cells:
        return False
    start = min(cells)
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in DIRS:
            nxt = (r + dr, c + dc)
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return len(seen) == len(cells)


def carve_room(rng: random.Random, knobs: dict) -> tuple:
    """(floor cells, height, width) of a room; the grid includes a one-cell wall border."""
    (wlo, whi), (hlo, hhi) = knobs["size"]
    width, height = randint(rng, wlo, whi), randint(rng, hlo, hhi)
    floor = {(r, c) for r in range(1, height + 1) for c in range(1, width + 1)}
    if knobs.get("divider"):
        col = randint(rng, 3, width - 2)
        gaps = {randint(rng, 1, height), randint(rng, 1, height)}
        floor -= {(r, col) for r in range(1, height + 1) if r not in gaps}
    for cell in shuffled(rng, sorted(floor)):
        r, c = cell
        edge = r in (1, height) or c in (1, width)
        p = knobs["outline"] if edge else knobs["walls"]
        if rng.random() < p and _connected(floor - {cell}):
            floor.discard(cell)
    return floor, height + 2, width + 2


def reverse_play(rng: random.Random, floor: set, goals: list, player: tuple, steps: int, on_goal: bool) -> tuple:
    boxes = set(goals)
    best = (0, player, frozenset(boxes))
    for _ in range(steps):
        dr, dc = DIRS[randint(rng, 0, 3)]
        r, c = player
        target = (r + dr, c + dc)
        if target not in floor or target in boxes:
            continue
        behind = (r - dr, c - dc)
        if behind in boxes and rng.random() < 0.7:
            boxes.remove(behind)
            boxes.add(player)
        player = target
        off = sum(1 for b in boxes if b not in goals)
        spread = sum(min(abs(b[0] - g[0]) + abs(b[1] - g[1]) for g in goals) for b in boxes)
        score = off * 100 + spread + (50 if on_goal and player in goals else 0)
        if score >= best[0]:
            best = (score, player, frozenset(boxes))
    return best


def render(floor: set, height: int, width: int, goals, boxes, player, rng: random.Random, knobs: dict,
           title: str) -> str:
    walls = set()
    for r, c in floor:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (r + dr, c + dc) not in floor:
                    walls.add((r + dr, c + dc))
    fancy = rng.random() < knobs["fancy"]
    floor_char = " -_"[randint(rng, 0, 2)] if fancy else " "
    lines = []
    for r in range(height):
        row = []
        for c in range(width):
            cell = (r, c)
            if cell in walls:
                row.append("#")
            elif cell == player:
                row.append("+" if cell in goals else "@")
            elif cell in boxes:
                row.append("*" if cell in goals else "$")
            elif cell in goals:
                row.append(".")
            else:
                row.append(floor_char if cell in floor else " ")
        line = "".join(row).rstrip()
        if fancy and rng.random() < 0.5:
            line += " " * randint(rng, 1, 3)
        lines.append(line)
    if knobs.get("rle"):
        lines = encode_rows(rng, lines)
    if not fancy:
        return f"; Title: {title}\n" + "\n".join(lines) + "\n"
    header = [f"; Title: {title}", "; Author: lhtb generator", ";"]
    return "\n".join(header + lines) + "\n\n"


def rle_row(line: str) -> str:
    """One row run-length encoded, spaces written as '-' (e.g. '####--$$@' -> '4#2-2$@')."""
    line = line.rstrip().replace(" ", "-")
    out, i = [], 0
    while i < len(line):
        j = i
        while j < len(line) and line[j] == line[i]:
            j += 1
        out.append((str(j - i) if j - i > 1 else "") + line[i])
        i = j
    return "".join(out)


def encode_rows(rng: random.Random, lines: list) -> list:
    """Rows run-length encoded and joined by '|' in groups (a whole map on one line, or a few per line)."""
    rows = [rle_row(line) for line in lines]
    group = [len(rows), 1, randint(rng, 2, 4)][randint(rng, 0, 2)]
    return ["|".join(rows[i:i + group]) for i in range(0, len(rows), group)]


def push_lower_bound(level: Level) -> int:
    distances = push_distances(level, set(level.floor_cells()))
    if any(b not in distances for b in level.boxes):
        return -1  # a box on a dead square
    return sum(distances[b] for b in level.boxes)


NODE_LIMIT = 5000
GREEDY_LIMIT = 1500  # expansions in which the greedy reference must solve a level graded on solving only
BRUTE_FORCE_STATES = 150000  # a plain breadth-first search of this many states solves "small" levels only


def generate(rng: random.Random, family: str, title: str = "") -> tuple:
    """(text, optimal number of moves, or None in a family graded on solving only) of a new level of
    ``family``. Levels that are too easy are rejected (every level needs at least the family's ``min_pushes``,
    a lower bound: each box's push distance to its nearest goal; a plain breadth-first search of
    BRUTE_FORCE_STATES states solves every "small" level, the warm-up, and no other), and so are levels whose
    optimum the reference search cannot prove within NODE_LIMIT (or, graded on solving only, that the greedy
    reference cannot solve within GREEDY_LIMIT). The player starts on a goal in every irregular level and in
    no other."""
    knobs = FAMILIES[family]
    for _attempt in range(5000):  # some seeds need more than a few hundred draws for the irregular family
        floor, height, width = carve_room(rng, knobs)
        cells = sorted(floor)
        if len(cells) < knobs["boxes"] * 3 + 4:
            continue
        order = shuffled(rng, cells)
        goals = order[: knobs["boxes"]]
        player = order[knobs["boxes"]]
        _score, end_player, boxes = reverse_play(rng, floor, goals, player, knobs["steps"],
                                                   knobs.get("on_goal", False))
        off = sum(1 for b in boxes if b not in goals)
        if off < max(1, knobs["boxes"] - 1) or (end_player in goals) != knobs.get("on_goal", False):
            continue
        text = render(floor, height, width, goals, boxes, end_player, rng, knobs, title or family)
        level = parse_level(text)
        if push_lower_bound(level) < knobs["min_pushes"]:
            continue
        if not knobs.get("optimal", True):
            if greedy_pushes(level, GREEDY_LIMIT) is None:
                continue
            return text, None
        optimum = optimal_moves(level, NODE_LIMIT)
        if optimum is None:
            continue
        if brute_force_solves(level, BRUTE_FORCE_STATES) != (family == "small"):
            continue
        return text, optimum
    raise RuntimeError(f"could not generate a {family} level")
