# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Deterministic generator of synthetic daily maximum-temperature datasets (CF NetCDF) for the heatwave audit.

A case is drawn from a ``random.Random`` and a family name. It holds the *canonical* field (degrees Celsius,
float64, on an ascending-latitude, -180..180-longitude grid, already rounded the way the files store it) and
an encoding plan: calendar, time units per file, storage type and packing, units, longitude convention,
latitude order, file splits and names, variable names. ``write_case`` writes the files and regions.json.

``python3 hwgen.py OUTDIR`` writes the public examples.
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cftime
import netCDF4
import numpy as np

STANDARD_CALENDARS = ["standard", "gregorian", "proleptic_gregorian"]
OTHER_CALENDARS = ["noleap", "365_day", "360_day", "all_leap", "366_day"]
GRIDS = [(12, 24), (16, 32)]  # (nlat, nlon): 15 and 11.25 degree cells, centres never on integer degrees
UNIT_SPELLINGS = {
    "K": ["K", "kelvin", "degK", "Kelvin"],
    "C": ["degC", "Celsius", "deg_C", "degrees_Celsius", "celsius"],
    "F": ["degF", "Fahrenheit", "deg_F", "degrees_Fahrenheit"],
}
FAMILIES = ["standard", "calendars", "packing", "longitudes", "splits", "conventions", "mixed"]


@dataclass
class FilePlan:
    name: str
    start: int  # first day index (inclusive)
    stop: int  # last day index (exclusive)
    time_units: str
    noon: bool  # time stamps at 12:00 instead of 00:00
    unit_kind: str  # K, C or F
    unit_name: str
    packed: bool
    scale: float = 1.0
    offset: float = 0.0
    use_missing_value: bool = False


@dataclass
class Case:
    family: str
    calendar: str
    calendar_attr: str | None  # None: the attribute is left out (CF default: standard)
    years: tuple[int, int]
    config: dict
    lat: np.ndarray  # ascending
    lon: np.ndarray  # ascending, -180..180
    dates: list[tuple[int, int, int]]
    field: np.ndarray  # canonical degC (time, lat, lon), NaN where missing
    files: list[FilePlan]
    lon360: bool
    lat_descending: bool
    var_name: str = "tasmax"
    lat_name: str = "lat"
    lon_name: str = "lon"
    decoy: bool = False
    extra: dict = field(default_factory=dict)


def _np_rng(rng: random.Random) -> np.random.Generator:
    return np.random.default_rng(int(rng.random() * 2**53))


def _uniform(rng: random.Random, low: float, high: float) -> float:
    return low + (high - low) * rng.random()


def _randint(rng: random.Random, low: int, high: int) -> int:
    """An int in [low, high], drawn through random() only."""
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def _dates(calendar: str, first_year: int, last_year: int, extra_days: int) -> list[tuple[int, int, int]]:
    import datetime as _dt

    start = cftime.datetime(first_year, 1, 1, calendar=calendar)
    stop = cftime.datetime(last_year + 1, 1, 1, calendar=calendar)
    total = int(round((stop - start).days)) + extra_days
    return [((d := start + _dt.timedelta(days=i)).year, d.month, d.day) for i in range(total)]


def _regions(rng: random.Random, family: str, n: int) -> list[dict]:
    """Boxes with integer edges; in the longitudes family every box reaches west of 0 or crosses 180."""
    out = []
    for k in range(n):
        height = _randint(rng, 24, 40)
        south = _randint(rng, -70, 70 - height)
        width = _randint(rng, 25, 60)
        if family in ("longitudes", "mixed"):
            mode = k % 3
            if mode == 0:  # across the prime meridian
                west = _randint(rng, -width + 8, -8)
            elif mode == 1:  # across the antimeridian
                west = _randint(rng, 180 - width + 8, 172)
            else:  # western hemisphere only
                west = _randint(rng, -175, -5 - width)
        else:
            west = _randint(rng, -175, 175 - width)
        east = west + width
        if east > 180:
            east -= 360
        out.append({"name": f"box{k + 1}_{'NS'[south < 0]}{abs(south)}", "lat": [south, south + height],
                    "lon": [west, east]})
    return out


