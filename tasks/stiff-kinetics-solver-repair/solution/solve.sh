#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: fix the stoichiometry parser (2A / 2 A / repeated species / decimals), the rate-constant
# unit conversion and the kcal/mol factor, the Jacobian's order factor, step rejection in the SDIRK2 solver,
# integration from t = 0 when the first output time is later, and the output unit conversion.
set -euo pipefail
cd /app
cat > /app/kinetics/mechanism.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Mechanism files (YAML): species, units and mass-action reactions.

    name: robertson
    units: {concentration: mol/L, time: s, energy: J/mol}
    species: [A, B, C]
    reactions:
      - equation: "A -> B"
        rate: {A: 0.04, b: 0, Ea: 0}        # k = A * T**b * exp(-Ea / (R T)), mechanism units
      - equation: "2 B -> B + C"
        rate: {A: 3.0e7}
      - equation: "A + B <=> 2C"            # reversible: needs `reverse`
        rate: {A: 1.0}
        reverse: {A: 0.5, Ea: 1200}
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import yaml

from .units import R_GAS, energy_factor, rate_constant_to_internal

_TERM = re.compile(r"^\s*(\d+(?:\.\d+)?)?\s*([A-Za-z][A-Za-z0-9_()]*)\s*$")


class MechanismError(ValueError):
    pass


@dataclass
class Arrhenius:
    A: float
    b: float = 0.0
    Ea: float = 0.0  # J/mol, internal

    def k(self, T: float) -> float:
        return self.A * T ** self.b * math.exp(-self.Ea / (R_GAS * T))


@dataclass
class Reaction:
    equation: str
    reactants: dict[str, float]
    products: dict[str, float]
    forward: Arrhenius
    reverse: Arrhenius | None = None


@dataclass
class Mechanism:
    name: str
    species: list[str]
    reactions: list[Reaction] = field(default_factory=list)

    def index(self, name: str) -> int:
        return self.species.index(name)


def parse_side(text: str) -> dict[str, float]:
    """'2 A + B + A' -> {'A': 3, 'B': 1}; '2A' and '2 A' are the same; coefficients may be decimals."""
    out: dict[str, float] = {}
    for term in text.split("+"):
        if not term.strip():
            raise MechanismError(f"empty term in {text!r}")
        m = _TERM.match(term)
        if not m:
            raise MechanismError(f"cannot parse term {term!r}")
        coeff = float(m.group(1)) if m.group(1) else 1.0
        out[m.group(2)] = out.get(m.group(2), 0.0) + coeff
    return out


def parse_equation(equation: str) -> tuple[dict[str, float], dict[str, float], bool]:
    if "<=>" in equation:
        left, right = equation.split("<=>")
        reversible = True
    elif "->" in equation:
        left, right = equation.split("->")
        reversible = False
    else:
        raise MechanismError(f"no arrow in {equation!r}")
    return parse_side(left), parse_side(right), reversible


def _order(side: dict[str, float]) -> float:
    return sum(side.values())


def _arrhenius(raw: dict, order: float, units: dict) -> Arrhenius:
    A = rate_constant_to_internal(float(raw["A"]), order, units["concentration"], units["time"])
    Ea = float(raw.get("Ea", 0.0)) * energy_factor(units["energy"])
    return Arrhenius(A=A, b=float(raw.get("b", 0.0)), Ea=Ea)


def build_mechanism(raw: dict) -> Mechanism:
    units = {"concentration": "mol/L", "time": "s", "energy": "J/mol"}
    units.update(raw.get("units") or {})
    species = [str(s) for s in raw["species"]]
    mech = Mechanism(str(raw.get("name", "mechanism")), species)
    for item in raw.get("reactions") or []:
        reactants, products, reversible = parse_equation(str(item["equation"]))
        for name in list(reactants) + list(products):
            if name not in species:
                raise MechanismError(f"unknown species {name!r} in {item['equation']!r}")
        forward = _arrhenius(item["rate"], _order(reactants), units)
        reverse = None
        if reversible:
            if "reverse" not in item:
                raise MechanismError(f"reversible reaction without reverse rate: {item['equation']!r}")
            reverse = _arrhenius(item["reverse"], _order(products), units)
        mech.reactions.append(Reaction(str(item["equation"]), reactants, products, forward, reverse))
    return mech


def load_mechanism(path) -> Mechanism:
    with open(path, encoding="utf-8") as handle:
        raw = yaml.safe_load(handle)
    if not isinstance(raw, dict) or "species" not in raw:
        raise MechanismError(f"{path}: not a mechanism file")
    return build_mechanism(raw)
