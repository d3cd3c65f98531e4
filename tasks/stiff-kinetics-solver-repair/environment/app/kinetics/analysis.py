# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Diagnostics for mechanisms and trajectories.

    python3 -m kinetics.analysis MECH.yaml [RESULT.json]

Prints the stoichiometric matrix, the reaction orders, the conservation laws (left null space of the
stoichiometric matrix) and, given a result JSON of cli.py, how far each conserved total drifts.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from .mechanism import load_mechanism


def stoichiometric_matrix(mech) -> np.ndarray:
    """(species, reactions) net stoichiometric coefficients."""
    S = np.zeros((len(mech.species), len(mech.reactions)))
    for r, rxn in enumerate(mech.reactions):
        for name, nu in rxn.reactants.items():
            S[mech.index(name), r] -= nu
        for name, nu in rxn.products.items():
            S[mech.index(name), r] += nu
    return S


def conservation_laws(mech, tol: float = 1e-10) -> np.ndarray:
    """Rows w with w @ S = 0: every such weighted total is constant in time."""
    S = stoichiometric_matrix(mech)
    if S.size == 0:
        return np.eye(len(mech.species))
    u, s, _vt = np.linalg.svd(S)
    rank = int((s > tol * max(1.0, s.max())).sum())
    laws = u[:, rank:].T
    # make them readable: scale each so that its largest entry is 1
    out = []
    for w in laws:
        w = w / w[np.argmax(np.abs(w))]
        w[np.abs(w) < 1e-12] = 0.0
        out.append(w)
    return np.array(out)


def drift(mech, result: dict) -> list[float]:
    """Largest relative change of every conserved total over the output times of a cli.py result."""
    conc = np.array([result["concentrations"][s] for s in mech.species]).T
    drifts = []
    for w in conservation_laws(mech):
        totals = conc @ w
        ref = max(abs(totals[0]), 1e-300)
        drifts.append(float(np.max(np.abs(totals - totals[0])) / ref))
    return drifts


def describe(mech) -> str:
    lines = [f"mechanism {mech.name}: {len(mech.species)} species, {len(mech.reactions)} reactions"]
    S = stoichiometric_matrix(mech)
    for r, rxn in enumerate(mech.reactions):
        order = sum(rxn.reactants.values())
        rev = " (reversible)" if rxn.reverse is not None else ""
        lines.append(f"  R{r + 1}: {rxn.equation:32s} order {order:g}, k0 = {rxn.forward.A:.4g}{rev}")
    lines.append("stoichiometric matrix (rows = species):")
    for i, name in enumerate(mech.species):
        lines.append(f"  {name:8s} " + " ".join(f"{v:5g}" for v in S[i]))
    laws = conservation_laws(mech)
    lines.append(f"{len(laws)} conservation law(s):")
    for w in laws:
        terms = [f"{v:g}*{name}" for v, name in zip(w, mech.species) if v != 0.0]
        lines.append("  " + " + ".join(terms))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    mech = load_mechanism(argv[1])
    print(describe(mech))
    if len(argv) == 3:
        with open(argv[2]) as handle:
            result = json.load(handle)
        for k, d in enumerate(drift(mech, result)):
            print(f"conservation law {k + 1}: relative drift {d:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
