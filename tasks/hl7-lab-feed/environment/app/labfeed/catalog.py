# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The harmonised analytes: LOINC codes, the unit we report, output decimals, unit conversions."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Analyte:
    code: str
    loinc: tuple[str, ...]
    unit: str
    decimals: int
    conversions: dict[str, float]  # other units a laboratory may send -> factor to our unit


ANALYTES = [
    Analyte("GLU", ("2345-7", "2339-0", "14749-6", "15074-8"), "mmol/L", 1, {"mg/dL": 0.0555}),
    Analyte("CREA", ("2160-0", "14682-9"), "umol/L", 0, {"mg/dL": 88.4}),
    Analyte("K", ("2823-3", "6298-4"), "mmol/L", 1, {"mEq/L": 1.0}),
    Analyte("NA", ("2951-2", "2947-0"), "mmol/L", 0, {"mEq/L": 1.0}),
    Analyte("CA", ("17861-6", "2000-8"), "mmol/L", 2, {"mg/dL": 0.2495, "mEq/L": 1.0}),
    Analyte("HGB", ("718-7", "30313-1"), "g/L", 0, {"g/dL": 10.0}),
    Analyte("WBC", ("6690-2", "26464-8"), "10*9/L", 1, {"10^9/L": 1.0, "K/uL": 1.0}),
    Analyte("PLT", ("777-3", "26515-7"), "10*9/L", 0, {"10^9/L": 1.0, "K/uL": 1.0}),
    Analyte("TNT", ("67151-1", "6598-7"), "ng/L", 0, {"pg/mL": 1.0, "ug/L": 1000.0}),
    Analyte("INR", ("6301-6", "34714-6"), "{INR}", 1, {}),
]

BY_LOINC = {code: a for a in ANALYTES for code in a.loinc}


def factor_for(analyte: Analyte, unit: str) -> float:
    """Factor from the unit sent to our unit (a unit we do not know is taken to be ours already)."""
    return analyte.conversions.get(unit, 1.0)
