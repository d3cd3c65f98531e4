# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Unit handling. Internally: concentrations in mol/L, time in s, activation energies in J/mol."""

from __future__ import annotations

R_GAS = 8.314462618  # J/(mol K)

# value in internal units of one unit
CONCENTRATION = {"mol/L": 1.0, "M": 1.0, "mmol/L": 1e-3, "mM": 1e-3, "umol/L": 1e-6, "mol/m3": 1e-3}
TIME = {"s": 1.0, "min": 60.0, "h": 3600.0, "ms": 1e-3}
ENERGY = {"J/mol": 1.0, "kJ/mol": 1000.0, "cal/mol": 4.184, "kcal/mol": 4.184e3 / 1000.0}


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
    return k * concentration_factor(conc_unit) ** (order - 1.0) / time_factor(time_unit)
