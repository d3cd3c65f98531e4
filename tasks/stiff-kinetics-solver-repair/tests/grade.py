# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of stiff-kinetics-solver-repair: run ``/app/kinetics/cli.py MECH.yaml CONDITIONS.json`` on
mechanisms generated here from the verifier's seed and compare with a tight-tolerance LSODA reference (a case is drawn
again where an independent BDF integration disagrees with it, or scipy's Radau or BDF at the case's own tolerances
does not get it right).

Families: first-order chains, Robertson-like stiff systems, reversible second-order reactions with Arrhenius
rates in other energy units, networks written in other concentration/time units, stiff mass-conserving
networks and large stiff networks. Equations are spelled with coefficients "2 A", "2A" or repeated species.
Two thirds of each family's sample are cases that need the subtler spellings and conventions (a late
first output time, repeated species, rate constants of order != 1 in other units, kcal/mol), so the score of
a partial repair does not swing with the seed.

Accuracy of a case: e = max over species and times of |c - c_ref| / (1e-3 |c_ref| + 1e-6 C0) (C0 = the sum of
the initial concentrations); e <= 1 scores 1, falling log-linearly to 0 at e = 100.
Conservation: every generated reaction conserves a per-species mass; the mass total must stay within 1e-6
(relative) of its initial value, in a trajectory that is roughly right (e <= 10).
Efficiency: ``kinetics.solver.integrate`` is called on stiff cases with a model whose f and J are evaluated
here, in the verifier's process, over a socket; the evaluations counted here, relative to what scipy's Radau
needs at the case's rtol/atol (geometric mean, every case roughly right), scaled by the share of the stiff
families' CLI cases within the accuracy tolerance (only a working package earns it).

Every program of the agent runs under tests/launch.py, whose audit hook refuses scipy.integrate by any route;
scipy's integrate package is also made unreadable to the sandbox user before anything of the agent's runs.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import re
import resource
import shutil
import socket
import struct
import sys
import threading
from pathlib import Path

import numpy as np
from mechgen import PUBLIC_CASES, PUBLIC_SEED, make_case, write_case
from reference import at_case_tolerance, counted_system, radau_work, reference, second_opinion

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, sandboxed, work_dir

SEED = 606217
APP_DIR = "/app"
CLI = "/app/kinetics/cli.py"
LAUNCHER = Path(__file__).resolve().with_name("launch.py")
FAMILIES = ["chain", "robertson", "reversible", "units", "stiff_network", "large_network"]
PER_FAMILY = 6  # two thirds of them need the subtler conventions (see tricky)
STIFF = ["robertson", "stiff_network", "large_network"]
EFFICIENCY_PER_FAMILY = 3  # the first cases of every stiff family, integrated through the counting server
RUN_CPU_SEC = 30  # CPU seconds per CLI run (prlimit; the instruction promises 30 s per case): load costs nothing
SOLVE_CPU_SEC = 60  # CPU seconds of the agent's process for the counted integrate() run
RUN_WALL_SEC = 120.0  # wall-clock guards, only against programs that wait instead of compute: CPU time decides
SOLVE_WALL_SEC = 300.0  # the counted run also waits on this verifier's model server, which load slows down
MAX_WALL_OUTS = 2  # wall-guard timeouts before every later run fails without starting
AGENT_CPU_BUDGET_SEC = 150.0  # CPU seconds of all of the agent's runs together; later runs fail unstarted
WORK_CAP = 60  # a counted case that needs more than this many times Radau's evaluations is abandoned
ROUGHLY_RIGHT = 10.0


def tricky(case: dict) -> bool:
    """Whether the case needs more than the plain spelling and conventions."""
    mech, cond = case["mechanism"], case["conditions"]
    if cond["times"][0] > 0:
        return True
    for item, exact in zip(mech["reactions"], case["exact"]):
        for side_text in item["equation"].replace("<=>", "->").split("->"):
            names = [t.strip() for t in side_text.split("+")]
            if len(names) != len(set(names)):
                return True
        orders = [sum(exact["reactants"].values())] + ([sum(exact["products"].values())] if exact["reverse"] else [])
        if mech["units"]["concentration"] != "mol/L" and any(o != 1 for o in orders):
            return True
        energies = [item["rate"].get("Ea", 0.0)] + ([item["reverse"].get("Ea", 0.0)] if "reverse" in item else [])
        if mech["units"]["energy"] == "kcal/mol" and any(energies):
            return True
    return False


