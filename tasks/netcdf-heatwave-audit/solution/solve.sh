#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: rewrite the defective modules of hwaudit: CF time units and calendars through cftime,
# every temperature unit spelling, netCDF4's own masking and unpacking (_FillValue, missing_value,
# scale_factor, add_offset), variables and coordinates found by standard_name, boxes as masks in any
# longitude convention or latitude order (antimeridian included), cos(latitude) weights over valid cells,
# files ordered by their first day, calendar-day percentile windows on the record, inclusive spell lengths
# with a run that reaches the end of the analysis, and degree-days over event days only.
set -euo pipefail
cd /app
cat > /app/hwaudit/cfdates.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Decoding CF time coordinates into calendar days.

A day is a ``(year, month, day)`` tuple in the file's own calendar, so 360_day dates such as (1990, 2, 30)
and noleap years without 29 February are represented as they are.
"""

from __future__ import annotations

import cftime
import numpy as np

Day = tuple[int, int, int]

CALENDARS = {
    "standard": "standard", "gregorian": "standard", "proleptic_gregorian": "proleptic_gregorian",
    "julian": "julian", "noleap": "noleap", "365_day": "noleap", "all_leap": "all_leap",
    "366_day": "all_leap", "360_day": "360_day",
}


class TimeDecodeError(ValueError):
    """A time coordinate whose units or calendar this tool does not understand."""


def normalise_calendar(calendar: str | None) -> str:
    name = (calendar or "standard").strip().lower()
    if name not in CALENDARS:
        raise TimeDecodeError(f"unsupported calendar {calendar!r}")
    return CALENDARS[name]


def decode_days(values: np.ndarray, units: str, calendar: str | None) -> list[Day]:
    """Calendar days of the time stamps ``values`` given in CF ``units`` ("hours since 1979-01-01 00:00")."""
    if not units or " since " not in units:
        raise TimeDecodeError(f"time units {units!r} are not of the form 'UNIT since REFERENCE'")
    cal = normalise_calendar(calendar)
    stamps = cftime.num2date(np.asarray(values, dtype=np.float64), units, calendar=cal,
                             only_use_cftime_datetimes=True)
    return [(int(s.year), int(s.month), int(s.day)) for s in np.atleast_1d(stamps)]


def format_day(day: Day) -> str:
    year, month, dom = day
    return f"{year:04d}-{month:02d}-{dom:02d}"
PYEOF
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
cat > /app/hwaudit/reader.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading one NetCDF file: the daily maximum temperature (degC, NaN where missing), its days and grid."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import netCDF4
import numpy as np

from .cfdates import Day, decode_days
from .units import to_celsius


class ReadError(ValueError):
    """A file without a recognisable temperature variable or coordinates."""


@dataclass
class Chunk:
    path: Path
    days: list[Day]
    lat: np.ndarray
    lon: np.ndarray
    celsius: np.ndarray  # (time, lat, lon), float64, NaN where missing


def _find_temperature(ds: netCDF4.Dataset):
    candidates = [v for v in ds.variables.values()
                  if getattr(v, "standard_name", None) == "air_temperature" and v.ndim == 3]
    if not candidates and "tasmax" in ds.variables:
        candidates = [ds.variables["tasmax"]]
    if len(candidates) != 1:
        raise ReadError(f"expected one 3-D air_temperature variable, found {len(candidates)}")
    return candidates[0]


def _coordinate(ds: netCDF4.Dataset, dim: str):
    if dim in ds.variables:
        return ds.variables[dim]
    raise ReadError(f"dimension {dim!r} has no coordinate variable")


def _axis_kind(var) -> str | None:
    standard = getattr(var, "standard_name", "")
    units = getattr(var, "units", "")
    if standard == "time" or " since " in units:
        return "time"
    if standard == "latitude" or units in ("degrees_north", "degree_north", "degrees_N", "degreeN"):
        return "lat"
    if standard == "longitude" or units in ("degrees_east", "degree_east", "degrees_E", "degreeE"):
        return "lon"
    return None


def read_chunk(path: str | Path) -> Chunk:
    with netCDF4.Dataset(path) as ds:
        var = _find_temperature(ds)
        coords = {_axis_kind(_coordinate(ds, d)): d for d in var.dimensions}
        if set(coords) != {"time", "lat", "lon"}:
            raise ReadError(f"{path}: {var.name} must have time, latitude and longitude dimensions")
        order = [var.dimensions.index(coords[k]) for k in ("time", "lat", "lon")]
        time = ds.variables[coords["time"]]
        days = decode_days(time[:], time.units, getattr(time, "calendar", None))
        lat = np.asarray(ds.variables[coords["lat"]][:], dtype=np.float64)
        lon = np.asarray(ds.variables[coords["lon"]][:], dtype=np.float64)
        var.set_auto_maskandscale(True)  # _FillValue, missing_value, scale_factor and add_offset
        raw = np.ma.masked_invalid(np.ma.asarray(var[:]).astype(np.float64))
        values = np.ma.filled(raw, np.nan).transpose(order)
        celsius = to_celsius(values, getattr(var, "units", None))
    return Chunk(Path(path), days, lat, lon, celsius)
PYEOF
cat > /app/hwaudit/grid.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Region boxes on the grid and area-weighted regional means."""

