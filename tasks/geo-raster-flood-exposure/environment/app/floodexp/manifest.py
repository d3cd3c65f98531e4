# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The scenario manifest (scenario.json): which rasters make up a scenario and what to report."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_THRESHOLDS_M = (0.15, 0.5, 1.5)
DEFAULT_SUBCELLS = 4
POPULATION_KINDS = ("count", "density_km2")


class ManifestError(ValueError):
    """The manifest is missing something or says something impossible."""


@dataclass
class LayerSpec:
    """One layer of a scenario: its file (or tiles) and the metadata the manifest supplies for it."""

    role: str
    paths: list[Path]
    tiled: bool = False
    crs: str | None = None
    nodata: float | None = None
    scale: float | None = None
    offset: float | None = None
    unit: str | None = None
    kind: str = "count"


@dataclass
class Scenario:
    name: str
    depth: LayerSpec
    population: LayerSpec
    zones: LayerSpec
    thresholds: list[float] = field(default_factory=lambda: list(DEFAULT_THRESHOLDS_M))
    subcells: int = DEFAULT_SUBCELLS


def _number(value, what: str) -> float:
    if isinstance(value, str) and value.strip().lower() == "nan":
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ManifestError(f"{what} must be a number, got {value!r}")
    return float(value)


def _layer(raw: dict, role: str, base: Path) -> LayerSpec:
    if not isinstance(raw, dict):
        raise ManifestError(f"'{role}' must be an object")
    if "tiles" in raw:
        tiles = raw["tiles"]
        if not isinstance(tiles, list) or not tiles:
            raise ManifestError(f"'{role}.tiles' must be a non-empty list of paths")
        spec = LayerSpec(role, [base / str(t) for t in tiles], tiled=True)
    elif "path" in raw:
        spec = LayerSpec(role, [base / str(raw["path"])])
    else:
        raise ManifestError(f"'{role}' needs 'path' or 'tiles'")
    if raw.get("crs") is not None:
        spec.crs = str(raw["crs"])
    for key in ("nodata", "scale", "offset"):
        if raw.get(key) is not None:
            setattr(spec, key, _number(raw[key], f"{role}.{key}"))
    if raw.get("unit") is not None:
        spec.unit = str(raw["unit"])
    if role == "population":
        spec.kind = str(raw.get("kind", "count"))
        if spec.kind not in POPULATION_KINDS:
            raise ManifestError(f"population.kind must be one of {POPULATION_KINDS}, got {spec.kind!r}")
    return spec


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ManifestError(f"cannot read {path}: {exc}") from exc
    base = path.parent
    for role in ("depth", "population", "zones"):
        if role not in raw:
            raise ManifestError(f"{path}: missing '{role}'")
    scenario = Scenario(
        name=str(raw.get("name", path.parent.name)),
        depth=_layer(raw["depth"], "depth", base),
        population=_layer(raw["population"], "population", base),
        zones=_layer(raw["zones"], "zones", base),
    )
    if raw.get("thresholds_m") is not None:
        scenario.thresholds = [_number(t, "thresholds_m") for t in raw["thresholds_m"]]
    if raw.get("subcells") is not None:
        scenario.subcells = int(raw["subcells"])
        if scenario.subcells < 1:
            raise ManifestError("subcells must be at least 1")
    return scenario
