# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of multi-currency-reconciliation: run the agent's
`/app/reconcile.py STATEMENTS_DIR LEDGER.csv RATES.csv OUT_DIR` on data sets generated here (tests/recongen.py,
one family per kind of edge case) and compare with the reference reconciliation (tests/reference_reconcile.py).
The public sample is regenerated here from the build's seed (the verifier's own copy of /app/sample), so what is
graded never depends on files the agent could have edited."""

from __future__ import annotations

import csv
import io
import json
import math
import random
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recongen import KNOBS, make_dataset, write_dataset  # noqa: E402
from reference_reconcile import reconcile  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir  # noqa: E402

SEED = 4711
SAMPLE_SEED = 20240301  # environment/Dockerfile builds /app/sample with this seed
APP_DIR = "/app"
PER_FAMILY = 4
RUN_CPU_SEC = 20  # CPU seconds per data set (prlimit; SIGKILL 2 s above): a busy machine slows a run, never fails it
RUN_WALL_SEC = 120.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 2  # wall-guard timeouts before every later run fails without starting
AGENT_CPU_BUDGET_SEC = 240.0  # CPU seconds of all runs together; later runs fail without starting
FAMILIES = {
    "clean": frozenset(),
    "fx_rates": frozenset({"fx", "weekend"}),
    "split_payments": frozenset({"split"}),
    "netted_fees": frozenset({"netted"}),
    "reversals_duplicates": frozenset({"reversal", "duplicate"}),
    "bank_formats": frozenset({"formats"}),
    "mt940_statements": frozenset({"mt940", "reversal", "split"}),
    "bulk_payments": frozenset({"bulk", "fx"}),
    "outstanding": frozenset({"unmatched"}),
    "mixed": frozenset(KNOBS),
}
COUNT_KEYS = ("statement_lines", "duplicates_removed", "reversal_pairs", "matched_statement_lines",
              "matched_ledger_entries", "unmatched_statement_lines", "unmatched_ledger_entries")


def read_csv(text: str | None) -> list[dict] | None:
    if text is None:
        return None
    try:
        return [{k: (v or "").strip() for k, v in row.items() if k is not None} for row in csv.DictReader(io.StringIO(text))]
    except csv.Error:
        return None


class Outputs:
    def __init__(self, out_dir: Path):
        self.matches_text = read_regular_file(out_dir / "matches.csv")
        self.unmatched_text = read_regular_file(out_dir / "unmatched.csv")
        summary = read_regular_file(out_dir / "summary.json")
        try:
            self.summary = json.loads(summary) if summary is not None else None
        except ValueError:
            self.summary = None
        if not isinstance(self.summary, dict):
            self.summary = None
        self.matches = read_csv(self.matches_text) or []
        self.unmatched = read_csv(self.unmatched_text) or []

    def match_of(self) -> dict[tuple[str, str], tuple[str, str]]:
        return {(r.get("account", ""), r.get("statement_txn_id", "")): (r.get("ledger_ids", ""), r.get("match_type", ""))
                for r in self.matches}

    def unmatched_keys(self) -> set[tuple[str, str, str]]:
        return {(r.get("source", ""), r.get("account", ""), r.get("id", "")) for r in self.unmatched}


def line_cases(actual: Outputs, expected: Outputs) -> list[bool]:
    """One case per statement line and per ledger entry of the expected reconciliation."""
    got_match, got_unmatched = actual.match_of(), actual.unmatched_keys()
    cases = []
    for key, value in expected.match_of().items():
        cases.append(got_match.get(key) == value and ("statement", *key) not in got_unmatched)
    for source, account, ident in expected.unmatched_keys():
        if source == "statement":
            cases.append((source, account, ident) in got_unmatched and (account, ident) not in got_match)
        else:
            cases.append((source, account, ident) in got_unmatched)
    expected_unmatched_ledger = {k for k in expected.unmatched_keys() if k[0] == "ledger"}
    cases += [False for k in got_unmatched if k[0] == "ledger" and k not in expected_unmatched_ledger]
    return cases


def number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def closeness(value, target: float) -> float:
    value = number(value)
    if value is None:
        return 0.0
    error = abs(value - target)
    if error <= 0.005:
        return 1.0
    return max(0.0, 1.0 - error / (0.02 * max(abs(target), 100.0)))


def total_scores(actual: Outputs, expected: Outputs) -> list[float]:
    exp, got = expected.summary, actual.summary or {}
    scores = [closeness(got.get("unmatched_ledger_usd"), exp["unmatched_ledger_usd"])]
    accounts = got.get("accounts") if isinstance(got.get("accounts"), dict) else {}
    for account, values in exp["accounts"].items():
        mine = accounts.get(account) if isinstance(accounts.get(account), dict) else {}
        scores.append(closeness(mine.get("statement_net"), values["statement_net"]))
        scores.append(closeness(mine.get("unmatched_net"), values["unmatched_net"]))
        got_fx = number(mine.get("fx_difference"))
        scores.append(float(got_fx is not None and abs(got_fx - values["fx_difference"]) < 0.0005))
    return scores


def counts_right(actual: Outputs, expected: Outputs) -> bool:
    got = actual.summary or {}
    return all(type(got.get(k)) is int and got[k] == expected.summary[k] for k in COUNT_KEYS)


def files_exact(actual: Outputs, expected: Outputs) -> bool:
    norm = lambda t: None if t is None else t.replace("\r\n", "\n")  # noqa: E731
    return (norm(actual.matches_text) == norm(expected.matches_text)
            and norm(actual.unmatched_text) == norm(expected.unmatched_text))


def readable(data_dir: Path) -> None:
    for path in [data_dir, *data_dir.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


class Harness:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.root = work_dir("recon-")

    def run(self, name: str, data_dir: Path) -> tuple[Outputs, Outputs]:
        ref_out = self.root / f"{name}-expected"
        reconcile(data_dir / "statements", data_dir / "ledger.csv", data_dir / "rates.csv", ref_out)
        out = writable_dir(self.root / f"{name}-out") / "result"
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime <= AGENT_CPU_BUDGET_SEC:  # else not run: no outputs, scores 0
            self.runner.run(["/usr/bin/prlimit", f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}", "--", sys.executable,
                             "/app/reconcile.py", str(data_dir / "statements"), str(data_dir / "ledger.csv"),
                             str(data_dir / "rates.csv"), str(out)])
        return Outputs(out), Outputs(ref_out)


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    harness = Harness()

    sample = harness.root / "sample"
    write_dataset(sample, make_dataset(random.Random(SAMPLE_SEED), frozenset(KNOBS)))
    readable(sample)
    public_actual, public_expected = harness.run("public", sample)
    card.binary("public_runs", 0.5, public_actual.summary is not None and public_actual.matches_text is not None
                and public_actual.unmatched_text is not None, visibility="public",
                detail="reconcile.py writes matches.csv, unmatched.csv and summary.json for the public sample")
    card.binary("public_sample", 1, files_exact(public_actual, public_expected) and counts_right(public_actual, public_expected),
                visibility="public", detail="the public sample (/app/sample) reconciled exactly")

    results = []
    for family, knobs in FAMILIES.items():
        cases = []
        for index in range(PER_FAMILY):
            data_dir = harness.root / f"{family}-{index}"
            write_dataset(data_dir, make_dataset(stress.rng(seed, "recon", family, index), knobs))
            readable(data_dir)
            actual, expected = harness.run(f"{family}-{index}", data_dir)
            results.append((actual, expected))
            cases += line_cases(actual, expected)
        card.fraction(f"hidden_{family}", 1, cases, detail=f"{family}: statement lines and ledger entries classified right")

    card.fraction("hidden_summary_counts", 1.5, [counts_right(a, e) for a, e in results], detail="summary counts exact")
    totals = [s for a, e in results for s in total_scores(a, e)]
    card.add("hidden_summary_totals", 1.5, sum(totals) / len(totals), kind="continuous",
             detail="account nets and unmatched_ledger_usd within 0.005 (0 at 2% of the value), fx_difference to the cent")
    card.fraction("hidden_files_exact", 1, [files_exact(a, e) for a, e in results],
                  detail="matches.csv and unmatched.csv byte-identical (sorted, formatted per spec)")
    card.write()


if __name__ == "__main__":
    main()
