# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of chart-data-recovery: run the agent's ``/app/digitize.py CHART.png META.json`` on charts it never saw.

Charts are rendered here, at verify time, by tests/chartgen.py (the same generator that made the public
examples) from the verifier's own seed, in families: clean line charts, several series (with colours spelled
in every accepted way), log y axes, grouped bars, bars with negative values, JPEG/noise artifacts, and
small/large figures. A point's error is its distance from the true value as a fraction of the y axis span
(in log10 units on a log axis); a point is a hit when that error is at most 1 %.
"""

from __future__ import annotations

import json
import math
import random
import resource
import sys

from chartgen import PUBLIC_CASES, PUBLIC_SEED, expected_of, make_spec, meta_of, write_case

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, Run, work_dir

SEED = 771903
APP_DIR = "/app"
DIGITIZE = "/app/digitize.py"
HIT = 0.01
PER_FAMILY = 8  # charts per family: with 4 the baseline's banded hit fractions moved it by ±0.033 over seeds
HIT_BANDS = [(0.5, 0.0), (0.9, 0.6), (0.97, 1.0)]
RUN_CPU_SEC = 20  # CPU seconds per chart (prlimit; the hard limit 2 s above): a busy machine costs a run nothing
RUN_WALL_SEC = 120.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 2  # wall-guard timeouts before every later run fails without starting
AGENT_CPU_BUDGET_SEC = 150.0  # CPU seconds of all runs together; later runs fail without starting


def family_knobs(family: str, rng: random.Random, index: int) -> dict:
    """Knobs of chart ``index`` of ``family``; mixed families alternate line and bar charts by index (a log
    axis on every other line chart of "sizes"), so every seed has the same mix of kinds."""
    pick = stress.pick
    if family == "clean_line":
        return dict(kind="line")
    if family == "multi_series":
        return dict(kind="line", n_series=pick(rng, [2, 3, 4]), colors="mixed")
    if family == "log_axis":
        return dict(kind="line", yscale="log", n_series=pick(rng, [1, 2]))
    if family == "bars":
        return dict(kind="bar", n_series=pick(rng, [1, 2, 3]), colors="mixed")
    if family == "bars_negative":
        return dict(kind="bar", n_series=pick(rng, [1, 2, 3]), negative=True)
    kind = ("line", "bar")[index % 2]
    if family == "noisy":
        return dict(kind=kind, n_series=pick(rng, [1, 2]), noise=True)
    if family == "sizes":
        return dict(kind=kind, n_series=pick(rng, [1, 2]), size="varied",
                    yscale="log" if index % 4 == 2 else "linear")
    raise KeyError(family)


FAMILIES = ["clean_line", "multi_series", "log_axis", "bars", "bars_negative", "noisy", "sizes"]


def point_errors(actual: object, meta: dict, expected: dict) -> list[float]:
    """One error per expected point (1.0 when missing or invalid)."""
    series = actual.get("series") if isinstance(actual, dict) else None
    series = series if isinstance(series, dict) else {}
    log = meta["yscale"] == "log"
    low, high = meta["ylim"]
    span = math.log10(high) - math.log10(low) if log else high - low
    errors = []
    for name, truth in expected["series"].items():
        got = series.get(name)
        got = got if isinstance(got, list) and len(got) == len(truth) else [None] * len(truth)
        for value, target in zip(got, truth, strict=True):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                errors.append(1.0)
            elif log:
                errors.append(1.0 if value <= 0 else min(1.0, abs(math.log10(value) - math.log10(target)) / span))
            else:
                errors.append(min(1.0, abs(value - target) / abs(span)))
    return errors


class Digitizer:
    """Runs digitize.py under a CPU-time limit per chart, so a loaded machine slows a run but never fails it."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.work_dir = work_dir("charts-")

    def run(self, stem: str, spec: dict) -> tuple[list[float], bool]:
        png, meta_path = write_case(spec, self.work_dir, stem)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            run = Run(False, "", f"not run: the program used its {AGENT_CPU_BUDGET_SEC:g} s of CPU time")
        else:
            limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
            run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, DIGITIZE, str(png), str(meta_path)])
        actual = None
        if run.ok:
            try:
                actual = json.loads(run.stdout)
            except ValueError:
                actual = None
        well_formed = isinstance(actual, dict) and isinstance(actual.get("series"), dict) and all(
            isinstance(actual["series"].get(s["name"]), list) and len(actual["series"][s["name"]]) == len(s["values"])
            for s in spec["series"])
        return point_errors(actual, meta_of(spec), expected_of(spec)), well_formed


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    digitizer = Digitizer()

    public = [digitizer.run(f"public-{i}", make_spec(random.Random(PUBLIC_SEED + i), **knobs))
              for i, (_stem, knobs) in enumerate(PUBLIC_CASES)]
    card.binary("public_runs", 0.5, all(ok for _e, ok in public), visibility="public",
                detail="digitize.py prints well-formed JSON for the /app/examples charts")
    public_errors = [e for errs, _ok in public for e in errs]
    card.fraction("public_examples", 1, [e <= HIT for e in public_errors], visibility="public",
                  detail="points of the /app/examples charts within 1 % of the axis span")

    all_errors = []
    for family in FAMILIES:
        errors = []
        for index in range(PER_FAMILY):
            rng = stress.rng(seed, family, index)
            spec = make_spec(rng, **family_knobs(family, rng, index))
            errs, _ok = digitizer.run(f"{family}-{index}", spec)
            errors += errs
        all_errors += errors
        hits = sum(e <= HIT for e in errors) / len(errors)
        card.banded(f"hidden_{family}", 2, hits, bands=HIT_BANDS,
                    detail=f"{family}: fraction of points within 1 % of the axis span = {hits:.3f}")
    card.continuous("hidden_mean_error", 3, math.fsum(all_errors) / len(all_errors), target=0.0,
                    tolerance=0.004, bound=0.05, detail="mean point error over all hidden charts (axis fraction)")
    card.write()


if __name__ == "__main__":
    main()
