# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading and validating regions.json (periods, percentile, window, spell length and region boxes)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


class ConfigError(ValueError):
    """regions.json is missing a key or holds a value out of range."""


@dataclass(frozen=True)
class Region:
    name: str
    south: float
    north: float
    west: float  # degrees east in -180..180; west > east means the box crosses the antimeridian
    east: float


@dataclass(frozen=True)
class Config:
    baseline: tuple[int, int]
    analysis: tuple[int, int]
    percentile: float
    window: int
    min_length: int
    regions: tuple[Region, ...]


def _years(raw: dict, key: str) -> tuple[int, int]:
    value = raw.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise ConfigError(f"regions.json: '{key}' must be [first_year, last_year]")
    if value[0] > value[1]:
        raise ConfigError(f"regions.json: '{key}' starts after it ends")
    return value[0], value[1]


def _region(raw: dict) -> Region:
    try:
        south, north = (float(v) for v in raw["lat"])
        west, east = (float(v) for v in raw["lon"])
        name = str(raw["name"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"regions.json: bad region {raw!r}: {exc}") from exc
    if not -90 <= south <= north <= 90:
        raise ConfigError(f"regions.json: region {name}: lat must be [south, north] within -90..90")
    if not (-180 <= west <= 180 and -180 <= east <= 180):
        raise ConfigError(f"regions.json: region {name}: lon must be [west, east] within -180..180")
    return Region(name, south, north, west, east)


def load_config(path: str | Path) -> Config:
    raw = json.loads(Path(path).read_text())
    regions = tuple(_region(r) for r in raw.get("regions", []))
    if not regions:
        raise ConfigError("regions.json: no regions")
    names = [r.name for r in regions]
    if len(set(names)) != len(names):
        raise ConfigError("regions.json: region names must be unique")
    percentile = float(raw.get("percentile", 90))
    if not 0 < percentile < 100:
        raise ConfigError("regions.json: percentile must be in (0, 100)")
    window = int(raw.get("window", 5))
    min_length = int(raw.get("min_length", 3))
    if window < 0 or min_length < 1:
        raise ConfigError("regions.json: window must be >= 0 and min_length >= 1")
    return Config(_years(raw, "baseline"), _years(raw, "analysis"), percentile, window, min_length, regions)