from __future__ import annotations

import numpy as np

from .config import Region


def wrap180(lon: np.ndarray) -> np.ndarray:
    """Longitudes in [-180, 180)."""
    return (np.asarray(lon, dtype=np.float64) + 180.0) % 360.0 - 180.0


def region_mask(lat: np.ndarray, lon: np.ndarray, region: Region) -> np.ndarray:
    """Cells whose centre lies in the box (edges included), in any latitude order or longitude convention."""
    lat_ok = (lat >= region.south) & (lat <= region.north)
    lon = wrap180(lon)
    west, east = region.west, region.east
    if west == 180.0:
        west = -180.0
    if west <= east:
        lon_ok = (lon >= west) & (lon <= east)
    else:
        lon_ok = (lon >= west) | (lon <= east)
    return lat_ok[:, None] & lon_ok[None, :]


def regional_mean(celsius: np.ndarray, lat: np.ndarray, lon: np.ndarray, region: Region) -> np.ndarray:
    """Daily cos(latitude)-weighted mean over the box's valid cells (NaN when none is valid)."""
    mask = region_mask(lat, lon, region)
    if not mask.any():
        raise ValueError(f"region {region.name} contains no grid cell")
    weights = np.broadcast_to(np.cos(np.deg2rad(lat))[:, None], mask.shape)[mask]
    cells = celsius[:, mask]
    valid = np.isfinite(cells)
    num = np.where(valid, cells, 0.0) @ weights
    den = valid.astype(np.float64) @ weights
    out = np.full(cells.shape[0], np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out
PYEOF
cat > /app/hwaudit/record.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Assembling the files of a data directory into one daily record per region."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .cfdates import Day
from .config import Region
from .grid import regional_mean
from .reader import read_chunk


class RecordError(ValueError):
    """Files that overlap or do not share a grid."""


@dataclass
class Record:
    days: list[Day]
    series: dict[str, np.ndarray]  # region name -> daily regional mean, degC


def load_record(data_dir: str | Path, regions: tuple[Region, ...]) -> Record:
    paths = sorted(Path(data_dir).glob("*.nc"))
    if not paths:
        raise RecordError(f"no .nc files in {data_dir}")
    pieces = []
    for path in paths:
        chunk = read_chunk(path)
        means = {r.name: regional_mean(chunk.celsius, chunk.lat, chunk.lon, r) for r in regions}
        pieces.append((chunk.days, means))
    pieces = [p for p in pieces if p[0]]
    pieces.sort(key=lambda piece: piece[0][0])  # by first day: file names say nothing about the order
    days: list[Day] = []
    for piece_days, _means in pieces:
        if days and piece_days[0] <= days[-1]:
            raise RecordError(f"files overlap at {piece_days[0]}")
        days.extend(piece_days)
    series = {r.name: np.concatenate([means[r.name] for _d, means in pieces]) for r in regions}
    return Record(days, series)
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
