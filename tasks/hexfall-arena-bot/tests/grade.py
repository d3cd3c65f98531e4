# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of hexfall-arena-bot: the agent's /app/bot plays the verifier's own hexfall build.

tests/engine/hexfall.c (a copy of the image's engine, kept identical by [verifier.copies]) is compiled here
with its reference opponents. Boards come from the verify seed; a board is kept only when the reference
search (the engine's level 9) beats that family's opponent on it from the bot's side, so every graded game
can be won. The bot runs once per move through AgentRunner under a CPU-time limit; a crash, a timeout or
garbage is an illegal move, which costs the turn and a point, exactly as the engine rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, work_dir

SEED = stress.seed_from_env(52301)
HERE = Path(__file__).resolve().parent
BOT = "/app/bot"
CPU_SEC = 2  # CPU seconds per move (prlimit)
WALL_SEC = 30.0  # only a guard against a bot that sleeps or waits
MAX_TIMEOUTS = 3  # per family; after that the family's remaining moves are illegal without running the bot
MAX_CANDIDATES = 60
WIN_BANDS = {1: [(0.9, 0.0), (1.0, 1.0)], 2: [(0.7, 0.0), (0.95, 1.0)], 3: [(0.7, 0.0), (0.95, 1.0)]}  # by opponent level
# name -> (board family, opponent level, games, weight, visibility)
FAMILIES = {
    "public_standard_vs_random": ("standard", 1, 8, 0.5, "public"),
    "hidden_standard_vs_greedy": ("standard", 2, 8, 2.0, "hidden"),
    "hidden_standard_vs_lookahead": ("standard", 3, 8, 2.0, "hidden"),
    "hidden_wide_vs_lookahead": ("wide", 3, 6, 1.5, "hidden"),
    "hidden_hazard_vs_greedy": ("hazard", 2, 6, 1.5, "hidden"),
    "hidden_layout_vs_lookahead": ("layout", 3, 6, 1.5, "hidden"),
    "hidden_tall_vs_lookahead": ("tall", 3, 6, 1.5, "hidden"),
}
CPU_KILLED = {"exit status -24", "exit status -9"}


def build_engine() -> str:
    out = Path(tempfile.mkdtemp(prefix="hexfall-ref-")) / "hexfall"
    subprocess.run(["gcc", "-O2", "-o", str(out), str(HERE / "engine" / "hexfall.c")], check=True)
    return str(out)


ENGINE = build_engine()


def engine(args: list[str], stdin: str = "") -> str:
    return subprocess.run([ENGINE, *args], input=stdin, capture_output=True, text=True, check=True).stdout


class Arena:
    def __init__(self) -> None:
        self.dir = work_dir("hexfall-states-")
        self.legal = 0
        self.moves = 0
        self.notes: list[str] = []

    def bot_move(self, runner: AgentRunner, state: str, cpu_outs: list[int]) -> str:
        if runner.timeouts + cpu_outs[0] >= MAX_TIMEOUTS:
            return "none"
        path = self.dir / "state.txt"
        path.write_text(state)
        path.chmod(0o644)
        run = runner.run(["prlimit", f"--cpu={CPU_SEC}:{CPU_SEC + 1}", BOT, str(path)])
        if run.note in CPU_KILLED:
            cpu_outs[0] += 1
        if not run.ok:
            self.notes.append(f"bot: {run.note}")
            return "none"
        lines = run.stdout.strip().splitlines()
        return lines[0].strip()[:20] if lines else "none"

    def game(self, runner: AgentRunner, board: str, seed: int, level: int, side: str, cpu_outs: list[int]) -> bool:
        state = engine(["new", "--seed", str(seed), "--family", board])
        for ply in range(200):
            turn = state.splitlines()[2].split()[1]
            if turn == side:
                move = self.bot_move(runner, state, cpu_outs)
            else:
                move = engine(["ai", str(level), str(seed * 1000003 + ply)], state).strip()
            reply = json.loads(engine(["referee"], f"{state}move {move}\n"))
            if turn == side:
                self.moves += 1
                self.legal += bool(reply["legal"])
            state = reply["state"]
            if reply["over"]:
                me, other = (0, 1) if side == "A" else (1, 0)
                return reply["final"][me] > reply["final"][other]
        raise RuntimeError("game did not end")  # the engine's move limit makes this unreachable


def boards(name: str, board: str, level: int, games: int) -> list[tuple[int, str]]:
    """Seeded boards of one family that the reference search wins from the bot's side."""
    kept: list[tuple[int, str]] = []
    for index in range(MAX_CANDIDATES):
        rng = stress.rng(SEED, name, index)
        seed = int(rng.random() * 2**40)
        side = "AB"[len(kept) % 2]
        if engine(["duel", board, str(seed), str(level), str("AB".index(side))]).strip() == "1":
            kept.append((seed, side))
        if len(kept) == games:
            return kept
    raise RuntimeError(f"{name}: too few winnable boards")


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    arena = Arena()
    results = {}
    for name, (board, level, games, weight, visibility) in FAMILIES.items():
        runner = AgentRunner("/app", timeout_sec=WALL_SEC, max_timeouts=MAX_TIMEOUTS)
        cpu_outs = [0]
        wins = [arena.game(runner, board, seed, level, side, cpu_outs) for seed, side in boards(name, board, level, games)]
        results[name] = (wins, weight, visibility, board, level)
    card.banded("legal_move_rate", 1.0, arena.legal / max(arena.moves, 1), bands=[(0.9, 0.0), (1.0, 1.0)],
                visibility="public", detail=f"{arena.legal}/{arena.moves} legal moves")
    for name, (wins, weight, visibility, board, level) in results.items():
        card.banded(name, weight, sum(wins) / len(wins), bands=WIN_BANDS[level], visibility=visibility,
                    detail=f"won {sum(wins)}/{len(wins)} on {board} boards against level {level}")
    if arena.notes:
        print("bot failures:\n  " + "\n  ".join(arena.notes[:20]))
    card.write()


if __name__ == "__main__":
    sys.exit(main())
