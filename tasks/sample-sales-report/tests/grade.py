# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of sample-sales-report: run the agent's ``/app/report.py CSV_DIR OUTPUT`` on CSV sets it never saw.

Hidden sets come from tests/generate.py (a copy of the build-time generator) with the verifier's own seeds,
one family per kind of mess; tests/reference.py gives the expected summary. Scores give partial credit:
per-set exact matches, the accuracy of the grand total, and per-key accuracy of the breakdowns.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import sys

from generate import KNOBS, PUBLIC_SEED, make_dataset, write_dataset
from reference import summarize_dir

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir

SEED = 90210
SETS_PER_FAMILY = 6
APP_DIR = "/app"
REPORT = "/app/report.py"
CENTS = 0.01 + 1e-9
# Per-set credit for total_usd by relative error: full within 0.05 %, none from 1 % on, so a rough
# estimate (no deduplication, no currency conversion, an average rate) earns nothing.
TOTAL_BANDS = [(0.0005, 1.0), (0.002, 0.5), (0.01, 0.0)]
FAMILIES = {
    "clean": frozenset(),
    "layout": frozenset({"layout"}),
    "formatting": frozenset({"formatting"}),
    "currency": frozenset({"currency"}),
    "duplicates": frozenset({"duplicates"}),
    "missing": frozenset({"missing"}),
    "messy": frozenset(KNOBS),
}


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def close(actual: object, expected: float) -> bool:
    number = _number(actual)
    return number is not None and abs(number - expected) <= CENTS


def breakdown_cases(actual: dict | None, expected: dict, key: str) -> list[bool]:
    """One case per expected key (right amount) plus one failed case per unexpected key."""
    got = actual.get(key) if isinstance(actual, dict) else None
    got = got if isinstance(got, dict) else {}
    cases = [name in got and close(got[name], value) for name, value in expected[key].items()]
    return cases + [False for name in got if name not in expected[key]]


def counts_right(actual: dict | None, expected: dict) -> bool:
    if not isinstance(actual, dict):
        return False
    return all(type(actual.get(key)) is int and actual[key] == expected[key] for key in ("orders", "skipped"))


def exact(actual: dict | None, expected: dict) -> bool:
    return (
        counts_right(actual, expected)
        and close(actual.get("total_usd"), expected["total_usd"])
        and all(all(breakdown_cases(actual, expected, key)) for key in ("by_region", "by_month"))
    )


def total_error(actual: dict | None, expected: dict) -> float:
    """Relative error of total_usd, capped at 1 (a missing or invalid total counts 1)."""
    number = _number(actual.get("total_usd")) if isinstance(actual, dict) else None
    if number is None:
        return 1.0
    return min(1.0, abs(number - expected["total_usd"]) / max(abs(expected["total_usd"]), 1.0))


def band_score(value: float, bands: list[tuple[float, float]]) -> float:
    """Piecewise-linear credit through (error, score) points, clamped at both ends."""
    if value <= bands[0][0]:
        return bands[0][1]
    for (x0, s0), (x1, s1) in itertools.pairwise(bands):
        if value <= x1:
            return s0 + (s1 - s0) * (value - x0) / (x1 - x0)
    return bands[-1][1]


class ReportRunner:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=5.0)
        self.work_dir = work_dir("sales-sets-")

    def run(self, set_name: str, files: dict[str, str]) -> tuple[dict | None, dict]:
        """(the agent's summary or None, the expected summary) for one data set."""
        csv_dir = self.work_dir / set_name
        write_dataset(csv_dir, files)
        output = writable_dir(self.work_dir / f"{set_name}-out") / "summary.json"
        expected = summarize_dir(csv_dir)
        run = self.runner.run([sys.executable, REPORT, str(csv_dir), str(output)])
        text = read_regular_file(output) if run.ok else None
        try:
            actual = json.loads(text) if text is not None else None
        except ValueError:
            return None, expected
        return (actual if isinstance(actual, dict) else None), expected


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    runner = ReportRunner()
    public_actual, public_expected = runner.run("public", make_dataset(random.Random(PUBLIC_SEED), frozenset(KNOBS)))
    card.binary(
        "public_data",
        1,
        exact(public_actual, public_expected),
        visibility="public",
        detail="report of the /app/data set is fully right",
    )

    results = []
    for family, knobs in FAMILIES.items():
        for index in range(SETS_PER_FAMILY):
            files = make_dataset(stress.rng(seed, family, index), knobs)
            results.append(runner.run(f"{family}-{index}", files))

    card.fraction(
        "hidden_exact", 3, [exact(a, e) for a, e in results], detail="hidden sets whose summary is fully right"
    )
    errors = [total_error(a, e) for a, e in results]
    card.add(
        "hidden_total_usd",
        2,
        math.fsum(band_score(error, TOTAL_BANDS) for error in errors) / len(errors),
        kind="continuous",
        visibility="hidden",
        detail=f"mean per-set credit for the relative error of total_usd (bands {TOTAL_BANDS})",
    )
    card.fraction(
        "hidden_by_region",
        2,
        [c for a, e in results for c in breakdown_cases(a, e, "by_region")],
        detail="region totals right",
    )
    card.fraction(
        "hidden_by_month",
        2,
        [c for a, e in results for c in breakdown_cases(a, e, "by_month")],
        detail="month totals right",
    )
    card.fraction(
        "hidden_order_counts", 2, [counts_right(a, e) for a, e in results], detail="orders and skipped both right"
    )
    card.write()


if __name__ == "__main__":
    main()