def basic(case: dict) -> bool:
    """Whether the case needs at least the basic repairs: the output unit or a coefficient written as "2A"."""
    if case["conditions"]["units"]["concentration"] != "mol/L":
        return True
    return any(re.search(r"(^|[ +])\d+[A-Za-z]", item["equation"]) for item in case["mechanism"]["reactions"])


AGREEMENT = 0.01  # the two references must agree to a hundredth of the grading tolerance (error_of's scale)


def solvable(case: dict) -> bool:
    """Whether the case is a fair test: the reference integrates it (stored as ``_ref``), an independent tight
    method agrees, and scipy's Radau and BDF at the case's own tolerances get it right. About one seed in twenty
    drew a case no reference integrator resolves, about one in four a case two tight integrators answer
    differently, and some seeds a case the integrators agree on but that no solver meeting the asked tolerance
    step by step gets right (the gold solver scored 0.82-0.97 on such seeds)."""
    try:
        case["_ref"] = reference(case)
    except RuntimeError:
        return False
    check = second_opinion(case)
    if check is None or error_of(case, check) > AGREEMENT:
        return False
    return all(states is not None and error_of(case, states) <= 1.0 for states in at_case_tolerance(case))


def select_cases(seed: int, family: str, n: int) -> list[dict]:
    """n cases of a family from the seeded stream, each one the reference integrates: every third one plain (but
    needing the basic repairs), the others tricky."""
    n_plain = n // 3
    pools: dict[bool, list[dict]] = {True: [], False: []}
    index = 0
    while (len(pools[True]) < n - n_plain or len(pools[False]) < n_plain) and index < 400:
        case = make_case(family, stress.rng(seed, family, index))
        index += 1
        kind = True if tricky(case) else False if basic(case) else None
        if kind is not None and solvable(case):
            pools[kind].append(case)
    picked = []
    for k in range(n):
        want = k % 3 != 1
        pool = pools[want] if pools[want] else pools[not want]
        picked.append(pool.pop(0))
    return picked


def error_of(case: dict, got: np.ndarray) -> float:
    ref = case["_ref"]
    if got.shape != ref.shape or not np.all(np.isfinite(got)):
        return math.inf
    c0 = sum(case["conditions"]["initial"].values())
    return float(np.max(np.abs(got - ref) / (1e-3 * np.abs(ref) + 1e-6 * c0)))


def evaluate(case: dict, actual: object) -> dict:
    species = case["mechanism"]["species"]
    cond = case["conditions"]
    out = {"e": math.inf, "conserved": False}
    if not isinstance(actual, dict) or not isinstance(actual.get("concentrations"), dict):
        return out
    try:
        got = np.array([[float(v) for v in actual["concentrations"][s]] for s in species], dtype=float).T
    except (KeyError, TypeError, ValueError):
        return out
    out["e"] = error_of(case, got)
    if not math.isfinite(out["e"]):
        return out
    masses = np.array(case["masses"], dtype=float)
    total0 = sum(cond["initial"].get(s, 0.0) * m for s, m in zip(species, masses))
    # conservation only counts for a trajectory that is roughly right
    out["conserved"] = bool(out["e"] <= ROUGHLY_RIGHT and np.max(np.abs(got @ masses - total0)) <= 1e-6 * total0)
    return out


def accuracy_score(e: float) -> float:
    if not math.isfinite(e):
        return 0.0
    x = math.log10(max(e, 1e-12))
    if x <= 0:
        return 1.0
    return max(0.0, 1.0 - x / 2.0)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def lock_library_integrator() -> str:
    """scipy's integrate package: unreadable to the sandbox user from now on (the verifier keeps it)."""
    spec = importlib.util.find_spec("scipy.integrate")
    path = os.path.realpath(list(spec.submodule_search_locations)[0])
    if sandboxed():
        os.chown(path, 0, 0)
        os.chmod(path, 0o700)
    return path


