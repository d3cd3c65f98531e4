# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line of the maze engine; run ``python3 -m engine --help``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.game import Game, IllegalMove, replay
from engine.maze import CAMPAIGN, Maze, generate


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    return int(width), int(height)


def cmd_new(args: argparse.Namespace) -> int:
    width, height = args.size
    text = generate(args.seed, width, height, args.braid).to_text()
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_campaign(args: argparse.Namespace) -> int:
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for level, (seed, width, height, braid) in enumerate(CAMPAIGN, start=1):
        (out_dir / f"level-{level}.txt").write_text(generate(seed, width, height, braid).to_text())
    print(f"wrote {len(CAMPAIGN)} levels to {out_dir}")
    return 0


def cmd_move(args: argparse.Namespace) -> int:
    maze = Maze.from_text(Path(args.maze).read_text())
    outcome = replay(maze, args.moves)
    game = Game(maze)
    for direction in "".join(args.moves.split())[: outcome.moves]:
        game.move(direction)
    sys.stdout.write(game.board())
    print(f"solved in {outcome.moves} moves" if outcome.solved else f"not solved: {outcome.error}")
    return 0 if outcome.solved else 1


def cmd_play(args: argparse.Namespace) -> int:
    """Interactive play on a terminal: type moves (e.g. RRD) and Enter; q quits."""
    game = Game(Maze.from_text(Path(args.maze).read_text()))
    while not game.solved:
        sys.stdout.write(game.board())
        line = input(f"moves so far {game.moves}> ").strip()
        if line == "q":
            return 1
        for direction in line.upper():
            try:
                game.move(direction)
            except IllegalMove as exc:
                print(exc)
                break
    print(f"solved in {game.moves} moves")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="engine", description="Grid maze engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="print (or write) a new maze")
    new.add_argument("--seed", type=int, required=True)
    new.add_argument("--size", type=_size, default=(10, 10), help="WIDTHxHEIGHT in cells (default 10x10)")
    new.add_argument("--braid", type=float, default=0.0, help="share of dead ends opened into loops, 0..1")
    new.add_argument("-o", "--output", help="write the maze to this file instead of stdout")
    new.set_defaults(run=cmd_new)
    campaign = sub.add_parser("campaign", help="write the public campaign levels")
    campaign.add_argument("--out", default="/app/mazes")
    campaign.set_defaults(run=cmd_campaign)
    move = sub.add_parser("move", help="replay a move string on a maze file and report the result")
    move.add_argument("maze")
    move.add_argument("moves")
    move.set_defaults(run=cmd_move)
    play = sub.add_parser("play", help="play a maze interactively")
    play.add_argument("maze")
    play.set_defaults(run=cmd_play)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
