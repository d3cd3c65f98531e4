# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of inhouse-lib-migration: the migrated invctl (on ledgerlib 2) must behave exactly like the original
invctl on ledgerlib 1.

Scenarios (command sequences) are generated here from a seed (scenarios.py). Expected outputs come from the
ORIGINAL invctl running on ledgerlib 1, both kept only in tests/ref and run in this process; the agent's
/app/invctl runs as `python3 -m invctl` through AgentRunner (unprivileged, ledgerlib 2 from the clean image).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from contextlib import redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "ref"))  # ledgerlib 1 + original invctl shadow the installed ledgerlib 2

from invctl.cli import run_command as reference_command  # noqa: E402
from scenarios import FAMILIES, scenario  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import SANDBOX_GID, SANDBOX_UID, AgentRunner, sandboxed, work_dir, writable_dir  # noqa: E402

SEED = 61723
APP_DIR = "/app"
PER_FAMILY = 3
WEIGHTS = {"basic": 1.5, "rounding": 1.5, "credit": 1.5, "dates": 1.5, "input_errors": 1.5, "currencies": 1.0, "mixed": 1.5}
EXIT = re.compile(r"exit status (-?\d+)")


def reference(argv: list[str]) -> tuple[int, str]:
    """(exit code, stdout) of the original invctl on ledgerlib 1."""
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        code, text = reference_command(argv)
        print(text)
    return code, buffer.getvalue()


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
    def __init__(self) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=20.0, max_timeouts=3)
        self.root = work_dir("invctl-")
        self.count = 0

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

    def agent(self, argv: list[str]) -> tuple[int | None, str]:
        run = self.runner.run([sys.executable, "-m", "invctl", *argv])
        match = EXIT.search(run.note)
        return (int(match[1]) if match else None), run.stdout

    def compare_batch(self, ref_dir: Path, agent_dir: Path, batch: Path) -> tuple[bool, list[bool]]:
        _, expected = reference(["--data", str(ref_dir), "batch", str(batch)])
        code, actual = self.agent(["--data", str(agent_dir), "batch", str(batch)])
        exp_blocks, act_blocks = blocks(expected), blocks(actual)
        per_command = [i < len(act_blocks) and act_blocks[i] == b for i, b in enumerate(exp_blocks)]
        return (code == 0 and actual == expected), per_command


def public_examples(harness: Harness) -> list[bool]:
    results = []
    for cmds in sorted(Path(APP_DIR, "examples").glob("*.cmds")):
        expected_path = cmds.with_suffix(".out")
        if not expected_path.is_file():
            continue
        _, agent_dir = harness.fresh("public")
        # A copy under a header of its own: the program must run the commands, not recognise the file.
        copy = harness.batch_file("public", [f"# public example {cmds.stem}", *cmds.read_text(encoding="utf-8").splitlines()])
        code, actual = harness.agent(["--data", str(agent_dir), "batch", str(copy)])
        results.append(code == 0 and actual == expected_path.read_text(encoding="utf-8"))
    return results


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    harness = Harness()

    ref_dir, agent_dir = harness.fresh("init")
    expected = reference(["--data", str(ref_dir), "init", "--currency", "EUR", "--tax-rate", "7"])
    runs = harness.agent(["--data", str(agent_dir), "init", "--currency", "EUR", "--tax-rate", "7"]) == expected
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
        harness.agent(["--data", str(agent_dir), "batch", str(setup)])
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
        for argv in probes:
            expected = reference(["--data", str(ref_dir), *argv])
            singles.append(harness.agent(["--data", str(agent_dir), *argv]) == expected)
    card.fraction("hidden_single_commands", 1, singles, detail="single invocations: stdout and exit status")

    card.fraction("hidden_command_outputs", 2, all_commands, detail="per-command output blocks identical, all batches")

    def no_vendored_ledgerlib() -> bool:
        return runs and not any(p.name in ("ledgerlib", "ledgerlib.py") for p in Path(APP_DIR).rglob("ledgerlib*"))

    card.binary("uses_installed_ledgerlib", 0.5, no_vendored_ledgerlib, detail="runs, and no ledgerlib copy in /app")
    card.write()


if __name__ == "__main__":
    main()
