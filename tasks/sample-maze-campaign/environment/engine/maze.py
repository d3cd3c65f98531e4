# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Maze files and the seeded maze generator.

A maze file is a rectangle of characters, one row per line: ``#`` wall, ``.`` floor, ``S`` start (floor),
``G`` goal (floor). Row 0 is the top line, column 0 the first character. The outer border is all wall.
Randomness is drawn only through ``Random.random()`` so a seed gives the same maze on every Python version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

WALL, FLOOR, START, GOAL = "#", ".", "S", "G"
MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
# The public campaign: (seed, width in cells, height in cells, braid), easiest first.
CAMPAIGN = ((101, 5, 5, 0.0), (202, 8, 8, 0.0), (303, 10, 10, 0.5), (404, 14, 10, 1.0), (505, 20, 20, 0.3))


class MazeFormatError(ValueError):
    pass


@dataclass(frozen=True)
class Maze:
    rows: tuple[str, ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def find(self, char: str) -> tuple[int, int]:
        for r, row in enumerate(self.rows):
            if char in row:
                return r, row.index(char)
        raise MazeFormatError(f"the maze has no {char!r}")

    def is_floor(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width and self.rows[r][c] != WALL

    def to_text(self) -> str:
        return "\n".join(self.rows) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Maze:
        rows = tuple(line for line in text.splitlines() if line)
        if not rows or any(len(row) != len(rows[0]) for row in rows):
            raise MazeFormatError("a maze must be a non-empty rectangle of characters")
        if set("".join(rows)) - {WALL, FLOOR, START, GOAL}:
            raise MazeFormatError("a maze may only contain '#', '.', 'S' and 'G'")
        for char in (START, GOAL):
            if sum(row.count(char) for row in rows) != 1:
                raise MazeFormatError(f"a maze needs exactly one {char!r}")
        return cls(rows)


def _index(rng: random.Random, n: int) -> int:
    return min(int(rng.random() * n), n - 1)


def generate(seed: int, width: int, height: int, braid: float = 0.0) -> Maze:
    """A ``width`` x ``height``-cell maze; ``braid`` in [0, 1] is the share of dead ends opened into loops."""
    if width < 2 or height < 2:
        raise ValueError("a maze needs at least 2 x 2 cells")
    rng = random.Random(seed)
    grid = [[WALL] * (2 * width + 1) for _ in range(2 * height + 1)]

    def cell_neighbours(y: int, x: int) -> list[tuple[int, int]]:
        steps = ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1))
        return [(ny, nx) for ny, nx in steps if 0 <= ny < height and 0 <= nx < width]

    def open_between(a: tuple[int, int], b: tuple[int, int]) -> None:
        grid[a[0] + b[0] + 1][a[1] + b[1] + 1] = FLOOR
        grid[2 * b[0] + 1][2 * b[1] + 1] = FLOOR

    grid[1][1] = FLOOR
    visited, stack = {(0, 0)}, [(0, 0)]
    while stack:  # iterative randomized depth-first search: a perfect maze (a tree)
        fresh = [n for n in cell_neighbours(*stack[-1]) if n not in visited]
        if not fresh:
            stack.pop()
            continue
        nxt = fresh[_index(rng, len(fresh))]
        open_between(stack[-1], nxt)
        visited.add(nxt)
        stack.append(nxt)

    def walls_of(y: int, x: int) -> list[tuple[int, int]]:
        return [n for n in cell_neighbours(y, x) if grid[y + n[0] + 1][x + n[1] + 1] == WALL]

    for y in range(height):
        for x in range(width):
            closed = walls_of(y, x)
            if len(closed) == len(cell_neighbours(y, x)) - 1 and rng.random() < braid:
                open_between((y, x), closed[_index(rng, len(closed))])

    cells = [(y, x) for y in range(height) for x in range(width)]
    start = cells[_index(rng, len(cells))]
    far = [c for c in cells if abs(c[0] - start[0]) + abs(c[1] - start[1]) >= (width + height) // 2]
    goal = far[_index(rng, len(far))]
    grid[2 * start[0] + 1][2 * start[1] + 1] = START
    grid[2 * goal[0] + 1][2 * goal[1] + 1] = GOAL
    return Maze(tuple("".join(row) for row in grid))