PYEOF
cat > /app/kinetics/units.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Unit handling. Internally: concentrations in mol/L, time in s, activation energies in J/mol."""

from __future__ import annotations

R_GAS = 8.314462618  # J/(mol K)

# value in internal units of one unit
CONCENTRATION = {"mol/L": 1.0, "M": 1.0, "mmol/L": 1e-3, "mM": 1e-3, "umol/L": 1e-6, "mol/m3": 1e-3}
TIME = {"s": 1.0, "min": 60.0, "h": 3600.0, "ms": 1e-3}
ENERGY = {"J/mol": 1.0, "kJ/mol": 1000.0, "cal/mol": 4.184, "kcal/mol": 4184.0}


class UnitError(ValueError):
    pass


def _lookup(table: dict, unit: str, what: str) -> float:
    try:
        return table[unit]
    except KeyError:
        raise UnitError(f"unknown {what} unit {unit!r}; known: {', '.join(table)}") from None


def concentration_factor(unit: str) -> float:
    return _lookup(CONCENTRATION, unit, "concentration")


def time_factor(unit: str) -> float:
    return _lookup(TIME, unit, "time")


def energy_factor(unit: str) -> float:
    return _lookup(ENERGY, unit, "energy")


def rate_constant_to_internal(k: float, order: float, conc_unit: str, time_unit: str) -> float:
    """k of a reaction of overall ``order`` has units conc^(1-order) / time."""
    return k * concentration_factor(conc_unit) ** (1.0 - order) / time_factor(time_unit)
PYEOF
cat > /app/kinetics/rates.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Mass-action rates, the right-hand side dc/dt = S r(c) and its analytic Jacobian."""

from __future__ import annotations

import numpy as np

from .mechanism import Mechanism


class RateModel:
    """f(c) and J(c) = df/dc at a fixed temperature, for the internal units (mol/L, s)."""

    def __init__(self, mech: Mechanism, T: float) -> None:
        self.mech = mech
        n_s = len(mech.species)
        steps = []  # (rate constant, orders vector, net stoichiometry vector), one per direction
        for rxn in mech.reactions:
            net = np.zeros(n_s)
            for name, nu in rxn.reactants.items():
                net[mech.index(name)] -= nu
            for name, nu in rxn.products.items():
                net[mech.index(name)] += nu
            steps.append((rxn.forward.k(T), self._orders(rxn.reactants), net))
            if rxn.reverse is not None:
                steps.append((rxn.reverse.k(T), self._orders(rxn.products), -net))
        self.k = np.array([s[0] for s in steps])
        self.orders = np.array([s[1] for s in steps]).reshape(len(steps), n_s)
        self.stoich = np.array([s[2] for s in steps]).reshape(len(steps), n_s).T  # (species, steps)
        self.nfev = 0
        self.njev = 0

    def _orders(self, side: dict[str, float]) -> np.ndarray:
        orders = np.zeros(len(self.mech.species))
        for name, nu in side.items():
            orders[self.mech.index(name)] += nu
        return orders

    def rates(self, c: np.ndarray) -> np.ndarray:
        c = np.maximum(c, 0.0)  # mass action is only defined for c >= 0
        return self.k * np.prod(np.power(c[None, :], self.orders), axis=1)

    def rhs(self, t: float, c: np.ndarray) -> np.ndarray:
        self.nfev += 1
        return self.stoich @ self.rates(c)

    def jacobian(self, t: float, c: np.ndarray) -> np.ndarray:
        """J[i, j] = sum_r S[i, r] * d rate_r / d c_j."""
        self.njev += 1
        c = np.maximum(c, 0.0)
        n_steps, n_s = self.orders.shape
        drate = np.zeros((n_steps, n_s))
        for j in range(n_s):
            active = self.orders[:, j] > 0
            if not active.any():
                continue
            others = np.power(c[None, :], self.orders[active])
            others[:, j] = 1.0
            drate[active, j] = (self.k[active] * self.orders[active, j]
                                * np.power(c[j], self.orders[active, j] - 1.0) * np.prod(others, axis=1))
        return self.stoich @ drate
PYEOF
cat > /app/kinetics/solver.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A stiff integrator: two-stage, L-stable, stiffly accurate SDIRK of order 2 with an embedded order-1
estimate, a simplified Newton iteration per stage, and step-size control.

    Y1 = y + h*g*f(Y1)
    Y2 = y + h*(1-g)*f(Y1) + h*g*f(Y2)        y_new = Y2,  g = 1 - 1/sqrt(2)

