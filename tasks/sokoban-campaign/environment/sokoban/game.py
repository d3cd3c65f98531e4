# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The rules: the player walks one cell at a time and pushes (never pulls) a single box."""

from __future__ import annotations

from dataclasses import dataclass

from sokoban.level import DIRECTIONS, Level


class IllegalMove(ValueError):
    pass


class Game:
    def __init__(self, level: Level) -> None:
        self.level = level
        self.player = level.player
        self.boxes = set(level.boxes)
        self.moves = 0
        self.pushes = 0

    @property
    def solved(self) -> bool:
        return self.boxes == set(self.level.goals)

    def move(self, letter: str) -> bool:
        """Apply one move (U/D/L/R, either case); returns True when it pushed a box."""
        key = letter.upper()
        if key not in DIRECTIONS:
            raise IllegalMove(f"move {self.moves + 1}: {letter!r} is not one of U, D, L, R")
        dr, dc = DIRECTIONS[key]
        r, c = self.player
        target = (r + dr, c + dc)
        if self.level.is_wall(target):
            raise IllegalMove(f"move {self.moves + 1}: {key} walks into a wall")
        pushed = False
        if target in self.boxes:
            beyond = (r + 2 * dr, c + 2 * dc)
            if self.level.is_wall(beyond) or beyond in self.boxes:
                raise IllegalMove(f"move {self.moves + 1}: {key} pushes a box into a wall or another box")
            self.boxes.remove(target)
            self.boxes.add(beyond)
            pushed = True
            self.pushes += 1
        self.player = target
        self.moves += 1
        return pushed

    def board(self) -> str:
        shown = Level(self.level.walls, self.level.goals, frozenset(self.boxes), self.player,
                      self.level.height, self.level.width)
        return shown.to_text()


@dataclass(frozen=True)
class Outcome:
    solved: bool
    moves: int
    pushes: int
    error: str = ""


def replay(level: Level, moves: str) -> Outcome:
    """Replay a move string; whitespace is ignored. Solved means: every move legal and all boxes on goals
    after the last move."""
    game = Game(level)
    for letter in "".join(moves.split()):
        try:
            game.move(letter)
        except IllegalMove as exc:
            return Outcome(False, game.moves, game.pushes, str(exc))
    if not game.solved:
        return Outcome(False, game.moves, game.pushes, "not all boxes are on goals after the last move")
    return Outcome(True, game.moves, game.pushes)
