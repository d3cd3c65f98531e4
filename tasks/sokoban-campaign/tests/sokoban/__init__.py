# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A small Sokoban engine: level files, move replay and a command line (``python3 -m sokoban --help``)."""

from sokoban.game import Game, IllegalMove, Outcome, replay
from sokoban.level import DIRECTIONS, Level, LevelError, parse_level

__all__ = ["DIRECTIONS", "Game", "IllegalMove", "Level", "LevelError", "Outcome", "parse_level", "replay"]
