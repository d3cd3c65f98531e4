# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Deadlock helpers for solvers.

A box on a *dead square* can never reach a goal again, so a solver may drop every state that pushes a box
onto one. ``dead_squares`` finds the simple ones: corners, and wall-side runs between two corners without a
goal.
"""

from __future__ import annotations

from sokoban.level import DIRECTIONS, Level


def _is_corner(level: Level, cell) -> bool:
    r, c = cell
    vertical = level.is_wall((r - 1, c)) or level.is_wall((r + 1, c))
    horizontal = level.is_wall((r, c - 1)) or level.is_wall((r, c + 1))
    return vertical and horizontal


def dead_squares(level: Level) -> set:
    floor = set(level.floor_cells())
    dead = {cell for cell in floor if _is_corner(level, cell)}
    # a run along a wall between two corners is dead when no cell of it is a goal
    for cell in sorted(dead):
        for dr, dc in DIRECTIONS.values():
            run = []
            r, c = cell[0] + dr, cell[1] + dc
            while (r, c) in floor and (r, c) not in dead:
                side_a = level.is_wall((r + dc, c + dr))
                side_b = level.is_wall((r - dc, c - dr))
                if not (side_a or side_b):
                    run = []
                    break
                run.append((r, c))
                r, c = r + dr, c + dc
            if (r, c) in dead and run and not any(x in level.goals for x in run):
                dead.update(run)
    return dead


def frozen_pair(level: Level, boxes, cell) -> bool:
    """True when the box at ``cell`` and a neighbouring box block each other against a wall."""
    r, c = cell
    for dr, dc in ((0, 1), (1, 0)):
        other = (r + dr, c + dc)
        if other not in boxes:
            continue
        if dr == 0:
            blocked = (level.is_wall((r - 1, c)) or level.is_wall((r + 1, c))) and (
                level.is_wall((r - 1, c + 1)) or level.is_wall((r + 1, c + 1)))
        else:
            blocked = (level.is_wall((r, c - 1)) or level.is_wall((r, c + 1))) and (
                level.is_wall((r + 1, c - 1)) or level.is_wall((r + 1, c + 1)))
        if blocked:
            return True
    return False
