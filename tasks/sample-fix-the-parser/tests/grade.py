# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of sample-fix-the-parser: run the agent's ``python3 -m logparse FILE`` on public and hidden logs.

Every case compares the printed JSON with the verifier's own reference summariser (tests/reference.py).
Hidden logs are generated here, from the verify seed (stress.seed_from_env), so they never exist in the agent's image.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from logcases import make_log
from reference import summarize_text

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, work_dir

SEED = 61120
CASES_PER_FAMILY = 8
APP_DIR = "/app"
PUBLIC_DIR = Path(__file__).resolve().parent / "public"
# family -> weight; the public examples weigh 1, so hidden cases carry 11/12 of the reward.
HIDDEN_FAMILIES = {"clean": 2, "noisy": 2, "pipes": 2, "level_case": 2, "mixed": 3}


def same(actual: object, expected: object) -> bool:
    """Structural equality; numbers may differ by 1e-6 (an int and an equal float are the same)."""
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(same(actual[key], expected[key]) for key in expected)
        )
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return isinstance(actual, (int, float)) and not isinstance(actual, bool) and abs(actual - expected) <= 1e-6
    return type(actual) is type(expected) and actual == expected


class LogChecker:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=5.0)
        self.work_dir = work_dir("logparse-cases-")

    def check(self, case_name: str, text: str) -> tuple[bool, str]:
        """Run the CLI on ``text``; (passed, why not)."""
        log_path = self.work_dir / f"{case_name}.log"
        log_path.write_text(text, encoding="utf-8")
        run = self.runner.run([sys.executable, "-m", "logparse", str(log_path)])
        if not run.ok:
            return False, run.note
        try:
            actual = json.loads(run.stdout)
        except ValueError:
            return False, "stdout is not JSON"
        return (True, "") if same(actual, summarize_text(text)) else (False, "wrong statistics")

    def score(self, card: Scorecard, name: str, weight: float, cases: list[tuple[str, str]], **kw) -> None:
        results = [self.check(case_name, text) for case_name, text in cases]
        failures = Counter(why for passed, why in results if not passed)
        detail = ", ".join(f"{count}x {why}" for why, count in sorted(failures.items()))
        card.fraction(name, weight, [passed for passed, _ in results], detail=detail, **kw)


def reorder(text: str, seed: int, label: str) -> str:
    lines = text.splitlines()
    stress.rng(seed, "public-order", label).shuffle(lines)
    return "\n".join(lines) + "\n"


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    checker = LogChecker()
    # The public examples' lines in a seeded new order: same content, other bytes, so a program that looks up
    # the shipped example outputs gains nothing, while a correct parser passes (expected stats are recomputed).
    public = [
        (path.stem, reorder(path.read_text(encoding="utf-8"), seed, path.stem))
        for path in sorted(PUBLIC_DIR.glob("*.log"))
    ]
    checker.score(card, "public_examples", 1, public, visibility="public")
    for family, weight in HIDDEN_FAMILIES.items():
        # One independent stream per (family, case): adding a case or a family never shifts the others.
        cases = [(f"{family}-{i}", make_log(stress.rng(seed, family, i), family)) for i in range(CASES_PER_FAMILY)]
        checker.score(card, f"hidden_{family}", weight, cases, visibility="hidden")
    card.write()


if __name__ == "__main__":
    main()
