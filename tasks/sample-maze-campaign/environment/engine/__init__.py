# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A tiny grid-maze engine: generate mazes from seeds, read and write maze files, replay move strings."""

from engine.game import Game, IllegalMove, Outcome, replay
from engine.maze import CAMPAIGN, MOVES, Maze, generate

__all__ = ["CAMPAIGN", "MOVES", "Game", "IllegalMove", "Maze", "Outcome", "generate", "replay"]
