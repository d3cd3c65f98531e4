# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Play a maze: one move at a time, or replay a whole move string."""

from __future__ import annotations

from dataclasses import dataclass

from engine.maze import GOAL, MOVES, START, Maze


class IllegalMove(ValueError):
    pass


class Game:
    def __init__(self, maze: Maze) -> None:
        self.maze = maze
        self.position = maze.find(START)
        self.goal = maze.find(GOAL)
        self.moves = 0

    @property
    def solved(self) -> bool:
        return self.position == self.goal

    def move(self, direction: str) -> None:
        """Step one cell; a move into a wall or off the grid is illegal and leaves the game unchanged."""
        if direction not in MOVES:
            raise IllegalMove(f"move {self.moves + 1}: {direction!r} is not one of U, D, L, R")
        dr, dc = MOVES[direction]
        target = (self.position[0] + dr, self.position[1] + dc)
        if not self.maze.is_floor(*target):
            raise IllegalMove(f"move {self.moves + 1} ({direction}) runs into a wall")
        self.position = target
        self.moves += 1

    def board(self) -> str:
        rows = [list(row) for row in self.maze.rows]
        rows[self.position[0]][self.position[1]] = "@"
        return "\n".join("".join(row) for row in rows) + "\n"


@dataclass(frozen=True)
class Outcome:
    solved: bool
    moves: int
    error: str | None


def replay(maze: Maze, moves: str) -> Outcome:
    """Play ``moves`` (whitespace ignored) from S; solved means every move was legal and the last ends on G."""
    game = Game(maze)
    for direction in "".join(moves.split()):
        try:
            game.move(direction)
        except IllegalMove as exc:
            return Outcome(False, game.moves, str(exc))
    return Outcome(game.solved, game.moves, None if game.solved else "the last move does not end on G")
