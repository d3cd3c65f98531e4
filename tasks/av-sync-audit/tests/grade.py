# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of av-sync-audit: run the agent's ``/app/avsync.py`` on clips it never saw.

Clips are written here, at verify time, by tests/avgen.py (the generator that made the public examples) from
the verifier's seed, in families that each exercise one convention: the house format, 29.97 fps with a
1/30000 time base, streams that start late (edit lists, stream delays), variable frame rate with dropped and
repeated frames, stereo and 5.1 layouts with the beep on one channel, 44.1 kHz audio, quiet beeps with noise
and DC offset beside dim flashes, and a drifting audio clock. The truth comes from the exact timestamps and
sample positions the generator encodes, never from reading the clip back. A clip counts when every field of
its report entry is right.
"""

from __future__ import annotations

import json
import math
import sys

from avgen import FAMILIES, PUBLIC_CASES, PUBLIC_TOLERANCE_MS, make_case, public_case, write_case

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir

SEED = 771203
APP_DIR = "/app"
PROGRAM = "/app/avsync.py"
CASES_PER_FAMILY = 3
RUN_CPU_SEC = 10  # CPU seconds per clip (prlimit; the hard limit 2 s above): the instruction's figure
RUN_WALL_SEC = 300.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 2
GENERATION_ATTEMPTS = 20  # a hidden case the generator cannot draw is drawn again, never graded
OFFSET_TOL_MS = 3.0
DRIFT_TOL_PPM = 250.0
INT_KEYS = ("dropped_frames", "duplicated_frames", "events")


def _number(value: object) -> bool:
    """A finite JSON number of sane size (a 400-digit integer is a number JSON allows and floats cannot hold)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) < 1e15 if isinstance(value, int) else math.isfinite(value)


def clip_ok(got: object, want: dict) -> bool:
    """Every field of one clip's entry right; whatever the program wrote, a wrong entry scores 0 for its clip and
    never stops the verifier."""
    try:
        return _clip_ok(got, want)
    except (ArithmeticError, TypeError, ValueError, RecursionError):
        return False


def _clip_ok(got: object, want: dict) -> bool:
    """Counts and verdict exactly, offset and drift within tolerance."""
    if not isinstance(got, dict):
        return False
    for key in INT_KEYS:
        value = got.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value != want[key]:
            return False
    if got.get("in_sync") is not want["in_sync"]:
        return False
    offset, drift = got.get("offset_ms"), got.get("drift_ppm")
    if not _number(offset) or abs(offset - want["offset_ms"]) > OFFSET_TOL_MS:
        return False
    return _number(drift) and abs(drift - want["drift_ppm"]) <= DRIFT_TOL_PPM


class Auditor:
    """Runs avsync.py under a CPU-time limit per clip, as an unprivileged user."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.root = work_dir("avsync-")
        self.count = 0

    def run(self, name: str, case) -> tuple[bool, bool]:
        """(entry right, run produced an entry for the clip)."""
        self.count += 1
        case_dir = writable_dir(self.root / f"case{self.count:02d}")
        clip = write_case(case, case_dir / name)
        out = case_dir / "report.json"
        # each run is bounded by its own CPU limit (27 clips: at most 27 x 12 s in all), so the program's time,
        # not the machine's load or the generator's encodes, decides whether a clip is graded
        limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
        run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, PROGRAM, str(clip),
                               "--tolerance-ms", f"{case.tolerance_ms:g}", "--out", str(out)])
        report = None
        if run.ok:
            text = read_regular_file(out)
            try:
                report = json.loads(text) if text is not None else None
            except (ValueError, RecursionError):
                report = None
        clips = report.get("clips") if isinstance(report, dict) else None
        got = clips.get(name) if isinstance(clips, dict) else None
        return clip_ok(got, case.truth), isinstance(got, dict)


def hidden_case(seed: int, family: str, index: int):
    """The family's case for this seed and index; a draw the generator cannot complete (no clear verdict within
    its attempts) is replaced by a fresh draw, so no seed fails the verification."""
    for attempt in range(GENERATION_ATTEMPTS):
        labels = (family, index) if attempt == 0 else (family, index, "redraw", attempt)
        try:
            return make_case(stress.rng(seed, *labels), family)
        except RuntimeError:
            continue
    raise RuntimeError(f"no {family} case for seed {seed}, index {index}")


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    auditor = Auditor()

    public_hits, public_ok = [], []
    for name, family, public_seed in PUBLIC_CASES:
        case = public_case(family, public_seed)
        assert case.tolerance_ms == PUBLIC_TOLERANCE_MS
        hit, ok = auditor.run(name, case)
        public_hits.append(hit)
        public_ok.append(ok)
    card.binary("public_runs", 0.25, all(public_ok), visibility="public",
                detail="avsync.py writes a report entry for each /app/examples clip")
    card.fraction("public_examples", 1.0, public_hits, visibility="public",
                  detail="/app/examples clips with every field right")

    for family in FAMILIES:
        hits = []
        for index in range(CASES_PER_FAMILY):
            case = hidden_case(seed, family, index)
            name = f"feed_{stress.rng(seed, 'name', family, index).randrange(100, 1000)}.{case.ext}"
            hit, _ok = auditor.run(name, case)
            hits.append(hit)
        print(f"{family}: {sum(hits)}/{len(hits)} clips right", flush=True)  # keeps the exec stream alive
        card.fraction(f"hidden_{family}", 1.5, hits, detail=f"{family}: clips with every field right")
    card.write()


if __name__ == "__main__":
    main()
