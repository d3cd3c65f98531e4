# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The harmonised analytes: LOINC codes, canonical units, output decimals, unit conversion factors."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Analyte:
    code: str
    loinc: tuple[str, ...]
    unit: str
    decimals: int
    factors: dict[str, Decimal]  # normalised unit -> factor to the canonical unit


COUNT_UNITS = {u: Decimal(1) for u in ("10*9/L", "10^9/L", "/nL", "10*3/uL", "10^3/uL", "K/uL")}
ANALYTES = [
    Analyte("GLU", ("2345-7", "2339-0", "14749-6", "15074-8"), "mmol/L", 1,
            {"mmol/L": Decimal(1), "mg/dL": Decimal("0.0555")}),
    Analyte("CREA", ("2160-0", "14682-9"), "umol/L", 0, {"umol/L": Decimal(1), "mg/dL": Decimal("88.4")}),
    Analyte("K", ("2823-3", "6298-4"), "mmol/L", 1, {"mmol/L": Decimal(1), "mEq/L": Decimal(1)}),
    Analyte("NA", ("2951-2", "2947-0"), "mmol/L", 0, {"mmol/L": Decimal(1), "mEq/L": Decimal(1)}),
    Analyte("CA", ("17861-6", "2000-8"), "mmol/L", 2,
            {"mmol/L": Decimal(1), "mg/dL": Decimal("0.2495"), "mEq/L": Decimal("0.5")}),
    Analyte("HGB", ("718-7", "30313-1"), "g/L", 0,
            {"g/L": Decimal(1), "g/dL": Decimal(10), "mmol/L": Decimal("16.11")}),
    Analyte("WBC", ("6690-2", "26464-8"), "10*9/L", 1, dict(COUNT_UNITS)),
    Analyte("PLT", ("777-3", "26515-7"), "10*9/L", 0, dict(COUNT_UNITS)),
    Analyte("TNT", ("67151-1", "6598-7"), "ng/L", 0,
            {"ng/L": Decimal(1), "pg/mL": Decimal(1), "ug/L": Decimal(1000), "ng/mL": Decimal(1000)}),
    Analyte("INR", ("6301-6", "34714-6"), "{INR}", 1, {"{INR}": Decimal(1), "{ratio}": Decimal(1), "": Decimal(1)}),
]


def normalise_unit(unit: str) -> str:
    return unit.strip().replace("\u00b5", "u").replace("\u03bc", "u").casefold()


BY_LOINC = {code: a for a in ANALYTES for code in a.loinc}
FACTORS = {a.code: {normalise_unit(u): f for u, f in a.factors.items()} for a in ANALYTES}


def factor_for(analyte: Analyte, unit: str) -> Decimal | None:
    return FACTORS[analyte.code].get(normalise_unit(unit))
