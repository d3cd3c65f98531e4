# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of spec-to-library: the agent's /app/recur is run on ~600 conformance cases generated here from a seed
and compared with the reference implementation (tests/reference_recur.py), family by family."""

from __future__ import annotations

import datetime as dt
import re
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import FAMILY_SIZES, family_cases  # noqa: E402
from reference_recur import run as reference  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, Run, work_dir  # noqa: E402

SEED = 5545
APP_DIR = "/app"
PUBLIC = Path(__file__).resolve().parent / "public"
WEIGHTS = {"basic": 1, "until": 1, "byday": 1.5, "bymonthday": 1.5, "bysetpos": 1.5, "weekly_wkst": 1,
           "exdate": 1, "yearly": 1.5, "invalid": 1}
CHUNK = 4
SINGLES_PER_FAMILY = 6
RUN_CPU_SEC = 10  # soft RLIMIT_CPU per run (SIGXCPU; the hard limit 2 s above): a batch needs a second or two
RUN_WALL_SEC = 60.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 2  # wall-guard timeouts in the whole verification before every later run fails without starting
MAX_CPU_OUTS = 2  # CPU-limit kills per family before its remaining runs fail without starting
AGENT_CPU_BUDGET_SEC = 90.0  # CPU seconds of all runs together; later runs fail without starting
CPU_KILLED = {"exit status -24", "exit status -9"}  # SIGXCPU at the soft limit, SIGKILL at the hard one
CLI_PROBE = ("FREQ=DAILY;COUNT=3", "2024-01-30T09:00:00", "5")
EXIT = re.compile(r"exit status (-?\d+)")


def expected_line(case) -> str:
    code, out = reference(list(case))
    return "error" if code else " ".join(out.split())


class Recur:
    """Runs the agent's program under a CPU-time limit, so a case's outcome is the same on a busy machine: a
    program that loops forever is stopped by its CPU limit, one that is merely slowed by other load is not."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.cpu_outs: dict[str, int] = {}
        self.dir = work_dir("recur-cases-")

    def run(self, group: str, argv: list[str]) -> Run:
        """One run, charged to ``group`` (a family, or the probes): each group has its own allowance of CPU-limit
        kills, so a rule that loops costs only its own family."""
        if self.cpu_outs.get(group, 0) >= MAX_CPU_OUTS:
            return Run(False, "", "not run: the program hit its CPU limit too often in this family")
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            return Run(False, "", f"not run: the program used its {AGENT_CPU_BUDGET_SEC:g} s of CPU time")
        limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
        run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, "-m", "recur", *argv])
        if run.note in CPU_KILLED:
            self.cpu_outs[group] = self.cpu_outs.get(group, 0) + 1
        return run

    def batch(self, name: str, cases) -> list[str] | None:
        path = self.dir / f"{name}.tsv"
        path.write_text("".join("\t".join(c) + "\n" for c in cases), encoding="utf-8")
        path.chmod(0o644)
        run = self.run(name.rsplit("-", 1)[0], ["--batch", str(path)])
        return run.stdout.split("\n")[: len(cases)] if run.ok else None

    def single(self, case, family: str | None = None) -> tuple[int | None, str]:
        run = self.run("probes" if family is None else f"single {family}", list(case))
        match = EXIT.search(run.note)
        return (int(match[1]) if match else None), run.stdout


def score_batch(recur: Recur, name: str, cases, works: bool) -> list[bool]:
    """Cases go in batches of CHUNK lines, so a crash costs its own batch, not the whole family."""
    got: list[str | None] = []
    for first in range(0, len(cases), CHUNK):
        chunk = cases[first:first + CHUNK]
        lines = recur.batch(f"{name}-{first}", chunk) or []
        got += lines + [None] * (len(chunk) - len(lines))
    expected = [expected_line(c) for c in cases]
    ok = [g is not None and g.strip() == e for g, e in zip(got, expected)]
    return without_free_credit(ok, [e not in ("", "error") for e in expected], works)


def without_free_credit(ok: list[bool], substantive: list[bool], works: bool) -> list[bool]:
    """Cases whose right answer is nothing (no occurrences, or an error) only count when the program passes the
    basic CLI checks (the public probe and the seeded probes): printing nothing earns nothing."""
    return ok if works else [o and s for o, s in zip(ok, substantive)]


def probe_cases(seed: int) -> list[tuple[str, str, str]]:
    """A plain daily and a plain monthly rule with an interval and a count, drawn from the verify seed."""
    out = []
    for i in range(2):
        rng = stress.rng(seed, "recur", "probe", i)
        start = dt.datetime(2019 + int(rng.random() * 11), 1 + int(rng.random() * 12), 1 + int(rng.random() * 28),
                            int(rng.random() * 24), stress.pick(rng, [0, 15, 30, 45]))
        rule = f"FREQ={('DAILY', 'MONTHLY')[i]};INTERVAL={2 + int(rng.random() * 3)};COUNT={3 + int(rng.random() * 4)}"
        out.append((rule, start.strftime("%Y-%m-%dT%H:%M:%S"), "10"))
    return out


def public_cases() -> list[tuple[str, ...]]:
    """The public examples from the verifier's own copy (tests/public/cases.tsv = environment/app/examples/cases.tsv):
    the files in /app/examples may have been edited."""
    lines = (PUBLIC / "cases.tsv").read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line]


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    recur = Recur()

    runs = recur.single(CLI_PROBE) == (0, reference(list(CLI_PROBE))[1])
    card.binary("cli_runs", 0.5, runs, visibility="public", detail="python3 -m recur RULE START N prints occurrences")
    # Empty and error answers only earn credit from a program that also expands seeded plain rules: a program
    # that recognises the public probe and prints nothing else must not collect them.
    works = runs and all(recur.single(case) == (0, reference(list(case))[1]) for case in probe_cases(seed))
    pub = public_cases()
    card.fraction("public_examples", 1, lambda: score_batch(recur, "public", pub, works),
                  visibility="public", detail="the shipped examples/cases.tsv (batch mode)")

    for family, weight in WEIGHTS.items():
        cases = family_cases(seed, family)
        card.fraction(f"hidden_{family}", weight, score_batch(recur, family, cases, works), detail=f"{family} conformance cases")

    singles, substantive = [], []
    for family in FAMILY_SIZES:
        for case in family_cases(seed + 1, family, SINGLES_PER_FAMILY):
            code, out = reference(list(case))
            singles.append(recur.single(case, family) == (code, out))
            substantive.append(code == 0 and out != "")
    card.fraction("hidden_cli_singles", 1, without_free_credit(singles, substantive, works),
                  detail="single invocations: stdout and exit status")
    card.write()


if __name__ == "__main__":
    main()