def _in_box(lat: np.ndarray, lon: np.ndarray, box: dict) -> np.ndarray:
    south, north = box["lat"]
    west, east = box["lon"]
    lat_ok = (lat >= south) & (lat <= north)
    lon_ok = (lon >= west) & (lon <= east) if west <= east else (lon >= west) | (lon <= east)
    return lat_ok[:, None] & lon_ok[None, :]


def _field(rng: random.Random, lat, lon, dates, calendar, regions, analysis) -> np.ndarray:
    g = _np_rng(rng)
    nt = len(dates)
    year_len = 360.0 if calendar == "360_day" else 365.25
    # day-of-year fraction from (month, day) so the seasonal cycle follows the file's own calendar
    month_len = 30.0 if calendar == "360_day" else 30.44
    frac = np.array([((m - 1) * month_len + d - 1) / year_len for _y, m, d in dates])
    la = np.deg2rad(lat)[:, None]
    lo = np.deg2rad(lon)[None, :]
    base = 30.0 - 28.0 * np.sin(la) ** 2 + 3.0 * np.cos(2 * lo + _uniform(rng, 0, 6.28)) * np.cos(la)
    amp = 14.0 * np.sin(la)
    season = -np.cos(2 * np.pi * (frac - 0.04))[:, None, None] * amp[None, :, :]
    modes = []
    for _ in range(6):
        kx, ky = _randint(rng, 0, 3), _randint(rng, 0, 3)
        phase_x, phase_y = _uniform(rng, 0, 6.28), _uniform(rng, 0, 6.28)
        modes.append(np.cos(kx * lo + phase_x) * np.cos(ky * la * 2 + phase_y))
    modes = np.array(modes)  # (6, nlat, nlon)
    series = np.zeros((6, nt))
    shocks = g.normal(0.0, 1.0, size=(6, nt))
    phi = 0.82
    for t in range(nt):
        series[:, t] = (phi * series[:, t - 1] if t else 0.0) + shocks[:, t] * math.sqrt(1 - phi * phi)
    anomaly = 2.2 * np.einsum("mt,myx->tyx", series, modes)
    data = base[None] + season + anomaly + g.normal(0.0, 0.8, size=(nt, len(lat), len(lon)))
    first, last = analysis
    days = [i for i, (y, _m, _d) in enumerate(dates) if first <= y <= last]
    for box in regions:
        mask = _in_box(lat, lon, box)
        for _ in range(_randint(rng, 3, 5)):
            length = _randint(rng, 3, 9)
            start = days[_randint(rng, 0, len(days) - length - 1)]
            bump = _uniform(rng, 6.0, 10.0)
            data[start:start + length][:, mask] += bump
    return data


