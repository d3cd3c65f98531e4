# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of hl7-lab-feed: run the agent's `python3 -m labfeed FEED_DIR OUT_DIR` (in /app) on the public sample
and on feeds generated here from the verify seed (tests/labgen.py, one family per kind of difficulty), and compare
results.csv, alerts.csv and summary.json with the reference implementation's (tests/reference/labfeed, which reads
its own copy of the reference-range table). Nothing the agent could have edited is read for the expected output."""

from __future__ import annotations

import csv
import io
import json
import resource
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "reference"))

from labfeed.output import write_outputs  # noqa: E402  (the reference implementation, never the agent's)
from labfeed.pipeline import run_feed  # noqa: E402
from labgen import KNOBS, make_feed, write_feed  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir  # noqa: E402

SEED = 7301
APP_DIR = "/app"
PUBLIC_FEED = HERE / "public" / "feed"  # the verifier's copy of /app/samples/feed
RUN_CPU_SEC = 15  # CPU seconds per feed (prlimit; SIGKILL 2 s above): a busy machine slows a run, never fails it
RUN_WALL_SEC = 150.0  # only a guard against a program that sleeps or waits
MAX_WALL_OUTS = 2
AGENT_CPU_BUDGET_SEC = 330.0  # all runs together; later runs fail without starting
PER_FAMILY = 3
# family: (knobs, feeds, senders, messages per sender, messages per file)
FAMILIES = {
    "clean": (frozenset(), PER_FAMILY, 3, 10, (3, 8)),
    "delimiters_escapes": (frozenset({"delims"}), PER_FAMILY, 3, 10, (3, 8)),
    "framing_batches": (frozenset({"framing"}), PER_FAMILY, 3, 12, (3, 6)),
    "corrections_duplicates": (frozenset({"corrections", "duplicates"}), PER_FAMILY, 3, 12, (3, 8)),
    "units": (frozenset({"units"}), PER_FAMILY, 3, 10, (3, 8)),
    "values": (frozenset({"values"}), PER_FAMILY, 3, 10, (3, 8)),
    "reference_ranges": (frozenset({"demographics"}), PER_FAMILY, 3, 12, (3, 8)),
    "timestamps": (frozenset({"timestamps"}), PER_FAMILY, 3, 10, (3, 8)),
    "identifiers": (frozenset({"identifiers"}), PER_FAMILY, 3, 10, (3, 8)),
    "everything": (KNOBS, PER_FAMILY, 4, 12, (3, 8)),
    "large_feed": (KNOBS, 2, 4, 1500, (80, 200)),
}


def csv_rows(text: str | None) -> list[list[str]] | None:
    if text is None:
        return None
    try:
        return list(csv.reader(io.StringIO(text.replace("\r\n", "\n"), newline="")))
    except csv.Error:
        return None


class Outputs:
    def __init__(self, out_dir: Path) -> None:
        self.results = csv_rows(read_regular_file(out_dir / "results.csv", 64 << 20))
        self.alerts = csv_rows(read_regular_file(out_dir / "alerts.csv", 64 << 20))
        text = read_regular_file(out_dir / "summary.json")
        try:
            summary = json.loads(text) if text is not None else None
        except ValueError:
            summary = None
        self.summary = summary if isinstance(summary, dict) else None


def summary_matches(got: dict | None, want: dict) -> bool:
    if got is None:
        return False
    return all(type(got.get(key)) is int and got[key] == value for key, value in want.items())


def compare(got: Outputs, want: Outputs) -> list[bool]:
    return [got.results is not None and got.results == want.results,
            got.alerts is not None and got.alerts == want.alerts,
            summary_matches(got.summary, want.summary)]


def readable(path: Path) -> None:
    for item in [path, *path.rglob("*")]:
        item.chmod(0o755 if item.is_dir() else 0o644)


class Harness:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.root = work_dir("labfeed-")
        self.private = Path(tempfile.mkdtemp(prefix="labfeed-expected-"))  # mode 0700: the agent's runs cannot read it

    def run(self, name: str, feed_dir: Path) -> tuple[Outputs, Outputs]:
        expected_dir = self.private / name
        write_outputs(run_feed(feed_dir), expected_dir)
        out = writable_dir(self.root / f"{name}-out") / "result"
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime <= AGENT_CPU_BUDGET_SEC:  # else not run: no outputs, scores 0
            self.runner.run(["/usr/bin/prlimit", f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}", "--", sys.executable,
                             "-m", "labfeed", str(feed_dir), str(out)])
        return Outputs(out), Outputs(expected_dir)


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    harness = Harness()

    public_in = harness.root / "public-feed"
    write_feed(public_in, {p.name: p.read_bytes() for p in sorted(PUBLIC_FEED.iterdir())})
    readable(public_in)
    got, want = harness.run("public", public_in)
    card.binary("public_runs", 0.5, got.results is not None and got.alerts is not None and got.summary is not None,
                visibility="public", detail="labfeed writes results.csv, alerts.csv and summary.json for the sample")
    card.fraction("public_sample", 1, compare(got, want), visibility="public",
                  detail="the sample's three outputs equal /app/samples/expected")

    for family, (knobs, feeds, senders, per_sender, file_size) in FAMILIES.items():
        checks: list[bool] = []
        for index in range(feeds):
            feed_dir = harness.root / f"{family}-{index}"
            write_feed(feed_dir, make_feed(stress.rng(seed, "feed", family, index), knobs, senders, per_sender,
                                           file_size))
            readable(feed_dir)
            checks += compare(*harness.run(f"{family}-{index}", feed_dir))
        card.fraction(f"hidden_{family}", 1, checks,
                      detail=f"{family}: results.csv, alerts.csv and summary.json exact, per feed")
    card.write()


if __name__ == "__main__":
    main()
