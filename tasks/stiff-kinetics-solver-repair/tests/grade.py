# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of stiff-kinetics-solver-repair: run ``/app/kinetics/cli.py MECH.yaml CONDITIONS.json`` on
mechanisms generated here from the verifier's seed and compare with scipy's Radau at tight tolerances.

Families: first-order chains, Robertson-like stiff systems, reversible second-order reactions with Arrhenius
rates in other energy units, networks written in other concentration/time units, stiff mass-conserving
networks and large stiff networks. Equations are spelled with coefficients "2 A", "2A" or repeated species.

Accuracy of a case: e = max over species and times of |c - c_ref| / (1e-3 |c_ref| + 1e-6 C0) (C0 = the sum of
the initial concentrations); e <= 1 scores 1, falling log-linearly to 0 at e = 100.
Conservation: every generated reaction conserves a per-species mass; the mass total must stay within 1e-6
(relative) of its initial value, in a trajectory that is roughly right (e <= 10). Efficiency: the RHS evaluations the solver reports, relative to scipy's
Radau at the case's own rtol/atol (geometric mean over the stiff families, only accurate cases count).
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
from pathlib import Path

import numpy as np
from mechgen import PUBLIC_CASES, PUBLIC_SEED, CONC, TIME, make_case, write_case
from reference import reference, radau_nfev

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, work_dir

SEED = 606217
APP_DIR = "/app"
CLI = "/app/kinetics/cli.py"
PER_FAMILY = 3
FAMILIES = ["chain", "robertson", "reversible", "units", "stiff_network", "large_network"]
STIFF = {"robertson", "stiff_network", "large_network"}
ACCURACY_BANDS = [(0.0, 1.0), (1.0, 0.5), (2.0, 0.0)]  # over log10(e)
FORBIDDEN = re.compile(r"scipy\.integrate|solve_ivp|odeint|\bLSODA\b|from\s+scipy\s+import\s+integrate")


def evaluate(case: dict, actual: object) -> dict:
    species = case["mechanism"]["species"]
    cond = case["conditions"]
    out = {"e": math.inf, "conserved": False, "nfev": None}
    if not isinstance(actual, dict) or not isinstance(actual.get("concentrations"), dict):
        return out
    try:
        got = np.array([[float(v) for v in actual["concentrations"][s]] for s in species], dtype=float).T
    except (KeyError, TypeError, ValueError):
        return out
    ref = reference(case)
    if got.shape != ref.shape or not np.all(np.isfinite(got)):
        return out
    c0 = sum(cond["initial"].values())
    out["e"] = float(np.max(np.abs(got - ref) / (1e-3 * np.abs(ref) + 1e-6 * c0)))
    masses = np.array(case["masses"], dtype=float)
    total0 = sum(cond["initial"].get(s, 0.0) * m for s, m in zip(species, masses))
    # conservation only counts for a trajectory that is roughly right (e <= 10)
    out["conserved"] = bool(out["e"] <= 10.0 and np.max(np.abs(got @ masses - total0)) <= 1e-6 * total0)
    stats = actual.get("stats")
    nfev = stats.get("nfev") if isinstance(stats, dict) else None
    if isinstance(nfev, int) and not isinstance(nfev, bool) and nfev > 0:
        out["nfev"] = nfev
    return out


def accuracy_score(e: float) -> float:
    if not math.isfinite(e):
        return 0.0
    x = math.log10(max(e, 1e-12))
    if x <= 0:
        return 1.0
    return max(0.0, 1.0 - x / 2.0)


class Runner:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=30.0, max_timeouts=4)
        self.work_dir = work_dir("kinetics-")

    def run(self, stem: str, case: dict) -> dict:
        mech, cond = write_case(case, self.work_dir, stem)
        run = self.runner.run([sys.executable, CLI, str(mech), str(cond)])
        actual = None
        if run.ok:
            try:
                actual = json.loads(run.stdout)
            except ValueError:
                actual = None
        return evaluate(case, actual)


def uses_library_integrator() -> bool:
    for path in sorted(Path(APP_DIR, "kinetics").rglob("*.py")):
        try:
            if FORBIDDEN.search(path.read_text(errors="replace")):
                return True
        except OSError:
            continue
    return False


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    runner = Runner()

    public = []
    for index, (family, units_mode, style) in enumerate(PUBLIC_CASES):
        case = make_case(family, random.Random(PUBLIC_SEED + index), units_mode=units_mode, style=style)
        public.append(runner.run(f"public-{index}", case))
    card.binary("public_runs", 0.5, all(math.isfinite(r["e"]) for r in public), visibility="public",
                detail="cli.py prints complete trajectories for the /app/examples cases")
    card.fraction("public_examples", 1, [r["e"] <= 1.0 for r in public], visibility="public",
                  detail="/app/examples cases within the accuracy tolerance")

    results: dict[str, list[tuple[dict, dict]]] = {}
    for family in FAMILIES:
        results[family] = []
        for index in range(PER_FAMILY):
            case = make_case(family, stress.rng(seed, family, index))
            results[family].append((case, runner.run(f"{family}-{index}", case)))
        scores = [accuracy_score(r["e"]) for _c, r in results[family]]
        worst = max(r["e"] for _c, r in results[family])
        card.add(f"hidden_{family}", 2, sum(scores) / len(scores), kind="continuous",
                 detail=f"mean accuracy score over {len(scores)} cases; worst e={worst:.3g}")

    everything = [r for fam in FAMILIES for _c, r in results[fam]]
    card.fraction("hidden_conservation", 2, [r["conserved"] for r in everything],
                  detail="mass totals conserved to 1e-6 at every output time (cases with e <= 10)")

    ratios = []
    for family in sorted(STIFF):
        for case, r in results[family]:
            if r["e"] <= 1.0 and r["nfev"] is not None:
                ratios.append(math.log10(r["nfev"] / radau_nfev(case)))
    n_stiff = sum(len(results[f]) for f in STIFF)
    if uses_library_integrator():
        card.add("hidden_efficiency", 2, 0.0, kind="banded",
                 detail="kinetics/ uses a library ODE integrator (not allowed)")
    elif len(ratios) < n_stiff:
        card.add("hidden_efficiency", 2, 0.0, kind="banded",
                 detail=f"only {len(ratios)}/{n_stiff} stiff cases accurate with a reported nfev")
    else:
        mean_log = sum(ratios) / len(ratios)
        card.banded("hidden_efficiency", 2, 10 ** mean_log, bands=[(6.0, 1.0), (25.0, 0.0)],
                    detail="geometric mean of reported nfev / scipy Radau nfev at the case tolerances")
    card.write()


if __name__ == "__main__":
    main()
