# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of netcdf-heatwave-audit: run the agent's ``/app/heatwave.py`` on datasets it never saw.

Datasets are written here, at verify time, by tests/hwgen.py (the generator that made the public examples)
from the verifier's seed, in families: standard conventions, other calendars, packed data with missing values,
0..360 longitudes with boxes across the prime meridian or the antimeridian and descending latitudes, records
split into many files at any day with non-chronological names, other variable/coordinate names and units,
and all of these mixed. The truth comes from tests/hwref.py, computed on the generator's canonical field
(never read back from the files). A region counts when every one of its six statistics is right.
"""

from __future__ import annotations

import json
import math
import resource
import sys

from hwgen import FAMILIES, PUBLIC_CASES, make_case, public_case, write_case
from hwref import MARGIN, reference

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, Run, read_regular_file, work_dir, writable_dir

SEED = 530117
APP_DIR = "/app"
PROGRAM = "/app/heatwave.py"
CASES_PER_FAMILY = 2
MAX_ATTEMPTS = 30  # redraws of a case whose regions are ambiguous (a day within MARGIN of its threshold)
RUN_CPU_SEC = 60  # CPU seconds per dataset (prlimit; the hard limit 2 s above)
RUN_WALL_SEC = 600.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 2
AGENT_CPU_BUDGET_SEC = 400.0  # CPU seconds of all runs together; later runs fail without starting
INT_KEYS = ("events", "longest", "hot_days")


def region_ok(got: object, want: dict) -> bool:
    """All six statistics of one region within tolerance."""
    if not isinstance(got, dict):
        return False
    for key in INT_KEYS:
        value = got.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value != want[key]:
            return False
    if got.get("first_event_start") != want["first_event_start"]:
        return False
    for key, tol_abs, tol_rel in (("degree_days", 0.01, 1e-3), ("mean_tmax", 0.005, 0.0)):
        value = got.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return False
        if abs(value - want[key]) > tol_abs + tol_rel * abs(want[key]):
            return False
    return True


def draw_case(seed: int, family: str, index: int):
    """A case of the family whose every region has events and no day within MARGIN of its threshold."""
    for attempt in range(MAX_ATTEMPTS):
        case = make_case(stress.rng(seed, family, index, attempt), family)
        truth, margins = reference(case)
        if min(margins.values()) >= MARGIN and all(s["events"] > 0 for s in truth.values()):
            return case, truth
    raise RuntimeError(f"no unambiguous case of {family} #{index} in {MAX_ATTEMPTS} draws")


class Pipeline:
    """Runs heatwave.py under a CPU-time limit per dataset, as an unprivileged user."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.root = work_dir("heatwave-")

    def run(self, stem: str, case, truth: dict) -> tuple[list[bool], bool]:
        case_dir = self.root / stem
        data_dir, regions = write_case(case, case_dir)
        out_dir = writable_dir(case_dir / "out")
        out = out_dir / "report.json"
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            run = Run(False, "", f"not run: the program used its {AGENT_CPU_BUDGET_SEC:g} s of CPU time")
        else:
            limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
            run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, PROGRAM, str(data_dir),
                                   "--regions", str(regions), "--out", str(out)])
        report = None
        if run.ok:
            text = read_regular_file(out)
            try:
                report = json.loads(text) if text is not None else None
            except ValueError:
                report = None
        got = report.get("regions") if isinstance(report, dict) else None
        got = got if isinstance(got, dict) else {}
        well_formed = run.ok and all(isinstance(got.get(name), dict) for name in truth)
        return [region_ok(got.get(name), want) for name, want in truth.items()], well_formed


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    pipeline = Pipeline()

    public_hits, public_ok = [], []
    for stem, family, public_seed in PUBLIC_CASES:
        case = public_case(family, public_seed)
        truth, _margins = reference(case)
        hits, ok = pipeline.run(stem, case, truth)
        public_hits += hits
        public_ok.append(ok)
    card.binary("public_runs", 0.25, all(public_ok), visibility="public",
                detail="heatwave.py writes a report with every region for both /app/examples datasets")
    card.fraction("public_examples", 1.0, public_hits, visibility="public",
                  detail="regions of the /app/examples datasets with all six statistics right")

    for family in FAMILIES:
        hits = []
        for index in range(CASES_PER_FAMILY):
            case, truth = draw_case(seed, family, index)
            region_hits, _ok = pipeline.run(f"{family}-{index}", case, truth)
            hits += region_hits
        print(f"{family}: {sum(hits)}/{len(hits)} regions right", flush=True)  # keeps the exec stream alive
        card.fraction(f"hidden_{family}", 1.5, hits,
                      detail=f"{family}: regions with all six statistics right")
    card.write()


if __name__ == "__main__":
    main()
