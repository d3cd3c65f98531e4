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
    """A data directory without files."""


@dataclass
class Record:
    days: list[Day]
    series: dict[str, np.ndarray]  # region name -> daily regional mean, degC


def load_record(data_dir: str | Path, regions: tuple[Region, ...]) -> Record:
    # the archive names files tasmax_day_YYYY.nc, so name order is time order
    paths = sorted(Path(data_dir).glob("*.nc"))
    if not paths:
        raise RecordError(f"no .nc files in {data_dir}")
    days: list[Day] = []
    parts: dict[str, list[np.ndarray]] = {r.name: [] for r in regions}
    for path in paths:
        chunk = read_chunk(path)
        days.extend(chunk.days)
        for r in regions:
            parts[r.name].append(regional_mean(chunk.celsius, chunk.lat, chunk.lon, r))
    return Record(days, {name: np.concatenate(p) for name, p in parts.items()})
