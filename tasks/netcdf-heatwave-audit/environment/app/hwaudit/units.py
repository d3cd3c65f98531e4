# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Temperature units, converted to degrees Celsius."""

from __future__ import annotations

import numpy as np


def to_celsius(values: np.ndarray, units: str | None) -> np.ndarray:
    if units == "K":
        return values - 273.15
    return values  # already degC