class Runner:
    """Runs the agent's programs under CPU-time limits: a busy machine slows a run down but does not change
    whether it finishes, so the grade is the same under load."""

    def __init__(self, integrate_dir: str) -> None:
        self.runner = AgentRunner(APP_DIR, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.work_dir = work_dir("kinetics-")
        self.launcher = self.work_dir / "launch.py"
        shutil.copyfile(LAUNCHER, self.launcher)
        self.launcher.chmod(0o644)
        self.integrate_dir = integrate_dir
        self.cpu = 0.0

    def _run(self, argv: list[str], cpu_sec: int, wall_sec: float):
        if self.cpu >= AGENT_CPU_BUDGET_SEC:
            return None
        self.runner.timeout_sec = wall_sec
        cpu0 = _children_cpu()
        limit = f"--cpu={cpu_sec}:{cpu_sec + 2}"
        try:
            return self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, "-I", str(self.launcher),
                                    self.integrate_dir, *argv])
        finally:
            self.cpu += _children_cpu() - cpu0

    def cli(self, stem: str, case: dict) -> dict:
        mech, cond = write_case(case, self.work_dir, stem)
        run = self._run(["cli", CLI, str(mech), str(cond)], RUN_CPU_SEC, RUN_WALL_SEC)
        actual = None
        if run is not None and run.ok:
            try:
                actual = json.loads(run.stdout)
            except ValueError:
                actual = None
        return evaluate(case, actual)

    def solve(self, cases: list[dict], yardsticks: list[int]) -> list[dict]:
        """Run the agent's integrate on every case with f and J served (and counted) here."""
        systems = [counted_system(case) for case in cases]
        server = CountingServer(self.work_dir / "model.sock", systems, [WORK_CAP * y for y in yardsticks])
        spec = [{"n": len(y0), "y0": [float(v) for v in y0], "t_out": [float(t) for t in grid],
                 "rtol": float(case["conditions"]["rtol"]),
                 "atol": float(case["conditions"]["atol"]) * ccf}
                for case, (_f, _j, y0, grid, ccf, _late) in zip(cases, systems)]
        spec_path = self.work_dir / "solve-cases.json"
        spec_path.write_text(json.dumps(spec))
        spec_path.chmod(0o644)
        server.start()
        try:
            self._run(["solve", str(server.path), str(spec_path)], SOLVE_CPU_SEC, SOLVE_WALL_SEC)
        finally:
            server.stop()
        out = []
        for i, (case, (_f, _j, _y0, _grid, ccf, late)) in enumerate(zip(cases, systems)):
            states = server.results[i]
            e = math.inf
            if states is not None:
                e = error_of(case, (states[1:] if late else states) / ccf)
            out.append({"e": e, "work": server.counts[i], "capped": server.counts[i] > server.caps[i]})
        return out


