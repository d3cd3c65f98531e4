# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Integrate a mechanism: python3 /app/kinetics/cli.py MECH.yaml CONDITIONS.json  (JSON on stdout)."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from kinetics.conditions import load_conditions  # noqa: E402
from kinetics.mechanism import load_mechanism  # noqa: E402
from kinetics.rates import RateModel  # noqa: E402
from kinetics.solver import integrate  # noqa: E402
from kinetics.units import concentration_factor, time_factor  # noqa: E402


def run(mech_path, cond_path) -> dict:
    mech = load_mechanism(mech_path)
    cond = load_conditions(cond_path, mech.species)
    cf = concentration_factor(cond.concentration_unit)
    tf = time_factor(cond.time_unit)
    model = RateModel(mech, cond.T)
    y0 = np.array([cond.initial.get(s, 0.0) for s in mech.species]) * cf
    times = np.array(cond.times, dtype=float)
    result = integrate(model, y0, times * tf, rtol=cond.rtol, atol=cond.atol * cf)
    states = result.states
    return {
        "species": mech.species,
        "times": [float(t) for t in times],
        "concentrations": {s: [float(v) * cf for v in states[:, i]] for i, s in enumerate(mech.species)},
        "stats": {"nfev": result.stats.nfev, "njev": result.stats.njev, "nsteps": result.stats.nsteps,
                  "nrejected": result.stats.nrejected},
    }


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: cli.py MECH.yaml CONDITIONS.json", file=sys.stderr)
        return 2
    json.dump(run(argv[1], argv[2]), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