def make_case(rng: random.Random, family: str, n_regions: int = 4) -> Case:
    """One dataset of ``family``; every non-standard family also uses a non-standard calendar."""
    if family == "standard":
        calendar = STANDARD_CALENDARS[_randint(rng, 0, 2)]
    else:
        calendar = OTHER_CALENDARS[_randint(rng, 0, len(OTHER_CALENDARS) - 1)]
    calendar_attr = calendar if not (calendar == "standard" and rng.random() < 0.5) else None
    first = _randint(rng, 1961, 2005)
    n_base = 3
    base_years = (first, first + n_base - 1)
    gap = _randint(rng, 0, 1)
    ana_years = (base_years[1] + 1 + gap, base_years[1] + 2 + gap)
    extra_days = _randint(rng, 20, 60) if family in ("splits", "mixed") else 0
    dates = _dates(calendar, first, ana_years[1], extra_days)
    nlat, nlon = GRIDS[_randint(rng, 0, 1)]
    dlat, dlon = 180.0 / nlat, 360.0 / nlon
    lat = -90 + dlat / 2 + dlat * np.arange(nlat)
    lon = -180 + dlon / 2 + dlon * np.arange(nlon)
    regions = _regions(rng, family, n_regions)
    config = {
        "baseline": list(base_years),
        "analysis": list(ana_years),
        "percentile": [90, 90, 85, 95][_randint(rng, 0, 3)],
        "window": _randint(rng, 3, 7),
        "min_length": _randint(rng, 3, 4),
        "regions": regions,
    }
    data = _field(rng, lat, lon, dates, calendar, regions, ana_years)

    tricky = family in ("packing", "mixed")
    if tricky:  # scattered missing cells inside every box, and a few days missing everywhere
        g = _np_rng(rng)
        holes = g.random(data.shape) < 0.04
        for box in regions:
            mask = _in_box(lat, lon, box)
            cells = np.argwhere(mask)
            for _ in range(20):
                t = _randint(rng, 0, len(dates) - 1)
                y, x = cells[_randint(rng, 0, len(cells) - 1)]
                holes[t, y, x] = True
        for _ in range(_randint(rng, 2, 4)):
            holes[_randint(rng, 0, len(dates) - 1)] = True
        data[holes] = np.nan

    files = _file_plans(rng, family, calendar, dates, config)
    lon360 = family in ("longitudes", "mixed") or (family == "packing" and rng.random() < 0.5)
    lat_desc = family in ("longitudes", "mixed") and rng.random() < 0.5 or (
        family not in ("standard", "calendars", "longitudes", "mixed") and rng.random() < 0.3)
    case = Case(family, calendar, calendar_attr, (first, ana_years[1]), config, lat, lon, dates, data, files,
                lon360, lat_desc)
    if family in ("conventions", "mixed"):
        case.var_name = ["tx", "TMAX", "tmax", "t2max"][_randint(rng, 0, 3)]
        case.lat_name, case.lon_name = [("latitude", "longitude"), ("y", "x"), ("nav_lat", "nav_lon")][
            _randint(rng, 0, 2)]
        case.decoy = True
    case.field = _quantize(case)
    return case


def _time_units(rng: random.Random, calendar: str, first_date: tuple[int, int, int], fixed_ref: bool) -> str:
    unit = ["days", "hours", "days", "minutes", "seconds"][_randint(rng, 0, 4)]
    y, m, d = first_date
    if fixed_ref:
        ref_year = y - _randint(rng, 12, 70)
        ref = f"{ref_year}-{_randint(rng, 1, 12):02d}-{_randint(rng, 1, 28):02d}"
    else:
        ref = f"{y}-{m:02d}-{d:02d}"
    if unit != "days" or rng.random() < 0.5:
        ref += " 00:00:00"
    return f"{unit} since {ref}"


