# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of spec-to-library: the agent's /app/recur is run on ~300 conformance cases generated here from a seed
and compared with the reference implementation (tests/reference_recur.py), family by family."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import FAMILY_SIZES, family_cases  # noqa: E402
from reference_recur import run as reference  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, work_dir  # noqa: E402

SEED = 5545
APP_DIR = "/app"
WEIGHTS = {"basic": 1, "until": 1, "byday": 1.5, "bymonthday": 1.5, "bysetpos": 1.5, "weekly_wkst": 1,
           "exdate": 1, "yearly": 1.5, "invalid": 1}
EXIT = re.compile(r"exit status (-?\d+)")


def expected_line(case) -> str:
    code, out = reference(list(case))
    return "error" if code else " ".join(out.split())


class Recur:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=30.0, max_timeouts=3)
        self.dir = work_dir("recur-cases-")

    def batch(self, name: str, cases) -> list[str] | None:
        path = self.dir / f"{name}.tsv"
        path.write_text("".join("\t".join(c) + "\n" for c in cases), encoding="utf-8")
        path.chmod(0o644)
        run = self.runner.run([sys.executable, "-m", "recur", "--batch", str(path)])
        return run.stdout.split("\n")[: len(cases)] if run.ok else None

    def single(self, case) -> tuple[int | None, str]:
        run = self.runner.run([sys.executable, "-m", "recur", *case])
        match = EXIT.search(run.note)
        return (int(match[1]) if match else None), run.stdout


def score_batch(recur: Recur, name: str, cases, works: bool) -> list[bool]:
    got = recur.batch(name, cases)
    if got is None:
        return [False] * len(cases)
    got += [None] * (len(cases) - len(got))
    expected = [expected_line(c) for c in cases]
    ok = [g is not None and g.strip() == e for g, e in zip(got, expected)]
    return without_free_credit(ok, [e not in ("", "error") for e in expected], works)


def without_free_credit(ok: list[bool], substantive: list[bool], works: bool) -> list[bool]:
    """Cases whose right answer is nothing (no occurrences, or an error) only count when the program passes the
    basic CLI check (cli_runs): printing nothing earns nothing."""
    return ok if works else [o and s for o, s in zip(ok, substantive)]


def public_cases() -> list[tuple[tuple[str, str, str], str]]:
    pairs = []
    cases_file, expected_file = Path(APP_DIR, "examples/cases.tsv"), Path(APP_DIR, "examples/expected.txt")
    if cases_file.is_file() and expected_file.is_file():
        for line, want in zip(cases_file.read_text().splitlines(), expected_file.read_text().splitlines()):
            pairs.append((tuple(line.split("\t")), want))
    return pairs


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    recur = Recur()

    runs = recur.single(("FREQ=DAILY;COUNT=3", "2024-01-30T09:00:00", "5")) == (0, reference(["FREQ=DAILY;COUNT=3", "2024-01-30T09:00:00", "5"])[1])
    card.binary("cli_runs", 0.5, runs, visibility="public", detail="python3 -m recur RULE START N prints occurrences")
    pub = public_cases()
    card.fraction("public_examples", 1, lambda: score_batch(recur, "public", [c for c, _ in pub], runs) if pub else [],
                  visibility="public", detail="/app/examples cases (batch mode)")

    for family, weight in WEIGHTS.items():
        cases = family_cases(seed, family)
        card.fraction(f"hidden_{family}", weight, score_batch(recur, family, cases, runs), detail=f"{family} conformance cases")

    singles, substantive = [], []
    for family in FAMILY_SIZES:
        for case in family_cases(seed + 1, family)[:2]:
            code, out = reference(list(case))
            singles.append(recur.single(case) == (code, out))
            substantive.append(code == 0 and out != "")
    card.fraction("hidden_cli_singles", 1, without_free_credit(singles, substantive, runs),
                  detail="single invocations: stdout and exit status")
    card.write()


if __name__ == "__main__":
    main()
