# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Per-zone exposure: people, people without an assessed depth, people at or above each depth threshold,
flooded area and deepest flooding."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from floodexp.crs import PointTransformer
from floodexp.manifest import DEFAULT_THRESHOLDS_M, Scenario
from floodexp.rasters import read_layer
from floodexp.sampling import population_total, subcells


@dataclass
class ZoneStats:
    thresholds: list[float]
    population: float = 0.0
    unassessed: float = 0.0
    exposed: list[float] = field(default_factory=list)
    flooded_km2: float = 0.0
    max_depth_m: float | None = None

    def __post_init__(self) -> None:
        self.exposed = [0.0] * len(self.thresholds)

    def add_people(self, people: float, depth: float) -> None:
        self.population += people
        if np.isnan(depth):
            self.unassessed += people
            return
        for k, threshold in enumerate(self.thresholds):
            if depth >= threshold:
                self.exposed[k] += people

    def as_dict(self) -> dict:
        return {"population": self.population, "unassessed": self.unassessed, "exposed": self.exposed,
                "flooded_km2": self.flooded_km2, "max_depth_m": self.max_depth_m}


def compute(scenario: Scenario) -> dict:
    depth = read_layer(scenario.depth)
    pop = read_layer(scenario.population)
    zones = read_layer(scenario.zones)
    thresholds = list(DEFAULT_THRESHOLDS_M)

    ids = np.unique(zones.values[np.isfinite(zones.values)]).astype(np.int64)
    stats = {zone_id: ZoneStats(thresholds) for zone_id in ids if zone_id > 0}

    to_depth = PointTransformer(pop.srs, depth.srs)
    for x, y, people in subcells(pop, scenario.subcells):
        dx, dy = to_depth.point(x, y)
        row, col = depth.grid.locate(dx, dy)
        depth_m = depth.values[row, col]
        row, col = zones.grid.locate(dx, dy)
        zone = zones.values[row, col]
        if zone > 0:
            stats[int(zone)].add_people(people, depth_m)

    # Flooded area and deepest water, pixel by pixel of the depth raster.
    cx, cy = depth.grid.centres()
    rows, cols = zones.grid.locate_many(cx.ravel(), cy.ravel())
    pixel_zone = zones.values[rows, cols]
    values = depth.values.ravel()
    area = depth.cell_area_km2()
    for zone_id, zone_stats in stats.items():
        inside = pixel_zone == zone_id
        wet = inside & (values > 0)
        zone_stats.flooded_km2 = float(wet.sum()) * area
        valid = values[inside & np.isfinite(values)]
        zone_stats.max_depth_m = valid.max() if valid.size else None

    return {"scenario": scenario.name, "thresholds_m": thresholds, "population_total": population_total(pop),
            "zones": {zone_id: s.as_dict() for zone_id, s in stats.items()}}
