# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of inhouse-lib-migration: the migrated invctl (on ledgerlib 2) must behave exactly like the original
invctl on ledgerlib 1.

Scenarios (command sequences) are generated here from a seed (scenarios.py). Expected outputs come from the
ORIGINAL invctl running on ledgerlib 1, both kept only in tests/ref and run in this process; the agent's
/app/invctl runs as `python3 -m invctl` through AgentRunner (unprivileged).

The installed ledgerlib 2 is replaced by the verifier's own build (tests/ledgerlib2: the same code, but every
journal it saves carries a per-seed build mark). A data directory counts only when its journal.json was saved by
that build and holds the original's balances, so a program that keeps its books with any copy of ledgerlib 1 (or
its own journal code) cannot pass, whatever the copy is called.

Grading does not depend on the machine's load: the program gets a CPU-time limit and a wall-clock limit far
above what a batch needs, data directories live in memory (/dev/shm), imports are precompiled, and a run killed
from outside (SIGKILL without a timeout) is repeated once from the same starting state.
"""

from __future__ import annotations

import compileall
import functools
import io
import json
import os
import py_compile
import re
import resource
import shutil
import stat
import sys
import tempfile
from contextlib import redirect_stdout
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "ref"))  # ledgerlib 1 + original invctl shadow the installed ledgerlib 2

import invctl.cli as reference_cli  # noqa: E402
from scenarios import FAMILIES, scenario  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import (  # noqa: E402
    SANDBOX_GID,
    SANDBOX_UID,
    AgentRunner,
    read_regular_bytes,
    read_regular_file,
    sandboxed,
    writable_dir,
)

# The original parses every command with a freshly built argparse tree; the tree is stateless, so one is reused.
reference_cli.build_parser = functools.cache(reference_cli.build_parser)

SEED = 61723
APP_DIR = "/app"
LEDGERLIB_DIR = Path("/usr/local/lib/python3.11/dist-packages/ledgerlib")
MEMORY_DIR = Path("/dev/shm")
PER_FAMILY = 12
RUN_WALL_SEC = 90.0  # a batch needs a few CPU seconds at most; only a hung program gets near this
RUN_CPU_SEC = 30  # soft RLIMIT_CPU per run (SIGXCPU), the hard limit 10 s above it
AGENT_CPU_BUDGET_SEC = 240.0  # CPU seconds of all runs together; later runs fail without starting
MAX_RETRIES = 12  # runs killed from outside that are repeated, per verification (at most 3 times each)
WEIGHTS = {"basic": 1.5, "rounding": 1.5, "credit": 1.5, "dates": 1.5, "input_errors": 1.5, "currencies": 1.0, "mixed": 1.5}
EXIT = re.compile(r"exit status (-?\d+)")


def reference(argv: list[str]) -> tuple[int, str]:
    """(exit code, stdout) of the original invctl on ledgerlib 1."""
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        code, text = reference_cli.run_command(argv)
        print(text)
    return code, buffer.getvalue()


def install_ledgerlib_build(seed: int) -> str:
    """Put the verifier's build of ledgerlib 2 in place of the installed one; return its build mark."""
    rng = stress.rng(seed, "ledgerlib-build")
    mark = "".join("0123456789abcdef"[int(rng.random() * 16)] for _ in range(20))
    shutil.rmtree(LEDGERLIB_DIR, ignore_errors=True)
    LEDGERLIB_DIR.mkdir(mode=0o755, parents=True)
    for source in sorted((HERE / "ledgerlib2").glob("*.py")):
        target = LEDGERLIB_DIR / source.name
        target.write_text(source.read_text(encoding="utf-8").replace("@BUILD@", mark), encoding="utf-8")
        target.chmod(0o644)
    compileall.compile_dir(str(LEDGERLIB_DIR), quiet=2)
    return mark


def precompile(path: str) -> None:
    """Bytecode for the program's modules (the sandboxed runs may not write __pycache__ themselves). Only regular
    .py files are compiled; links, FIFOs and devices are never opened."""
    for root, dirs, files in os.walk(path):
        dirs[:] = [name for name in dirs if name != "__pycache__" and not os.path.islink(os.path.join(root, name))]
        for name in files:
            source = os.path.join(root, name)
            info = os.lstat(source)
            if not name.endswith(".py") or not stat.S_ISREG(info.st_mode) or info.st_size > 4 << 20:
                continue
            try:
                target = py_compile.compile(source, doraise=True)
            except (py_compile.PyCompileError, OSError, ValueError):
                continue
            os.chmod(os.path.dirname(target), 0o755)
            os.chmod(target, 0o644)


