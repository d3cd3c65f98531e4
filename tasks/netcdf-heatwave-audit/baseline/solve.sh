#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: time units other than days (standard calendar only), unit spellings, cos(latitude)
# weighting of the box mean, the calendar-day threshold, spell lengths and the report's statistics are
# fixed. Calendars, packing and missing values, longitude conventions and latitude order, file order and
# variable names stay broken.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path
p = Path("hwaudit/cfdates.py")
s = p.read_text()
s = s.replace('''    ref = _reference(units)
    out = []''', '''    ref = _reference(units)
    unit = units.split(" since ", 1)[0].strip().lower()
    scale = {"days": 1.0, "day": 1.0, "hours": 1 / 24, "hour": 1 / 24, "minutes": 1 / 1440,
             "minute": 1 / 1440, "seconds": 1 / 86400, "second": 1 / 86400}[unit]
    out = []''').replace("dt.timedelta(days=float(value))", "dt.timedelta(days=float(value) * scale)")
s = s.replace("    return dt.date(*day).isoformat()", '    return "%04d-%02d-%02d" % day')
p.write_text(s)
p = Path("hwaudit/grid.py")
s = p.read_text()
s = s.replace("    return celsius[:, rows, cols].mean(axis=(1, 2))", """    cells = celsius[:, rows, cols]
    weights = np.broadcast_to(np.cos(np.deg2rad(lat[rows]))[:, None], cells.shape[1:])
    valid = np.isfinite(cells)
    return (np.where(valid, cells, 0.0) * weights).sum(axis=(1, 2)) / (valid * weights).sum(axis=(1, 2))""")
p.write_text(s)
PY
cat > /app/hwaudit/units.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Temperature units: every spelling the files use, converted to degrees Celsius."""

from __future__ import annotations

import numpy as np

KELVIN = {"k", "kelvin", "kelvins", "degk", "deg_k", "degrees_k", "degreesk"}
CELSIUS = {"c", "degc", "deg_c", "celsius", "degrees_celsius", "degree_celsius", "°c", "degrees_c"}
FAHRENHEIT = {"f", "degf", "deg_f", "fahrenheit", "degrees_fahrenheit", "degree_fahrenheit", "°f", "degrees_f"}


class UnitsError(ValueError):
    """A temperature variable with units that are not a temperature."""


def to_celsius(values: np.ndarray, units: str | None) -> np.ndarray:
    key = (units or "").strip().lower().replace(" ", "_")
    if key in KELVIN:
        return values - 273.15
    if key in CELSIUS:
        return values
    if key in FAHRENHEIT:
        return (values - 32.0) * (5.0 / 9.0)
    raise UnitsError(f"unknown temperature units {units!r}")
PYEOF
cat > /app/hwaudit/climatology.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Calendar-day percentile thresholds from the baseline period."""

from __future__ import annotations

import numpy as np

from .cfdates import Day


def thresholds(days: list[Day], series: np.ndarray, baseline: tuple[int, int], percentile: float,
               window: int) -> dict[tuple[int, int], float]:
    """Threshold per (month, day): the percentile of the baseline values within +-window days (positions on
    the record, kept inside the baseline period) of any baseline day with that (month, day)."""
    first, last = baseline
    idx = [i for i, (y, _m, _d) in enumerate(days) if first <= y <= last]
    if not idx:
        raise ValueError(f"the data hold no day of the baseline {first}-{last}")
    lo, hi = idx[0], idx[-1]
    anchors: dict[tuple[int, int], list[int]] = {}
    for i in idx:
        anchors.setdefault((days[i][1], days[i][2]), []).append(i)
    out = {}
    for key, where in anchors.items():
        chosen = np.zeros(len(days), dtype=bool)
        for a in where:
            chosen[max(lo, a - window):min(hi, a + window) + 1] = True
        values = series[chosen]
        values = values[np.isfinite(values)]
        out[key] = float(np.percentile(values, percentile)) if values.size else float("nan")
    return out


def threshold_of(table: dict[tuple[int, int], float], day: Day) -> float:
    key = (day[1], day[2])
    if key not in table and key == (2, 29):
        key = (2, 28)
    return table.get(key, float("nan"))
PYEOF
cat > /app/hwaudit/spells.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Hot days and heatwave spells."""

from __future__ import annotations

import numpy as np


def hot_days(values: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """A day is hot when its value is strictly above its threshold (a missing day never is)."""
    ok = np.isfinite(values) & np.isfinite(limits)
    out = np.zeros(values.shape, dtype=bool)
    out[ok] = values[ok] > limits[ok]
    return out


def find_spells(hot: np.ndarray, min_length: int) -> list[tuple[int, int]]:
    """(start, length) of every maximal run of hot days at least min_length long."""
    spells = []
    run = 0
    for k, flag in enumerate([*hot.tolist(), False]):
        if flag:
            run += 1
            continue
        if run >= min_length:
            spells.append((k - run, run))
        run = 0
    return spells
PYEOF
cat > /app/hwaudit/report.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Per-region heatwave statistics and the JSON report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from .cfdates import format_day
from .climatology import threshold_of, thresholds
from .config import Config
from .record import Record
from .spells import find_spells, hot_days


def region_stats(record: Record, name: str, config: Config) -> dict:
    series = record.series[name]
    table = thresholds(record.days, series, config.baseline, config.percentile, config.window)
    first, last = config.analysis
    idx = [i for i, (y, _m, _d) in enumerate(record.days) if first <= y <= last]
    if not idx:
        raise ValueError(f"the data hold no day of the analysis period {first}-{last}")
    values = series[idx]
    limits = np.array([threshold_of(table, record.days[i]) for i in idx])
    spells = find_spells(hot_days(values, limits), config.min_length)
    event_days = [k for start, length in spells for k in range(start, start + length)]
    valid = np.isfinite(values)
    return {
        "events": len(spells),
        "longest": max((length for _s, length in spells), default=0),
        "hot_days": len(event_days),
        "degree_days": float(np.sum(values[event_days] - limits[event_days])) if event_days else 0.0,
        "first_event_start": format_day(record.days[idx[spells[0][0]]]) if spells else None,
        "mean_tmax": float(np.mean(values[valid])) if valid.any() else None,
    }


def build_report(record: Record, config: Config) -> dict:
    return {"regions": {r.name: region_stats(record, r.name, config) for r in config.regions}}


def write_report(report: dict, path: str | Path) -> None:
    for stats in report["regions"].values():
        for key, value in stats.items():
            if isinstance(value, float) and not math.isfinite(value):
                stats[key] = None
    Path(path).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
PYEOF
find /app -name __pycache__ -prune -exec rm -rf {} +
