# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of sample-maze-campaign: run the agent's ``/app/solver.py MAZE`` on mazes it never saw.

Mazes come from the verifier's own copy of the engine (tests/engine, identical to the one shipped in /app),
so an agent that edits /app/engine changes nothing here; every move string is replayed in that copy.
"""

from __future__ import annotations

import sys
from collections import deque

from engine import CAMPAIGN, Maze, generate, replay
from engine.maze import MOVES

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, work_dir

SEED = 31337
APP_DIR = "/app"
SOLVER = "/app/solver.py"
# family -> (episodes, width range in cells, braid range, weight)
# Many small episodes per family, so the share solved by a partial solver is steady from seed to seed.
HIDDEN_FAMILIES = {
    "perfect": (6, (6, 14), (0.0, 0.0), 2),
    "braided": (30, (8, 14), (0.5, 1.0), 1),
    "large": (15, (25, 30), (0.3, 0.6), 1),
}
EFFICIENCY_BANDS = [(0.3, 0.0), (0.75, 0.4), (1.0, 1.0)]
# A walk longer than this many moves per floor cell is a wander, not a solution (a wall follower that never
# repeats a position and heading stays within it).
MAX_MOVES_PER_FLOOR_CELL = 4


def floor_cells(maze: Maze) -> int:
    return sum(row.count(".") + row.count("S") + row.count("G") for row in maze.rows)


def shortest_length(maze: Maze) -> int:
    """Breadth-first search from S to G (every generated maze is connected)."""
    start, goal = maze.find("S"), maze.find("G")
    distance = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return distance[goal]
        for dr, dc in MOVES.values():
            nxt = (r + dr, c + dc)
            if maze.is_floor(*nxt) and nxt not in distance:
                distance[nxt] = distance[(r, c)] + 1
                queue.append(nxt)
    raise RuntimeError("generated maze without a path from S to G")


def hidden_maze(seed: int, family: str, index: int) -> Maze:
    _count, (low, high), (braid_low, braid_high), _weight = HIDDEN_FAMILIES[family]
    rng = stress.rng(seed, family, index)
    width = low + min(int(rng.random() * (high - low + 1)), high - low)
    height = low + min(int(rng.random() * (high - low + 1)), high - low)
    braid = braid_low + (braid_high - braid_low) * rng.random()
    for _attempt in range(50):
        try:
            return generate(int(rng.random() * 2**31), width, height, braid)
        except IndexError:  # a start so central that no cell is far enough for the goal: draw the maze again
            continue
    raise RuntimeError(f"no {family} maze of {width} x {height} cells")


class Episodes:
    """Runs the solver on mazes and keeps (solved, efficiency) per episode."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=5.0)
        self.work_dir = work_dir("maze-episodes-")

    def play(self, name: str, maze: Maze) -> tuple[bool, float]:
        maze_path = self.work_dir / f"{name}.txt"
        maze_path.write_text(maze.to_text())
        run = self.runner.run([sys.executable, SOLVER, str(maze_path)])
        if not run.ok:
            return False, 0.0
        outcome = replay(maze, run.stdout)
        if not outcome.solved or outcome.moves > MAX_MOVES_PER_FLOOR_CELL * floor_cells(maze):
            return False, 0.0
        return True, min(1.0, shortest_length(maze) / max(outcome.moves, 1))


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    episodes = Episodes()
    public = [episodes.play(f"level-{i}", generate(*level)) for i, level in enumerate(CAMPAIGN, start=1)]
    card.episodes(
        "public_levels",
        1,
        [solved for solved, _ in public],
        visibility="public",
        detail="the campaign levels in /app/mazes",
    )
    hidden = []
    for family, (count, _sizes, _braids, weight) in HIDDEN_FAMILIES.items():
        results = [episodes.play(f"{family}-{i}", hidden_maze(seed, family, i)) for i in range(count)]
        card.episodes(f"hidden_{family}", weight, [solved for solved, _ in results], detail=f"{family} mazes")
        hidden += results
    efficiency = sum(eff for _, eff in hidden) / len(hidden)
    card.banded(
        "hidden_path_efficiency",
        5,
        efficiency,
        bands=EFFICIENCY_BANDS,
        detail="mean of optimal/actual moves over hidden mazes (0 when unsolved)",
    )
    card.write()


if __name__ == "__main__":
    main()
