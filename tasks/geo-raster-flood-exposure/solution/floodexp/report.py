# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Writing the exposure report as JSON or as a plain-text table."""

from __future__ import annotations

import json


def to_json(report: dict) -> str:
    return json.dumps(report, indent=2)


def to_table(report: dict) -> str:
    thresholds = report.get("thresholds_m", [])
    head = ["zone", "population", "unassessed"] + [f">={t:g} m" for t in thresholds] + ["flooded km2", "max m"]
    lines = [f"scenario {report['scenario']}: {report['population_total']:.0f} people in the population raster",
             "  ".join(f"{h:>12}" for h in head)]
    for zone_id, z in sorted(report["zones"].items(), key=lambda item: int(item[0])):
        cells = [zone_id, f"{z['population']:.1f}", f"{z['unassessed']:.1f}"]
        cells += [f"{e:.1f}" for e in z["exposed"]]
        cells += [f"{z['flooded_km2']:.4f}", "-" if z["max_depth_m"] is None else f"{z['max_depth_m']:.2f}"]
        lines.append("  ".join(f"{c:>12}" for c in cells))
    return "\n".join(lines)