def _file_plans(rng: random.Random, family: str, calendar: str, dates, config) -> list[FilePlan]:
    nt = len(dates)
    if family in ("splits", "mixed"):
        count = _randint(rng, 4, 7)
        cuts = sorted({_randint(rng, 30, nt - 30) for _ in range(count - 1)})
        bounds = [0, *cuts, nt]
        names = [f"tasmax_{_randint(rng, 0, 16**6 - 1):06x}.nc" for _ in range(len(bounds) - 1)]
        while names == sorted(names) or len(set(names)) != len(names):
            names = [f"tasmax_{_randint(rng, 0, 16**6 - 1):06x}.nc" for _ in range(len(bounds) - 1)]
    else:
        years = sorted({y for y, _m, _d in dates})
        bounds = [next(i for i, dt in enumerate(dates) if dt[0] == y) for y in years] + [nt]
        names = [f"tasmax_day_{y}.nc" for y in years]
    if family == "standard":
        unit_kind = ["K", "C"][_randint(rng, 0, 1)]
    elif family in ("conventions", "mixed"):
        unit_kind = None  # per file
    else:
        unit_kind = "K"
    shared_units = _time_units(rng, calendar, dates[0], fixed_ref=True)
    plans = []
    for k in range(len(bounds) - 1):
        start, stop = bounds[k], bounds[k + 1]
        per_file_ref = family in ("splits", "mixed") and rng.random() < 0.7
        units = _time_units(rng, calendar, dates[start], fixed_ref=not per_file_ref) if per_file_ref or \
            family in ("conventions",) else shared_units
        kind = unit_kind or ["K", "C", "F"][_randint(rng, 0, 2)]
        spelling = UNIT_SPELLINGS[kind][_randint(rng, 0, len(UNIT_SPELLINGS[kind]) - 1)] \
            if family != "standard" else {"K": "K", "C": "degC"}[kind]
        packed = family in ("packing",) or (family == "mixed" and rng.random() < 0.6)
        plan = FilePlan(names[k], start, stop, units, rng.random() < 0.4, kind, spelling, packed)
        if packed:
            plan.scale = [0.01, 0.005, 0.02][_randint(rng, 0, 2)]
            plan.offset = {"K": 273.15, "C": _uniform(rng, 5, 20), "F": 50.0}[kind]
            plan.offset = round(plan.offset, 2)
        plan.use_missing_value = family in ("packing", "mixed") and rng.random() < 0.6
        plans.append(plan)
    return plans


def _to_native(celsius: np.ndarray, kind: str) -> np.ndarray:
    return {"K": celsius + 273.15, "C": celsius, "F": celsius * 9.0 / 5.0 + 32.0}[kind]


def _from_native(native: np.ndarray, kind: str) -> np.ndarray:
    return {"K": native - 273.15, "C": native, "F": (native - 32.0) * 5.0 / 9.0}[kind]


def _stored(plan: FilePlan, celsius: np.ndarray) -> np.ndarray:
    """The values as they sit in the file (int16 or float32), NaN kept as NaN for float32."""
    native = _to_native(celsius, plan.unit_kind)
    if plan.packed:
        scale, offset = np.float32(plan.scale), np.float32(plan.offset)
        q = np.round((native - float(offset)) / float(scale))
        return np.where(np.isfinite(q), np.clip(q, -32000, 32000), 0).astype(np.int16)
    return native.astype(np.float32)


def _quantize(case: Case) -> np.ndarray:
    """Canonical degC values exactly as decoding the files (in float64) gives them."""
    out = np.empty_like(case.field)
    for plan in case.files:
        chunk = case.field[plan.start:plan.stop]
        stored = _stored(plan, chunk)
        if plan.packed:
            native = stored.astype(np.float64) * float(np.float32(plan.scale)) + float(np.float32(plan.offset))
        else:
            native = stored.astype(np.float64)
        values = _from_native(native, plan.unit_kind)
        values[~np.isfinite(chunk)] = np.nan
        out[plan.start:plan.stop] = values
    return out


def write_case(case: Case, directory: Path, compress: bool = False) -> tuple[Path, Path]:
    """Write the NetCDF files into directory/data and the configuration to directory/regions.json."""
    data_dir = directory / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    lat = case.lat[::-1] if case.lat_descending else case.lat
    lon = case.lon
    lon_order = np.arange(len(lon))
    if case.lon360:
        lon_wrapped = np.mod(lon, 360.0)
        lon_order = np.argsort(lon_wrapped, kind="stable")
        lon = lon_wrapped[lon_order]
    for plan in case.files:
        _write_file(case, plan, data_dir / plan.name, lat, lon, lon_order, compress)
    regions = directory / "regions.json"
    regions.write_text(json.dumps(case.config, indent=2) + "\n")
    return data_dir, regions


def _even(shape: tuple[int, int, int]) -> np.ndarray:
    """Cells whose index sum is even: where missing cells carry missing_value rather than _FillValue."""
    t, y, x = (np.arange(n) for n in shape)
    return (t[:, None, None] + y[None, :, None] + x[None, None, :]) % 2 == 0