def to_cents(value: float) -> int:
    return int(Decimal(repr(float(value))).scaleb(2).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def reference_balances(ref_dir: Path) -> dict[str, int]:
    """Per-account balance in cents of the original's (ledgerlib 1) journal; zero balances left out."""
    data = json.loads((ref_dir / "journal.json").read_text(encoding="utf-8"))
    totals: dict[str, int] = {}
    for entry in data["entries"]:
        for account, debit, credit in entry["lines"]:
            totals[account] = totals.get(account, 0) + to_cents(debit) - to_cents(credit)
    return {account: cents for account, cents in totals.items() if cents}


def journal_kept(ref_dir: Path, agent_dir: Path, mark: str) -> bool:
    """The agent's journal.json was saved by the verifier's ledgerlib 2 build and has the original's balances."""
    text = read_regular_file(agent_dir / "journal.json", limit=32 << 20)
    try:
        data = json.loads(text) if text is not None else None
        if not isinstance(data, dict) or data.get("version") != 2 or data.get("build") != mark:
            return False
        totals: dict[str, int] = {}
        for entry in data["entries"]:
            for account, cents in entry["splits"]:
                if not isinstance(account, str) or isinstance(cents, bool) or not isinstance(cents, int):
                    return False
                totals[account] = totals.get(account, 0) + cents
    except (ValueError, TypeError, KeyError):
        return False
    return {account: cents for account, cents in totals.items() if cents} == reference_balances(ref_dir)


def copy_plain(source: Path, target: Path, budget: int = 64 << 20) -> None:
    """Copy the directories and regular files of ``source`` (links, FIFOs and devices are left out)."""
    target.mkdir(mode=0o755)
    for entry in os.scandir(source):
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            copy_plain(path, target / entry.name, budget)
        elif entry.is_file(follow_symlinks=False):
            data = read_regular_bytes(path, budget)
            if data is not None:
                (target / entry.name).write_bytes(data)


def memory_root() -> Path:
    """A fresh directory for data directories and batch files, in memory when the container has /dev/shm."""
    parent = MEMORY_DIR if MEMORY_DIR.is_dir() and os.access(MEMORY_DIR, os.W_OK) else None
    path = Path(tempfile.mkdtemp(prefix="invctl-", dir=parent))
    path.chmod(0o755)
    return path


def blocks(output: str) -> list[str]:
    """The output of a batch split per command (each block starts with its '> ' line)."""
    parts: list[list[str]] = []
    for line in output.splitlines():
        if line.startswith("> ") or not parts:
            parts.append([])
        parts[-1].append(line)
    return ["\n".join(p) for p in parts]


def chown_tree(path: Path) -> None:
    if not sandboxed():
        return
    for root, dirs, files in os.walk(path):
        os.chown(root, SANDBOX_UID, SANDBOX_GID)
        for name in dirs + files:
            os.chown(os.path.join(root, name), SANDBOX_UID, SANDBOX_GID)


class Harness:
    def __init__(self, mark: str) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=2)
        self.root = memory_root()
        self.mark = mark
        self.count = 0
        self.retries = 0
        self.kept: list[bool] = []  # per data directory: journal saved by the installed ledgerlib 2

    def warm_up(self) -> None:
        """One ungraded run first, so the first graded one does not pay for a cold page cache."""
        warm_up = ["--data", str(self.root / "warm-up"), "customer", "list"]
        AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC).run(self.command(warm_up))

    def journal(self, ref_dir: Path, agent_dir: Path) -> bool:
        kept = journal_kept(ref_dir, agent_dir, self.mark)
        self.kept.append(kept)
        return kept

    def fresh(self, label: str) -> tuple[Path, Path]:
        self.count += 1
        ref_dir = self.root / f"{self.count:03d}-{label}-ref"
        agent_dir = writable_dir(self.root / f"{self.count:03d}-{label}-agent")
        return ref_dir, agent_dir

    def batch_file(self, label: str, lines: list[str]) -> Path:
        self.count += 1
        path = self.root / f"{self.count:03d}-{label}.cmds"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        path.chmod(0o644)
        return path

    @staticmethod
    def command(argv: list[str]) -> list[str]:
        cpu = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 10}"
        return ["/usr/bin/prlimit", cpu, "--", sys.executable, "-m", "invctl", *argv]

    def agent(self, argv: list[str], data_dir: Path | None = None) -> tuple[int | None, str]:
        """(exit status, stdout) of the migrated invctl; None when it timed out or was not run.

        A run killed by SIGKILL that did not time out was killed from outside (another verifier's clean-up, the
        OOM killer): it is run again (up to 3 times) from a copy of ``data_dir`` as it was before."""
        backup = None
        if data_dir is not None and self.retries < MAX_RETRIES:
            backup = self.root / "retry-backup"
            shutil.rmtree(backup, ignore_errors=True)
            copy_plain(data_dir, backup)
        for attempt in range(4):
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
                return None, ""
            run = self.runner.run(self.command(argv))
            match = EXIT.search(run.note)
            code = int(match[1]) if match else None
            if code != -9 or backup is None or self.retries >= MAX_RETRIES or attempt == 3:
                return code, run.stdout
            self.retries += 1
            shutil.rmtree(data_dir)
            copy_plain(backup, data_dir)
            chown_tree(data_dir)
        raise AssertionError("unreachable")

    def compare_batch(self, ref_dir: Path, agent_dir: Path, batch: Path) -> tuple[bool, list[bool]]:
        """Whole batch identical, and per command; both count only when the journal is ledgerlib 2's."""
        _, expected = reference(["--data", str(ref_dir), "batch", str(batch)])
        code, actual = self.agent(["--data", str(agent_dir), "batch", str(batch)], agent_dir)
        kept = self.journal(ref_dir, agent_dir)
        exp_blocks, act_blocks = blocks(expected), blocks(actual)
        per_command = [kept and i < len(act_blocks) and act_blocks[i] == b for i, b in enumerate(exp_blocks)]
        return (kept and code == 0 and actual == expected), per_command


