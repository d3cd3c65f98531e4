# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Smoke tests of the engine and the solver on the public campaign (run from /app: python3 -m pytest -q tests)."""

import subprocess
import sys
from pathlib import Path

import pytest

from sokoban import parse_level, replay

APP = Path(__file__).resolve().parent.parent
LEVELS = sorted((APP / "levels").glob("*.xsb"))


def test_simple_push():
    level = parse_level("#####\n#@$.#\n#####\n")
    assert replay(level, "R").solved
    assert not replay(level, "L").solved


def test_player_on_goal_and_alternative_floor():
    level = parse_level("; Title: x\n;\n######\n#+-$_#\n#_$.-#\n######\n")
    assert level.player == (1, 1)
    assert level.goals == {(1, 1), (2, 3)}
    assert level.width == 6


@pytest.mark.parametrize("path", LEVELS, ids=[p.name for p in LEVELS])
def test_campaign_level_loads(path):
    level = parse_level(path.read_text())
    assert len(level.boxes) == len(level.goals)


@pytest.mark.parametrize("path", LEVELS[:2], ids=[p.name for p in LEVELS[:2]])
def test_solver_solves(path):
    run = subprocess.run([sys.executable, str(APP / "solver.py"), str(path)], capture_output=True, text=True,
                         timeout=60, cwd=APP)
    assert run.returncode == 0
    assert replay(parse_level(path.read_text()), run.stdout).solved
