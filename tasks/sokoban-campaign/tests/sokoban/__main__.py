# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line of the Sokoban engine; run ``python3 -m sokoban --help``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sokoban.game import Game, IllegalMove, replay
from sokoban.level import parse_level


def cmd_show(args: argparse.Namespace) -> int:
    level = parse_level(Path(args.level).read_text())
    sys.stdout.write(level.to_text())
    print(f"{len(level.boxes)} boxes, {len(level.floor_cells())} floor cells, player at {level.player}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    level = parse_level(Path(args.level).read_text())
    moves = args.moves if args.moves is not None else sys.stdin.read()
    outcome = replay(level, moves)
    if args.verbose:
        game = Game(level)
        for letter in "".join(moves.split())[: outcome.moves]:
            game.move(letter)
        sys.stdout.write(game.board())
    if outcome.solved:
        print(f"solved in {outcome.moves} moves, {outcome.pushes} pushes")
        return 0
    print(f"not solved after {outcome.moves} moves: {outcome.error}")
    return 1


def cmd_play(args: argparse.Namespace) -> int:
    """Interactive play on a terminal: type moves (e.g. rrUl) and Enter; q quits."""
    game = Game(parse_level(Path(args.level).read_text()))
    while not game.solved:
        sys.stdout.write(game.board())
        line = input(f"moves {game.moves} pushes {game.pushes}> ").strip()
        if line == "q":
            return 1
        for letter in line:
            try:
                game.move(letter)
            except IllegalMove as exc:
                print(exc)
                break
    print(f"solved in {game.moves} moves, {game.pushes} pushes")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sokoban", description="Sokoban engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="parse a level file and print it back")
    show.add_argument("level")
    show.set_defaults(run=cmd_show)
    rep = sub.add_parser("replay", help="replay a LURD move string (argument or stdin) and report the result")
    rep.add_argument("level")
    rep.add_argument("moves", nargs="?")
    rep.add_argument("-v", "--verbose", action="store_true", help="print the final board")
    rep.set_defaults(run=cmd_replay)
    play = sub.add_parser("play", help="play a level interactively")
    play.add_argument("level")
    play.set_defaults(run=cmd_play)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
