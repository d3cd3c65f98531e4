# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of loan-portfolio-workbook: run the agent's ``/app/loanreport.py TAPE.xlsx`` on tapes it never saw.

Tapes are written here, at verify time, by tests/loangen.py (the generator that made /app/examples) from the
verifier's own seed, in families: clean tapes, renamed/reordered columns under merged group headers, text
dates and amounts, the 30/360 book with month-end dates, payment holidays and zero-rate loans, revolving
lines, control totals that do not reconcile, and everything at once. The truth comes from tests/reference.py,
computed from the generator's plain data, never from the workbook. A tape passes when every number of the
report matches (money within half a cent, counts and labels exactly).
"""
from __future__ import annotations

import json
import math
import random
import resource
import sys

from loangen import PUBLIC_CASES, PUBLIC_SEED, make_spec, write_workbook
from reference import report

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, Run, work_dir

SEED = 530117
APP_DIR = "/app"
PROGRAM = "/app/loanreport.py"
PER_FAMILY = 4
RUN_CPU_SEC = 10  # CPU seconds per tape (prlimit; hard limit 2 s above)
RUN_WALL_SEC = 90.0  # only a guard against a program that sleeps or waits
MAX_WALL_OUTS = 2
AGENT_CPU_BUDGET_SEC = 200.0
MONEY_TOL = 0.005


def family_knobs(family: str, rng: random.Random, index: int) -> dict:
    if family == "clean":
        return {}
    if family == "renamed_columns":
        return dict(vintage=1 + index % 2, reorder=True)
    if family == "text_cells":
        return dict(text_dates=True)
    if family == "day_count_30_360":
        return dict(day_count=True)
    if family == "holidays_zero_rate":
        return dict(holidays=True, zero_rate=True)
    if family == "revolvers":
        return dict(revolvers=True)
    if family == "reconciliation":
        return dict(totals_mismatch=True)
    if family == "everything":
        return dict(vintage=index % 3, reorder=index % 2 == 0, text_dates=True, day_count=True, holidays=True,
                    zero_rate=True, revolvers=True, totals_mismatch=True)
    raise KeyError(family)


FAMILIES = ["clean", "renamed_columns", "text_cells", "day_count_30_360", "holidays_zero_rate", "revolvers",
            "reconciliation", "everything"]


def same(got, want) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(same(got[k], want[k]) for k in want)
    if want is None or isinstance(want, str):
        return got == want
    if isinstance(want, int) and not isinstance(want, bool):
        return isinstance(got, int) and not isinstance(got, bool) and got == want
    if isinstance(want, float):
        return (isinstance(got, (int, float)) and not isinstance(got, bool) and math.isfinite(got)
                and abs(got - want) <= MONEY_TOL)
    raise TypeError(type(want))


class Program:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.dir = work_dir("tapes-")

    def run(self, stem: str, spec: dict) -> tuple[bool, bool]:
        """(well-formed JSON object, whole report correct)"""
        path = self.dir / f"{stem}.xlsx"
        write_workbook(spec, path)
        path.chmod(0o644)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            run = Run(False, "", "not run: CPU budget used up")
        else:
            limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
            run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, PROGRAM, str(path)])
        if not run.ok:
            return False, False
        try:
            got = json.loads(run.stdout)
        except ValueError:
            return False, False
        want = json.loads(json.dumps(report(spec)))
        return isinstance(got, dict), same(got, want)


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    prog = Program()
    public = [prog.run(f"public-{i}", make_spec(random.Random(PUBLIC_SEED + i), **knobs))
              for i, (_stem, knobs) in enumerate(PUBLIC_CASES)]
    card.binary("public_runs", 0.5, all(ok for ok, _ in public), visibility="public",
                detail="loanreport.py prints a JSON object for every /app/examples tape")
    card.fraction("public_examples", 1, [good for _, good in public], visibility="public",
                  detail="/app/examples tapes whose whole report is right")
    for family in FAMILIES:
        results = []
        for index in range(PER_FAMILY):
            rng = stress.rng(seed, family, index)
            spec = make_spec(rng, **family_knobs(family, rng, index))
            results.append(prog.run(f"{family}-{index}", spec)[1])
        card.fraction(f"hidden_{family}", 2, results, detail=f"{family}: tapes whose whole report is right")
    card.write()


if __name__ == "__main__":
    main()