def _write_file(case: Case, plan: FilePlan, path: Path, lat, lon, lon_order, compress: bool) -> None:
    chunk = case.field[plan.start:plan.stop]
    if case.lat_descending:
        chunk = chunk[:, ::-1, :]
    chunk = chunk[:, :, lon_order]
    ds = netCDF4.Dataset(path, "w", format="NETCDF4_CLASSIC")
    try:
        ds.Conventions = "CF-1.8"
        ds.title = "synthetic daily maximum near-surface air temperature"
        ds.createDimension("time", None)
        ds.createDimension(case.lat_name, len(lat))
        ds.createDimension(case.lon_name, len(lon))
        ds.createDimension("bnds", 2)
        time = ds.createVariable("time", "f8", ("time",))
        time.units = plan.time_units
        time.standard_name = "time"
        time.axis = "T"
        if case.calendar_attr is not None:
            time.calendar = case.calendar_attr
        stamps = []
        for y, m, d in case.dates[plan.start:plan.stop]:
            stamp = cftime.datetime(y, m, d, 12 if plan.noon else 0, calendar=case.calendar)
            stamps.append(stamp)
        time[:] = cftime.date2num(stamps, plan.time_units, calendar=case.calendar)
        latv = ds.createVariable(case.lat_name, "f8", (case.lat_name,))
        latv.units = "degrees_north"
        latv.standard_name = "latitude"
        latv[:] = lat
        lonv = ds.createVariable(case.lon_name, "f8", (case.lon_name,))
        lonv.units = "degrees_east"
        lonv.standard_name = "longitude"
        lonv[:] = lon
        dims = ("time", case.lat_name, case.lon_name)
        stored = _stored(plan, chunk)
        missing = ~np.isfinite(chunk)
        if plan.packed:
            fill = np.int16(-32767)
            var = ds.createVariable(case.var_name, "i2", dims, fill_value=fill, zlib=compress)
            var.scale_factor = np.float32(plan.scale)
            var.add_offset = np.float32(plan.offset)
            var.set_auto_maskandscale(False)
            if plan.use_missing_value:
                var.missing_value = np.int16(32767)
                stored = stored.copy()
                stored[missing] = fill
                stored[missing & _even(stored.shape)] = np.int16(32767)
            else:
                stored = np.where(missing, fill, stored).astype(np.int16)
        else:
            fill = np.float32(1.0e20)
            var = ds.createVariable(case.var_name, "f4", dims, fill_value=fill, zlib=compress)
            var.set_auto_maskandscale(False)
            stored = stored.copy()
            stored[missing] = fill
            if plan.use_missing_value:
                var.missing_value = np.float32(-999.0)
                stored[missing & _even(stored.shape)] = np.float32(-999.0)
        var.standard_name = "air_temperature"
        var.long_name = "Daily Maximum Near-Surface Air Temperature"
        var.cell_methods = "time: maximum"
        var.units = plan.unit_name
        var[:] = stored
        if case.decoy:
            pr = ds.createVariable("pr", "f4", dims, zlib=compress)
            pr.standard_name = "precipitation_flux"
            pr.units = "kg m-2 s-1"
            pr[:] = np.abs(np.sin(chunk)).astype(np.float32) * np.float32(1e-4)
            bnds = ds.createVariable("time_bnds", "f8", ("time", "bnds"))
            bnds[:] = np.stack([time[:], time[:] + 1.0], axis=1)
            time.bounds = "time_bnds"
    finally:
        ds.close()


PUBLIC_CASES = [("example_standard", "standard", 1003), ("example_mixed", "mixed", 2002)]


def public_case(family: str, seed: int) -> Case:
    return make_case(random.Random(seed), family)


def main(out: str) -> None:
    root = Path(out)
    for stem, family, seed in PUBLIC_CASES:
        write_case(public_case(family, seed), root / stem, compress=True)


if __name__ == "__main__":
    main(sys.argv[1])
