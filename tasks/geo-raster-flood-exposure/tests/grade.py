# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of geo-raster-flood-exposure: run the agent's ``/app/flood_exposure.py SCENARIO.json`` on scenarios it
never saw and compare its report with the verifier's own implementation of the method.

Scenarios are written here, at verify time, by tests/scengen.py (the generator that made /app/examples) from the
verifier's seed, in families: one UTM CRS (clean), nodata conventions, packed integer depths, south-up and turned
grids, rasters that only partly overlap, three different projected CRSs, geographic grids, 0..360 longitudes and
grids across 180 degrees, tiled depth, population densities with depths and grids in feet, national-scale runs
and everything at once. The truth comes from tests/reference.py, computed from the generator's plain arrays
(metres, counts, zone ids on canonical grids), never from the files. A scenario passes when the zone set is
right and every number is within the tolerance stated in the instruction.
"""

from __future__ import annotations

import json
import math
import random
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import report as reference_report  # noqa: E402
from scengen import FAMILIES, PUBLIC_CASES, make_scene, public_scene, write_scene  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, Run, work_dir  # noqa: E402

SEED = 662091
APP_DIR = "/app"
PROGRAM = "/app/flood_exposure.py"
PER_FAMILY = 4
RUN_CPU_SEC = 20  # CPU seconds per scenario (prlimit; hard limit 2 s above): a busy machine costs a run nothing
RUN_WALL_SEC = 150.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 2  # wall-guard timeouts before every later run fails without starting
AGENT_CPU_BUDGET_SEC = 400.0  # CPU seconds of all runs together; later runs fail without starting

PEOPLE_REL, PEOPLE_ABS = 0.005, 1.0  # people: 0.5 % of the zone's population, plus one person
TOTAL_REL = 0.001  # population_total: 0.1 %, plus one person
AREA_REL, AREA_ABS = 0.005, 0.001  # flooded_km2: 0.5 %, plus 0.001 km²
DEPTH_ABS = 0.002  # max_depth_m: 2 mm


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def mismatch(got, want: dict) -> str | None:
    """None when the agent's report matches the reference within tolerance, else the first difference."""
    if not isinstance(got, dict):
        return "no JSON object on stdout"
    zones = got.get("zones")
    if not isinstance(zones, dict) or set(zones) != set(want["zones"]):
        return "wrong set of zone ids"
    total = got.get("population_total")
    if not _number(total) or abs(total - want["population_total"]) > TOTAL_REL * want["population_total"] + PEOPLE_ABS:
        return f"population_total {total!r} (expected {want['population_total']:.1f})"
    for zone_id, expect in want["zones"].items():
        zone = zones[zone_id]
        if not isinstance(zone, dict):
            return f"zone {zone_id} is not an object"
        tol = PEOPLE_REL * expect["population"] + PEOPLE_ABS
        for key in ("population", "unassessed"):
            if not _number(zone.get(key)) or abs(zone[key] - expect[key]) > tol:
                return f"zone {zone_id} {key} {zone.get(key)!r} (expected {expect[key]:.1f})"
        exposed = zone.get("exposed")
        if not isinstance(exposed, list) or len(exposed) != len(expect["exposed"]):
            return f"zone {zone_id} exposed is not a list of {len(expect['exposed'])} numbers"
        for k, (value, target) in enumerate(zip(exposed, expect["exposed"], strict=True)):
            if not _number(value) or abs(value - target) > tol:
                return f"zone {zone_id} exposed[{k}] {value!r} (expected {target:.1f})"
        area = zone.get("flooded_km2")
        if not _number(area) or abs(area - expect["flooded_km2"]) > AREA_REL * expect["flooded_km2"] + AREA_ABS:
            return f"zone {zone_id} flooded_km2 {area!r} (expected {expect['flooded_km2']:.4f})"
        deepest = zone.get("max_depth_m", "missing")
        if expect["max_depth_m"] is None:
            if deepest is not None:
                return f"zone {zone_id} max_depth_m {deepest!r} (expected null)"
        elif not _number(deepest) or abs(deepest - expect["max_depth_m"]) > DEPTH_ABS:
            return f"zone {zone_id} max_depth_m {deepest!r} (expected {expect['max_depth_m']:.3f})"
    return None


class Program:
    """Runs flood_exposure.py under a CPU-time limit per scenario, so a loaded machine slows a run but never fails it."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.dir = work_dir("scenarios-")

    def run(self, stem: str, scene: dict, want: dict) -> tuple[bool, str | None]:
        """(printed a JSON object, first mismatch or None)"""
        manifest = write_scene(scene, self.dir / stem)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            run = Run(False, "", f"not run: the program used its {AGENT_CPU_BUDGET_SEC:g} s of CPU time")
        else:
            limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
            run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, PROGRAM, str(manifest)])
        if not run.ok:
            return False, f"did not run: {run.note}"
        try:
            got = json.loads(run.stdout)
        except ValueError:
            return False, "stdout is not JSON"
        return isinstance(got, dict), mismatch(got, want)


def expected(scene: dict) -> dict:
    return json.loads(json.dumps(reference_report(scene)))


def usable(want: dict) -> bool:
    """A scenario is graded only when people live in its zones and some of them are flooded."""
    zones = want["zones"].values()
    return (want["population_total"] > 0 and any(z["population"] > 0 for z in zones)
            and any(z["exposed"] and z["exposed"][0] > 0 for z in zones)
            and any(z["flooded_km2"] > 0 for z in zones))


def hidden_scene(seed: int, family: str, index: int) -> tuple[dict, dict]:
    """Scenario ``index`` of ``family`` and its expected report; a draw the generator or the reference cannot
    turn into a meaningful scenario is replaced by the next one, never graded."""
    for attempt in range(20):
        rng = stress.rng(seed, family, index) if attempt == 0 else stress.rng(seed, family, index, attempt)
        try:
            scene = make_scene(rng, family)
            want = expected(scene)
        except (RuntimeError, ValueError, ArithmeticError):
            continue
        if usable(want):
            return scene, want
    raise RuntimeError(f"no usable {family} scenario for seed {seed}, index {index}")


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    program = Program()

    # The public examples are regenerated from the verifier's copy of the generator: /app/examples may be edited.
    public = []
    for i in range(len(PUBLIC_CASES)):
        scene = public_scene(i)
        public.append(program.run(f"public-{i}", scene, expected(scene)))
    card.binary("public_runs", 0.5, all(ok for ok, _ in public), visibility="public",
                detail="flood_exposure.py prints a JSON report for every /app/examples scenario")
    card.fraction("public_examples", 1, [why is None for _, why in public], visibility="public",
                  detail="/app/examples scenarios whose report matches expected.json within tolerance")

    for family in FAMILIES:
        results = []
        for index in range(PER_FAMILY):
            scene, want = hidden_scene(seed, family, index)
            _ok, why = program.run(f"{family}-{index}", scene, want)
            results.append(why is None)
            if why is not None:  # the verifier's log only: the scorecard names no hidden number
                print(f"{family} #{index}: {why}", file=sys.stderr)
        card.fraction(f"hidden_{family}", 1, results, detail=f"{family}: scenarios whose whole report is right")
    card.write()


if __name__ == "__main__":
    main()
