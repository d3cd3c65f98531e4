# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of robot-odometry-ekf: run ``/app/localize.py`` on the three public runs and on runs simulated here
from the verify seed (tests/simlog.py, the verifier's own copy of the simulator), and grade each track against
the true trajectory, relative to the verifier's own implementation of the method (tests/reference.py) on the
same log.

Families: clean runs; other robots with 16-bit wrapping counters, a mirrored right encoder and a gyro in deg/s;
an MCU clock counting from power-on and drifting, with records out of order and repeated; reflectors without ids,
misread tags and spurious returns; long runs with gyro-bias drift, wrapping counters and scanner blackouts;
gyro dropouts before turns, lost encoder frames and scanner blackouts; everything at once. A simulated run is
kept only when the reference tracks it well (position RMSE, final error, heading error and largest error below
fixed bounds): a run the method cannot follow is drawn again, never graded.

A run's score is the lowest of three grades, each full up to 1.1 times the reference's error (floors 2 cm,
5 cm, 0.005 rad) and nothing from 3 times: position RMSE, final position error, heading RMS error.
"""

from __future__ import annotations

import math
import random
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import localize as reference_localize  # noqa: E402
from reference import wrap  # noqa: E402
from simlog import PRESETS, make_run  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, Run, read_regular_file, work_dir, writable_dir  # noqa: E402

SEED = 5150
APP_DIR = "/app"
CLI = "/app/localize.py"
RUN_CPU_SEC = 60  # CPU seconds per run (prlimit; the instruction promises 60): a busy machine changes nothing
RUN_WALL_SEC = 300.0  # wall-clock guard against programs that sleep or wait; CPU time decides
MAX_WALL_OUTS = 2
AGENT_CPU_BUDGET_SEC = 420.0  # CPU seconds of all the agent's runs together; later runs fail without starting
OUTPUT_LIMIT = 16 << 20

PUBLIC = [("aisle-a", 11, "clean"), ("aisle-b", 12, "fleet"), ("aisle-c", 13, "patchy")]  # as the image builds

WRAP_UNITS = {"encoder_bits": 16, "right_sign": -1, "gyro_units": "deg/s", "calibration": "varied"}
CLOCK = {"mcu_clock": "boot", "reorder": True, "duplicates": 0.02}
ASSOCIATION = {"unknown_ids": 0.5, "misread": 0.03, "outliers": 0.6}
DROPOUTS = {"gyro_dropouts": 3, "scan_blackouts": 2, "enc_loss": 0.03, "enc_bursts": 2, "scanner_warmup": 4.0}
FAMILIES = {  # name: (simulator options, cases, weight)
    "clean": ({}, 3, 1.0),
    "units_wrap": (WRAP_UNITS, 3, 1.2),
    "clock_reorder": (CLOCK, 3, 1.2),
    "outliers_association": (ASSOCIATION, 3, 1.2),
    "long_run": ({"laps": 6, "encoder_bits": 16, "bias_drift": 0.04, "scan_blackouts": 3, "scanner_warmup": 4.0},
                 2, 1.0),
    "dropouts": (DROPOUTS, 3, 1.2),
    "mixed": ({**WRAP_UNITS, **CLOCK, **ASSOCIATION, "gyro_dropouts": 2, "scan_blackouts": 1, "enc_loss": 0.02,
               "enc_bursts": 1, "scanner_warmup": 4.0, "laps": 3}, 3, 1.2),
}
ATTEMPTS = 40  # draws per family before giving up on more cases

# what "the reference tracks it well" means
REF_MAX_RMSE, REF_MAX_FINAL, REF_MAX_HEADING, REF_MAX_ERROR = 0.08, 0.15, 0.02, 0.3
FLOORS = (0.02, 0.05, 0.005)  # m, m, rad
FULL, NONE = 1.1, 3.0
STRUCTURE_DT = 1e-3  # s
THETA_SLACK = 1e-6  # six printed decimals of a heading near -pi


def errors(track: dict[int, tuple], truth_rows: list[tuple]) -> tuple[float, float, float, float]:
    """(position RMSE, final position error, heading RMS error, largest position error) over the truth's rows."""
    pos, head = [], []
    for seq, _t, x, y, th in truth_rows:
        row = track[seq]
        pos.append(math.hypot(row[1] - x, row[2] - y))
        head.append(wrap(row[3] - th))
    n = len(pos)
    return (math.sqrt(sum(e * e for e in pos) / n), pos[-1], math.sqrt(sum(e * e for e in head) / n), max(pos))


def band(ratio: float) -> float:
    if not math.isfinite(ratio):
        return 0.0
    if ratio <= FULL:
        return 1.0
    if ratio >= NONE:
        return 0.0
    return (NONE - ratio) / (NONE - FULL)


class Case:
    def __init__(self, name: str, run: dict) -> None:
        self.name = name
        self.run = run
        ref_rows = reference_localize(run["log"], run["map"])
        self.ref_track = {seq: (t, x, y, th) for seq, t, x, y, th in ref_rows}
        self.ref_errors = errors(self.ref_track, run["truth_rows"])

    def tracked_well(self) -> bool:
        rmse, final, heading, worst = self.ref_errors
        return rmse <= REF_MAX_RMSE and final <= REF_MAX_FINAL and heading <= REF_MAX_HEADING and worst <= REF_MAX_ERROR


def select_cases(seed: int, family: str, options: dict, n: int) -> list[Case]:
    cases = []
    for index in range(ATTEMPTS):
        if len(cases) == n:
            break
        case = Case(f"{family}-{index}", make_run(stress.rng(seed, "run", family, index), options))
        if case.tracked_well():
            cases.append(case)
    return cases


def parse_track(text: str | None) -> list[tuple] | None:
    """Rows (seq, t, x, y, theta) of the agent's track, or None when the file is missing or malformed."""
    if text is None:
        return None
    lines = text.splitlines()
    if not lines or [c.strip() for c in lines[0].split(",")] != ["seq", "t", "x", "y", "theta"]:
        return None
    rows = []
    for line in lines[1:]:
        if not line.strip():
            continue
        parts = line.split(",")
        if len(parts) != 5:
            return None
        try:
            rows.append((int(parts[0]), float(parts[1]), float(parts[2]), float(parts[3]), float(parts[4])))
        except ValueError:
            return None
    return rows


def structure_ok(rows: list[tuple], truth_rows: list[tuple]) -> bool:
    """One row per encoder record, in time order, host times within 1 ms, finite values, wrapped headings."""
    if len(rows) != len(truth_rows):
        return False
    for row, truth in zip(rows, truth_rows):
        if row[0] != truth[0] or not all(math.isfinite(v) for v in row[1:]):
            return False
        if abs(row[1] - truth[1]) > STRUCTURE_DT or abs(row[4]) > math.pi + THETA_SLACK:
            return False
    return True


def grade_case(case: Case, rows: list[tuple] | None) -> tuple[float, bool, str]:
    """(score, structure ok, note)."""
    truth_rows = case.run["truth_rows"]
    if rows is None:
        return 0.0, False, "no track"
    track: dict[int, tuple] = {}
    for seq, t, x, y, th in rows:
        track.setdefault(seq, (t, x, y, th))
    if any(seq not in track for seq, *_ in truth_rows):
        return 0.0, structure_ok(rows, truth_rows), "encoder records without a pose"
    if not all(math.isfinite(v) for seq, *_ in truth_rows for v in track[seq]):
        return 0.0, False, "non-finite pose"
    got = errors(track, truth_rows)
    grades = [band(g / max(r, floor)) for g, r, floor in zip(got[:3], case.ref_errors[:3], FLOORS)]
    note = (f"rmse {got[0]:.3f}/{case.ref_errors[0]:.3f} final {got[1]:.3f}/{case.ref_errors[1]:.3f} "
            f"heading {got[2]:.4f}/{case.ref_errors[2]:.4f}")
    return min(grades), structure_ok(rows, truth_rows), note


class Agent:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.dir = work_dir("odoekf-")

    def localize(self, case: Case) -> list[tuple] | None:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            return None
        log_path = self.dir / f"{case.name}.odolog"
        map_path = self.dir / f"{case.name}.map.csv"
        log_path.write_text(case.run["log"], encoding="utf-8")
        map_path.write_text(case.run["map"], encoding="utf-8")
        log_path.chmod(0o644)
        map_path.chmod(0o644)
        out_path = writable_dir(self.dir / f"{case.name}-out") / "poses.csv"
        limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
        run: Run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, CLI, "--log", str(log_path),
                                    "--map", str(map_path), "--out", str(out_path)])
        if not run.ok:
            return None
        return parse_track(read_regular_file(out_path, limit=OUTPUT_LIMIT))


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    agent = Agent()

    # the public runs, regenerated from the verifier's copy of the simulator: /app/examples may have been edited
    public = [Case(name, make_run(random.Random(pub_seed), PRESETS[preset])) for name, pub_seed, preset in PUBLIC]
    public_results = [grade_case(case, agent.localize(case)) for case in public]
    complete = [note not in ("no track", "encoder records without a pose", "non-finite pose")
                for _s, _ok, note in public_results]
    card.fraction("public_runs", 0.1, complete, visibility="public",
                  detail="localize.py writes a pose for every encoder record of the example runs")
    card.add("public_accuracy", 0.4, sum(s for s, _ok, _n in public_results) / len(public), kind="continuous",
             visibility="public", detail="; ".join(f"{c.name}: {s:.2f}" for c, (s, _o, _n) in zip(public, public_results)))

    structure = []
    for family, (options, n, weight) in FAMILIES.items():
        cases = select_cases(seed, family, options, n)
        results = [grade_case(case, agent.localize(case)) for case in cases]
        structure.extend(ok for _s, ok, _n in results)
        score = sum(s for s, _ok, _n in results) / len(results) if results else 0.0
        card.add(f"hidden_{family}", weight, score, kind="continuous",
                 detail=" | ".join(f"{s:.2f} {note}" for s, _ok, note in results) or "no cases")
    card.fraction("hidden_track_format", 0.3, structure,
                  detail="one row per encoder record in time order, host times within 1 ms, headings wrapped")
    card.write()


if __name__ == "__main__":
    main()
