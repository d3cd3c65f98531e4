# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Length units a depth band may be stored in, as metres per unit."""

from __future__ import annotations

_METRES_PER_UNIT = {
    "": 1.0, "m": 1.0, "metre": 1.0, "metres": 1.0, "meter": 1.0, "meters": 1.0,
    "cm": 0.01, "centimetre": 0.01, "centimetres": 0.01, "centimeter": 0.01, "centimeters": 0.01,
    "mm": 0.001, "millimetre": 0.001, "millimetres": 0.001, "millimeter": 0.001, "millimeters": 0.001,
    "ft": 0.3048, "foot": 0.3048, "feet": 0.3048, "international foot": 0.3048,
    "us survey foot": 1200.0 / 3937.0, "us-ft": 1200.0 / 3937.0, "ftus": 1200.0 / 3937.0,
    "us_survey_foot": 1200.0 / 3937.0,
}  # fmt: skip


class UnitError(ValueError):
    pass


def metres_per_unit(name: str | None) -> float:
    """Metres in one ``name`` (case and surrounding spaces ignored; empty or None is metres)."""
    key = " ".join((name or "").strip().lower().split())
    try:
        return _METRES_PER_UNIT[key]
    except KeyError:
        raise UnitError(f"unknown depth unit {name!r}") from None
