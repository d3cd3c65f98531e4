# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of sokoban-campaign: run the agent's ``/app/solver.py LEVEL`` on levels it never saw.

Levels come from tests/generator.py (reverse play from solved states, so each is solvable) with the
verifier's own seed; every optimum is proven by tests/reference.py (A*, consistent heuristic) while the level
is generated. Every move string is replayed in the verifier's own engine copy (tests/sokoban), so edits to
/app/sokoban change nothing here.
"""

from __future__ import annotations

import sys
from pathlib import Path

from generator import FAMILIES, generate
from sokoban import parse_level, replay

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, work_dir

SEED = stress.seed_from_env(60417)
PUBLIC_DIR = Path(__file__).resolve().parent / "public"  # the verifier's copy of the campaign in /app/levels
APP_DIR = "/app"
SOLVER = "/app/solver.py"
TIME_LIMIT_SEC = 6  # CPU seconds per level (prlimit): a busy machine costs a solver nothing
WALL_LIMIT_SEC = 60.0  # only a guard against a solver that sleeps or waits
MAX_TIMEOUTS = 2  # per family; CPU-limit kills and wall timeouts alike
CPU_KILLED = {"exit status -24", "exit status -9"}  # SIGXCPU at the soft limit, SIGKILL at the hard one
# family -> (levels, weight)
HIDDEN = {"small": (3, 1), "medium": (4, 2), "rooms": (4, 2), "crowded": (4, 2), "encoded": (3, 2), "irregular": (3, 2),
          "warehouse": (4, 3)}
OPTIMALITY_BANDS = [(0.5, 0.0), (0.9, 0.5), (1.0, 1.0)]


class Player:
    def __init__(self) -> None:
        self.runners: dict[str, AgentRunner] = {}
        self.cpu_outs: dict[str, int] = {}
        self.dir = work_dir("sokoban-levels-")
        self.notes: list[str] = []

    def play(self, group: str, name: str, text: str, optimum: int | None) -> tuple[bool, float | None]:
        """(solved, optimum / moves or 0; None where the optimum is unknown) for one level."""
        path = self.dir / f"{name}.xsb"
        path.write_text(text)
        path.chmod(0o644)
        # each group of levels has its own timeout allowance, so timeouts in one group never cost another
        runner = self.runners.setdefault(group, AgentRunner(APP_DIR, timeout_sec=WALL_LIMIT_SEC, max_timeouts=2))
        if runner.timeouts + self.cpu_outs.get(group, 0) >= MAX_TIMEOUTS:
            self.notes.append(f"{name}: not run: the solver timed out too often in this family")
            return False, 0.0
        limit = f"--cpu={TIME_LIMIT_SEC}:{TIME_LIMIT_SEC + 1}"
        run = runner.run(["prlimit", limit, sys.executable, SOLVER, str(path)])
        if run.note in CPU_KILLED:
            self.cpu_outs[group] = self.cpu_outs.get(group, 0) + 1
            self.notes.append(f"{name}: over {TIME_LIMIT_SEC} s of CPU time")
            return False, 0.0
        if not run.ok:
            self.notes.append(f"{name}: {run.note}")
            return False, 0.0
        outcome = replay(parse_level(text), run.stdout)
        if not outcome.solved:
            self.notes.append(f"{name}: {outcome.error}")
            return False, 0.0
        return True, None if optimum is None else min(1.0, optimum / max(outcome.moves, 1))


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    player = Player()

    public = [player.play("public", path.stem, path.read_text(), 1)[0] for path in sorted(PUBLIC_DIR.glob("*.xsb"))]
    card.episodes("public_campaign", 1, public, visibility="public", detail="the ten levels in /app/levels")

    ratios = []
    for family, (count, weight) in HIDDEN.items():
        results = []
        for index in range(count):
            text, optimum = generate(stress.rng(SEED, family, index), family, title=f"{family} {index + 1}")
            solved, ratio = player.play(family, f"{family}-{index}", text, optimum)
            results.append(solved)
            if optimum is not None:
                ratios.append(0.0 if ratio is None else ratio)
        card.episodes(f"hidden_{family}", weight, results, detail=f"{family} levels")
    card.banded(
        "hidden_move_optimality",
        3,
        sum(ratios) / len(ratios),
        bands=OPTIMALITY_BANDS,
        detail="mean of optimal/actual moves over hidden levels of at most four boxes (0 when unsolved)",
    )
    if player.notes:
        print("failed levels:\n  " + "\n  ".join(player.notes[:40]))
    card.write()


if __name__ == "__main__":
    main()