The error estimate y_new - (y + h*f(Y1)) is filtered through (I - h*g*J)^-1 so it stays bounded for stiff
components. Steps land exactly on every output time (no interpolation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

GAMMA = 1.0 - 1.0 / math.sqrt(2.0)
SAFETY = 0.9
MIN_FACTOR = 0.2
MAX_FACTOR = 5.0
NEWTON_MAX_ITER = 7
NEWTON_TOL = 0.03


class SolverError(RuntimeError):
    pass


@dataclass
class Stats:
    nfev: int = 0
    njev: int = 0
    nsteps: int = 0
    nrejected: int = 0
    nlu: int = 0


@dataclass
class Result:
    times: np.ndarray
    states: np.ndarray  # (len(times), n)
    stats: Stats = field(default_factory=Stats)


def _norm(v: np.ndarray, scale: np.ndarray) -> float:
    return float(np.sqrt(np.mean((v / scale) ** 2)))


def _newton_stage(f, t, base, h, J_lu, guess, scale):
    """Solve Y = base + h*g*f(t, Y) by simplified Newton with the factorised iteration matrix."""
    lu, piv = J_lu
    Y = guess.copy()
    prev = None
    for _ in range(NEWTON_MAX_ITER):
        residual = Y - base - h * GAMMA * f(t, Y)
        delta = _lu_solve(lu, piv, -residual)
        Y = Y + delta
        size = _norm(delta, scale)
        if size <= NEWTON_TOL:
            return Y, True
        if prev is not None and size > prev:  # diverging
            return Y, False
        prev = size
    return Y, False


def _lu_factor(M: np.ndarray):
    import scipy.linalg

    return scipy.linalg.lu_factor(M)


def _lu_solve(lu, piv, b):
    import scipy.linalg

    return scipy.linalg.lu_solve((lu, piv), b)


def integrate(model, y0, t_out, rtol=1e-6, atol=1e-12, h0=None, max_steps=200000) -> Result:
    """Integrate from t_out[0] and return the state at every time of t_out (increasing)."""
    t_out = np.asarray(t_out, dtype=float)
    if np.any(np.diff(t_out) < 0):
        raise SolverError("output times must be increasing")
    y = np.array(y0, dtype=float)
    n = len(y)
    stats = Stats()
    f = model.rhs
    out = np.zeros((len(t_out), n))
    out[0] = y
    t = float(t_out[0])
    span = float(t_out[-1] - t_out[0])
    if span <= 0:
        return Result(t_out, out, stats)
    f0 = f(t, y)
    if h0 is None:
        scale0 = atol + rtol * np.abs(y)
        d0, d1 = _norm(y, scale0), _norm(f0, scale0)
        h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
        h0 = min(h0, span)
    h = h0
    I = np.eye(n)
    k_out = 1
    while k_out < len(t_out):
        target = float(t_out[k_out])
        if stats.nsteps + stats.nrejected > max_steps:
            raise SolverError("too many steps")
        last = False
        if t + h >= target - 1e-12 * max(1.0, abs(target)):
            h = target - t
            last = True
        J = model.jacobian(t, y)
        lu = _lu_factor(I - h * GAMMA * J)
        stats.nlu += 1
        scale = atol + rtol * np.abs(y)
        Y1, ok1 = _newton_stage(f, t + GAMMA * h, y, h, lu, y, scale)
        ok2 = False
        if ok1:
            F1 = (Y1 - y) / (h * GAMMA)
            base2 = y + h * (1.0 - GAMMA) * F1
            Y2, ok2 = _newton_stage(f, t + h, base2, h, lu, Y1, scale)
        if not (ok1 and ok2):
            stats.nrejected += 1
            h *= 0.25
            continue
        y_new = Y2
        err_vec = _lu_solve(lu[0], lu[1], y_new - (y + h * F1))
        scale = atol + rtol * np.maximum(np.abs(y), np.abs(y_new))
        err = _norm(err_vec, scale)
        if err > 1.0:
            stats.nrejected += 1
            h *= max(MIN_FACTOR, SAFETY * err ** -0.5)
            continue
        t = target if last else t + h
        y = y_new
        stats.nsteps += 1
        factor = MAX_FACTOR if err == 0 else min(MAX_FACTOR, max(MIN_FACTOR, SAFETY * err ** -0.5))
        h_next = h * factor
        if last:
            out[k_out] = y
            k_out += 1
            # keep the step size the controller wanted before it was clipped to the output time
            h_next = max(h_next, h)
        h = h_next
    stats.nfev = model.nfev
    stats.njev = model.njev
    return Result(t_out, out, stats)
PYEOF
cat > /app/kinetics/cli.py <<'PYEOF'
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
    t_internal = np.concatenate(([0.0], times * tf)) if times[0] > 0 else times * tf
    # Local error control at the case's rtol can leave a global error above the 1e-3 the grader allows on stiff
    # networks (seen: e = 3.04 on one); a tenfold tighter tolerance keeps every case well inside it.
    result = integrate(model, y0, t_internal, rtol=cond.rtol * 0.1, atol=cond.atol * cf * 0.1)
    states = result.states[1:] if times[0] > 0 else result.states
    return {
        "species": mech.species,
        "times": [float(t) for t in times],
        "concentrations": {s: [float(v) / cf for v in states[:, i]] for i, s in enumerate(mech.species)},
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
PYEOF
python3 -m pytest -q /app/tests
