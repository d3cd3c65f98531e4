# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Run conditions (JSON): temperature, initial concentrations, output times, units and tolerances.

    {"T": 298.15,
     "units": {"concentration": "mmol/L", "time": "min"},   # for initial, times and the output
     "initial": {"A": 1.0},                                  # missing species start at 0
     "times": [0, 0.5, 1, 10],                               # increasing, >= 0
     "rtol": 1e-6, "atol": 1e-12}                            # atol in the conditions' concentration unit
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .units import concentration_factor, time_factor


class ConditionsError(ValueError):
    pass


@dataclass
class Conditions:
    T: float
    initial: dict[str, float]
    times: list[float]
    concentration_unit: str = "mol/L"
    time_unit: str = "s"
    rtol: float = 1e-6
    atol: float = 1e-12


def load_conditions(path, species: list[str]) -> Conditions:
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    units = raw.get("units") or {}
    cond = Conditions(
        T=float(raw.get("T", 298.15)),
        initial={str(k): float(v) for k, v in (raw.get("initial") or {}).items()},
        times=[float(t) for t in raw["times"]],
        concentration_unit=units.get("concentration", "mol/L"),
        time_unit=units.get("time", "s"),
        rtol=float(raw.get("rtol", 1e-6)),
        atol=float(raw.get("atol", 1e-12)),
    )
    concentration_factor(cond.concentration_unit)
    time_factor(cond.time_unit)
    for name in cond.initial:
        if name not in species:
            raise ConditionsError(f"initial concentration for unknown species {name!r}")
    if not cond.times or any(b < a for a, b in zip(cond.times, cond.times[1:])) or cond.times[0] < 0:
        raise ConditionsError("times must be non-empty, increasing and >= 0")
    return cond
