# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading one NetCDF file: the daily maximum temperature (degC, NaN where missing), its days and grid."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import netCDF4
import numpy as np

from .cfdates import Day, decode_days
from .units import to_celsius


@dataclass
class Chunk:
    path: Path
    days: list[Day]
    lat: np.ndarray
    lon: np.ndarray
    celsius: np.ndarray  # (time, lat, lon), float64, NaN where missing


def _unpack(var) -> np.ndarray:
    """Raw values to physical ones; done by hand because netCDF4's masked arrays were slow on the old server."""
    var.set_auto_maskandscale(False)
    values = np.asarray(var[:], dtype=np.float64)
    fill = getattr(var, "_FillValue", None)
    if fill is not None:
        values[values == fill] = np.nan
    scale = getattr(var, "scale_factor", None)
    if scale is not None:
        values = values * float(scale)
    return values


def read_chunk(path: str | Path) -> Chunk:
    with netCDF4.Dataset(path) as ds:
        var = ds.variables["tasmax"]
        time = ds.variables["time"]
        days = decode_days(time[:], time.units, getattr(time, "calendar", None))
        lat = np.asarray(ds.variables["lat"][:], dtype=np.float64)
        lon = np.asarray(ds.variables["lon"][:], dtype=np.float64)
        celsius = to_celsius(_unpack(var), getattr(var, "units", None))
    return Chunk(Path(path), days, lat, lon, celsius)
