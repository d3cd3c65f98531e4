# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Per-zone exposure: people, people without an assessed depth, people at or above each depth threshold,
flooded area and deepest flooding."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from floodexp.crs import Transformer
from floodexp.manifest import Scenario
from floodexp.mosaic import Mosaic
from floodexp.rasters import Raster, read_layer
from floodexp.sampling import subcells


@dataclass
class ZoneLookup:
    raster: Raster

    def __post_init__(self) -> None:
        ids = np.unique(self.raster.values[np.isfinite(self.raster.values)])
        self.ids = ids[ids > 0].astype(np.int64)

    def slots(self, x: np.ndarray, y: np.ndarray, src) -> np.ndarray:
        """Position in ``self.ids`` of the zone holding each point (given in ``src``), -1 for none."""
        zx, zy = Transformer(src, self.raster.srs)(x, y)
        index = self.raster.grid.locate(zx, zy)
        values = np.where(index >= 0, self.raster.values.ravel()[np.maximum(index, 0)], np.nan)
        valid = np.isfinite(values) & (values > 0)
        slots = np.searchsorted(self.ids, np.where(valid, values, 0).astype(np.int64))
        return np.where(valid, slots, -1)

    def total(self, slots: np.ndarray, weights: np.ndarray) -> np.ndarray:
        keep = slots >= 0
        return np.bincount(slots[keep], weights=weights[keep], minlength=len(self.ids))


def compute(scenario: Scenario) -> dict:
    depth = Mosaic(read_layer(scenario.depth))
    (pop,) = read_layer(scenario.population)
    (zone_raster,) = read_layer(scenario.zones)
    zones = ZoneLookup(zone_raster)

    x, y, people, population_total = subcells(pop, scenario.population.kind, scenario.subcells)
    sub_depth = depth.sample(x, y, pop.srs)
    sub_zone = zones.slots(x, y, pop.srs)
    population = zones.total(sub_zone, people)
    unassessed = zones.total(sub_zone, np.where(np.isnan(sub_depth), people, 0.0))
    exposed = [zones.total(sub_zone, np.where(sub_depth >= t, people, 0.0)) for t in scenario.thresholds]

    flooded = np.zeros(len(zones.ids))
    deepest = np.full(len(zones.ids), -np.inf)
    for tile, px, py in depth.pixels():
        slot = zones.slots(px, py, tile.srs)
        values = tile.values.ravel()
        flooded += zones.total(slot, np.where(values > 0, tile.areas_km2().ravel(), 0.0))
        valid = (slot >= 0) & np.isfinite(values)
        np.maximum.at(deepest, slot[valid], values[valid])

    report_zones = {}
    for k, zone_id in enumerate(zones.ids):
        report_zones[str(int(zone_id))] = {
            "population": float(population[k]),
            "unassessed": float(unassessed[k]),
            "exposed": [float(e[k]) for e in exposed],
            "flooded_km2": float(flooded[k]),
            "max_depth_m": None if deepest[k] == -np.inf else float(deepest[k]),
        }
    return {"scenario": scenario.name, "thresholds_m": list(scenario.thresholds),
            "population_total": population_total, "zones": report_zones}