class CountingServer:
    """Serves f(t, c) and J(t, c) of each case over a Unix socket and counts every evaluation."""

    HEADER = struct.Struct("<cId")

    def __init__(self, path: Path, systems: list, caps: list[int]) -> None:
        self.path = path
        self.systems = systems
        self.caps = caps
        self.abandoned = False
        self.counts = [0] * len(systems)
        self.results: list[np.ndarray | None] = [None] * len(systems)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        os.chmod(path, 0o777)
        self.sock.listen(4)
        self.sock.settimeout(0.2)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5.0)
        self.sock.close()

    def _serve(self) -> None:
        while not self.stopping.is_set() and not self.abandoned:
            try:
                conn, _addr = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            with conn:
                conn.settimeout(1.0)
                try:
                    self._handle(conn)
                except (OSError, ValueError):
                    pass

    def _recv(self, conn, size: int) -> bytes | None:
        chunks, got = [], 0
        while got < size:
            try:
                chunk = conn.recv(min(1 << 20, size - got))
            except socket.timeout:
                if self.stopping.is_set():
                    return None
                continue
            if not chunk:
                return None
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def _handle(self, conn) -> None:
        while True:
            header = self._recv(conn, self.HEADER.size)
            if header is None:
                return
            op, index, t = self.HEADER.unpack(header)
            if index >= len(self.systems) or not math.isfinite(t):
                return
            f, jac, y0, grid, _ccf, _late = self.systems[index]
            n = len(y0)
            if op in (b"f", b"j"):
                data = self._recv(conn, 8 * n)
                if data is None:
                    return
                self.counts[index] += 1
                if self.counts[index] > self.caps[index]:
                    self.abandoned = True  # no further case is served either
                    return
                c = np.frombuffer(data, dtype=np.float64)
                if not np.all(np.isfinite(c)):
                    return
                with np.errstate(all="ignore"):
                    value = f(t, c) if op == b"f" else jac(t, c)
                conn.sendall(np.ascontiguousarray(value, dtype=np.float64).tobytes())
            elif op == b"r":
                data = self._recv(conn, 8 * n * len(grid))
                if data is None:
                    return
                if self.results[index] is None:
                    self.results[index] = np.frombuffer(data, dtype=np.float64).reshape(len(grid), n).copy()
            elif op != b"x":
                return


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed

    cases = {family: select_cases(seed, family, PER_FAMILY) for family in FAMILIES}  # references included
    public_cases = []
    for index, (family, units_mode, style) in enumerate(PUBLIC_CASES):
        case = make_case(family, random.Random(PUBLIC_SEED + index), units_mode=units_mode, style=style)
        case["_ref"] = reference(case)
        public_cases.append(case)

    runner = Runner(lock_library_integrator())
    # the counted runs come first, before any hidden mechanism has been written where the agent's code can read it
    efficiency_cases = [case for family in STIFF for case in cases[family][:EFFICIENCY_PER_FAMILY]]
    yardsticks = [radau_work(case) for case in efficiency_cases]
    efficiency = runner.solve(efficiency_cases, yardsticks)

    public = [runner.cli(f"public-{index}", case) for index, case in enumerate(public_cases)]
    card.binary("public_runs", 0.5, all(math.isfinite(r["e"]) for r in public), visibility="public",
                detail="cli.py prints complete trajectories for the /app/examples cases")
    card.fraction("public_examples", 1, [r["e"] <= 1.0 for r in public], visibility="public",
                  detail="/app/examples cases within the accuracy tolerance")

    results: dict[str, list[dict]] = {}
    for family in FAMILIES:
        results[family] = [runner.cli(f"{family}-{i}", case) for i, case in enumerate(cases[family])]
        scores = [accuracy_score(r["e"]) for r in results[family]]
        worst = max(r["e"] for r in results[family])
        card.add(f"hidden_{family}", 2, sum(scores) / len(scores), kind="continuous",
                 detail=f"mean accuracy score over {len(scores)} cases; worst e={worst:.3g}")

    everything = [r for family in FAMILIES for r in results[family]]
    card.fraction("hidden_conservation", 2, [r["conserved"] for r in everything],
                  detail=f"mass totals conserved to 1e-6 at every output time (cases with e <= {ROUGHLY_RIGHT:g})")

    right = [r for r in efficiency if r["e"] <= ROUGHLY_RIGHT]
    if any(r["capped"] for r in efficiency):
        card.add("hidden_efficiency", 2, 0.0, kind="banded",
                 detail=f"integrate() needed more than {WORK_CAP} times Radau's f and J evaluations on a counted case")
    elif len(right) < len(efficiency):
        worst = max(r["e"] for r in efficiency)
        card.add("hidden_efficiency", 2, 0.0, kind="banded",
                 detail=f"integrate() roughly right (e <= {ROUGHLY_RIGHT:g}) on only {len(right)}/{len(efficiency)} "
                        f"counted stiff cases; worst e={worst:.3g}")
    else:
        logs = [math.log10(max(1, r["work"]) / y) for r, y in zip(efficiency, yardsticks)]
        ratio = 10 ** (sum(logs) / len(logs))
        banded = min(1.0, max(0.0, (25.0 - ratio) / (25.0 - 8.0)))  # 1 up to 8 times Radau's work, 0 from 25
        accurate = [r["e"] <= 1.0 for family in STIFF for r in results[family]]
        share = sum(accurate) / len(accurate)
        card.add("hidden_efficiency", 2, banded * share, kind="banded",
                 detail=f"counted f and J evaluations {ratio:.3g} times scipy Radau's (geometric mean; full credit "
                        f"up to 8, none from 25) x {sum(accurate)}/{len(accurate)} stiff CLI cases accurate")
    card.write()


if __name__ == "__main__":
    main()
