# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Regression test: the example scenarios' reports against their expected.json (tolerances of the spec)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.parent for p in (APP / "examples").glob("*/scenario.json"))


def close(got: float, want: float, rel: float, absolute: float) -> bool:
    return abs(got - want) <= rel * abs(want) + absolute


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_report(example: Path) -> None:
    run = subprocess.run([sys.executable, str(APP / "flood_exposure.py"), str(example / "scenario.json")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    want = json.loads((example / "expected.json").read_text())
    assert set(got["zones"]) == set(want["zones"])
    assert close(got["population_total"], want["population_total"], 0.001, 1.0)
    for zone_id, expect in want["zones"].items():
        zone = got["zones"][zone_id]
        people_tol = 0.005 * expect["population"] + 1.0
        for key in ("population", "unassessed"):
            assert abs(zone[key] - expect[key]) <= people_tol, (zone_id, key)
        assert len(zone["exposed"]) == len(expect["exposed"])
        for value, target in zip(zone["exposed"], expect["exposed"]):
            assert abs(value - target) <= people_tol, (zone_id, "exposed")
        assert close(zone["flooded_km2"], expect["flooded_km2"], 0.005, 0.001), (zone_id, "flooded_km2")
        if expect["max_depth_m"] is None:
            assert zone["max_depth_m"] is None
        else:
            assert abs(zone["max_depth_m"] - expect["max_depth_m"]) <= 0.002, (zone_id, "max_depth_m")