def public_examples(harness: Harness) -> list[bool]:
    results = []
    for cmds in sorted(Path(APP_DIR, "examples").glob("*.cmds")):
        expected_path = cmds.with_suffix(".out")
        if not expected_path.is_file():
            continue
        _, agent_dir = harness.fresh("public")
        # A copy under a header of its own: the program must run the commands, not recognise the file.
        copy = harness.batch_file("public", [f"# public example {cmds.stem}", *cmds.read_text(encoding="utf-8").splitlines()])
        code, actual = harness.agent(["--data", str(agent_dir), "batch", str(copy)], agent_dir)
        results.append(code == 0 and actual == expected_path.read_text(encoding="utf-8"))
    return results


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    harness = Harness(install_ledgerlib_build(seed))
    precompile(APP_DIR)
    harness.warm_up()

    ref_dir, agent_dir = harness.fresh("init")
    expected = reference(["--data", str(ref_dir), "init", "--currency", "EUR", "--tax-rate", "7"])
    init = ["--data", str(agent_dir), "init", "--currency", "EUR", "--tax-rate", "7"]
    runs = harness.agent(init, agent_dir) == expected
    card.binary("cli_runs", 0.5, runs, visibility="public", detail="python3 -m invctl init works")
    card.fraction("public_examples", 1, lambda: public_examples(harness), visibility="public",
                  detail="/app/examples/*.cmds reproduce their .out files")

    all_commands: list[bool] = []
    for family, weight in WEIGHTS.items():
        exact = []
        for index in range(PER_FAMILY):
            lines = scenario(seed, family, index)
            ref_dir, agent_dir = harness.fresh(family)
            ok, per_command = harness.compare_batch(ref_dir, agent_dir, harness.batch_file(family, lines))
            exact.append(ok)
            all_commands += per_command
        card.fraction(f"hidden_{family}", weight, exact, detail=f"{family} scenarios with identical output")

    # Data directories written by the original invctl on ledgerlib 1 must keep working.
    legacy = []
    for index in range(PER_FAMILY):
        lines = scenario(seed, "mixed", 100 + index, steps=12)
        cut = len(lines) // 2
        ref_dir, agent_dir = harness.fresh("legacy")
        reference(["--data", str(ref_dir), "batch", str(harness.batch_file("legacy-a", lines[:cut]))])
        shutil.rmtree(agent_dir)
        shutil.copytree(ref_dir, agent_dir)
        chown_tree(agent_dir)
        ok, per_command = harness.compare_batch(ref_dir, agent_dir, harness.batch_file("legacy-b", lines[cut:]))
        legacy.append(ok)
        all_commands += per_command
    card.fraction("hidden_legacy_data", 2, legacy, detail="continuing data directories written by invctl on ledgerlib 1")

    # Single invocations: stdout and exit status, including failing commands.
    singles = []
    for index in range(PER_FAMILY):
        lines = scenario(seed, "mixed", 200 + index, steps=6)
        ref_dir, agent_dir = harness.fresh("single")
        setup = harness.batch_file("single", lines)
        reference(["--data", str(ref_dir), "batch", str(setup)])
        harness.agent(["--data", str(agent_dir), "batch", str(setup)], agent_dir)
        rng = stress.rng(seed, "single", index)
        probes = [
            ["report", "balances"],
            ["item", "price", "NOPE", "1"],
            ["pay", "C1", stress.pick(rng, ["abc", "12.345", "$1,000.50", "-4"]), "--date", stress.pick(rng, ["2024-05-01", "01/05/2024", "2024-02-30"])],
            ["invoice", "show", "INV-0001"],
            ["report", "aging", "--as-of", stress.pick(rng, ["2025-06-30", "30/06/2025"])],
            ["invoice", "plan", "INV-0002", str(2 + int(rng.random() * 5))],
            ["customer", "list"],
            ["frobnicate"],
        ]
        matched = []
        for argv in probes:
            expected = reference(["--data", str(ref_dir), *argv])
            matched.append(harness.agent(["--data", str(agent_dir), *argv], agent_dir) == expected)
        kept = harness.journal(ref_dir, agent_dir)
        singles += [kept and ok for ok in matched]
    card.fraction("hidden_single_commands", 1, singles, detail="single invocations: stdout and exit status")

    card.fraction("hidden_command_outputs", 2, all_commands, detail="per-command output blocks identical, all batches")

    card.fraction("journal_kept_by_ledgerlib2", 0.5, harness.kept,
                  detail="data directories whose journal the installed ledgerlib 2 saved, with the original's balances")
    card.write()


if __name__ == "__main__":
    main()
