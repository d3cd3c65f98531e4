# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of kv-store-crash-recovery: drive the agent's store (``python3 -m kvstore DIR SCRIPT``) through
seeded workloads, simulated power cuts and damaged logs, and compare everything with a dict model.

Every run is traced at the system-call level (fstrace.py): what reached the files, and when, is replayed on
a disk model that keeps only fsynced data. Each run ends with a power cut (the next run sees only the synced
state), crash points are chosen from the seed among the trace's durability events (anywhere, and inside the
windows of `flush` / `compact` commands located by the acknowledgements on stdout), and the I/O bands come
from the trace and the files, never from the store's own counters. The layout the instruction asks for (a
write-ahead log emptied by flush into segment files, compaction that bounds the space) gates every hidden
check.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import fstrace
from workloads import Model, key_space, randint, random_ops, script, token, writes_in

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import writable_dir

SEED = stress.seed_from_env(5150)
HERE = Path(__file__).resolve().parent
APP = Path("/app")
RUN_TIMEOUT = 20.0
MAX_TIMEOUTS = 3
WRITE_AMP_BANDS = [(1.5, 1.0), (4.0, 0.5), (20.0, 0.0)]
FSYNC_BANDS = [(1.05, 1.0), (2.0, 0.5), (4.0, 0.0)]
SPACE_BANDS = [(1.5, 1.0), (3.0, 0.5), (8.0, 0.0)]
LAYOUT_MAX_SPACE = 3.0  # bytes on disk / live bytes after compact, or the store keeps no real compaction
LAYOUT_MAX_WAL_AFTER_FLUSH = 64
CUTS = 2  # power cuts replayed per traced run
DURABLE_KINDS = {"open", "fsync", "syncall", "rename", "unlink", "mkdir", "truncate_path", "truncate_fd"}


@dataclass
class Session:
    lines: list
    note: str  # "ok", or why the run failed
    start: tuple  # synced state of the data directory before the run
    trace: fstrace.Trace


class Harness:
    def __init__(self) -> None:
        # tmpfs where there is one: real fsyncs cost milliseconds on overlay storage, and durability is judged
        # from the trace, not from the medium
        shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="kv-", dir=shm))
        self.root.chmod(0o755)
        self.count = 0
        self.timeouts = 0
        self.notes: list[str] = []

    def new_dir(self) -> Path:
        self.count += 1
        return writable_dir(self.root / f"data-{self.count}")

    def session(self, data: Path, ops: list) -> Session:
        """One traced run of the store on a script, followed by a power cut: afterwards ``data`` holds only
        what the run had synced."""
        self.count += 1
        path = self.root / f"script-{self.count}.txt"
        path.write_text(script(ops))
        path.chmod(0o644)
        start = fstrace.snapshot(data)
        if self.timeouts >= MAX_TIMEOUTS:
            return Session([], "not run: the store timed out too often", start, fstrace.Trace())
        run = fstrace.run_traced([sys.executable, "-m", "kvstore", str(data), str(path)], str(APP), data,
                                 RUN_TIMEOUT)
        if run.note.startswith("timed out"):
            self.timeouts += 1
        end = len(run.trace.events)
        fstrace.materialize(data, fstrace.states(start, run.trace, [end])[end])
        note = "ok" if run.ok else run.note
        if run.trace.problems:
            note = f"file access the disk model cannot follow ({run.trace.problems[0]})"
        return Session(run.stdout.splitlines(), note, start, run.trace)

    def expect(self, label: str, data: Path, ops: list, model: Model) -> Session | None:
        got = self.session(data, ops)
        want = model.run(ops)
        if got.note != "ok" or got.lines != want:
            self.notes.append(f"{label}: {got.note}; {first_diff(got.lines, want)}")
            return None
        return got


def first_diff(got: list, want: list) -> str:
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return f"line {i + 1}: got {a[:60]!r}, want {b[:60]!r}"
    return f"{len(got)} lines, want {len(want)}"


def prefix_through_write(ops: list, n: int) -> list:
    """ops up to and including the n-th write."""
    if n <= 0:
        return []
    seen = 0
    for i, op in enumerate(ops):
        if op[0] in ("put", "del"):
            seen += 1
            if seen == n:
                return ops[: i + 1]
    return ops


def lines_before(trace: fstrace.Trace) -> list:
    """complete stdout lines printed before each event (and after the last one)."""
    out, printed = [], 0
    for event in trace.events:
        out.append(printed)
        if event[0] == "out":
            printed = trace.stdout[:event[1]].count(b"\n")
    out.append(printed)
    return out


def durable_points(trace: fstrace.Trace, window=None) -> list:
    """events before which a power cut gives a distinct state (in ``window`` = (lo, hi) if given), and the
    end of the run."""
    lo, hi = window or (0, len(trace.events))
    points = [k for k in range(lo, hi) if trace.events[k][0] in DURABLE_KINDS]
    return points + [hi]


def ack_counts(base: dict, ops: list) -> tuple:
    """(stdout lines printed through each op, writes acknowledged through each op)."""
    model, line_ends, write_ends, lines, writes = Model(base), [], [], 0, 0
    for op in ops:
        lines += len(model.run([op]))
        writes += op[0] in ("put", "del")
        line_ends.append(lines)
        write_ends.append(writes)
    return line_ends, write_ends


def check_power_cut(h: Harness, label: str, data: Path, base: dict, ops: list, got: Session, k: int,
                    more: list) -> bool:
    """Power cut just before event k of the run ``got`` of ``ops``: the next run must see every write that
    was acknowledged (its ok printed) by then, and at most the one write in flight besides."""
    fstrace.materialize(data, fstrace.states(got.start, got.trace, [k])[k])
    printed = lines_before(got.trace)[k]
    line_ends, write_ends = ack_counts(base, ops)
    acked = max([w for end, w in zip(line_ends, write_ends) if end <= printed], default=0)
    total = writes_in(ops)
    candidates = [Model(base) for _ in range(min(acked + 1, total) - acked + 1)]
    for extra, candidate in enumerate(candidates):
        candidate.run(prefix_through_write(ops, acked + extra))
    after = h.session(data, [("dump",)] + more + [("dump",)])
    first = after.lines[: after.lines.index("end") + 1] if "end" in after.lines else after.lines
    for candidate in candidates:
        if first == Model(candidate.data).run([("dump",)]):
            break
    else:
        h.notes.append(f"{label}: power cut at event {k} ({acked} writes acknowledged): recovered state is no "
                       f"acceptable prefix; {after.note}")
        return False
    want = Model(candidate.data).run([("dump",)] + more + [("dump",)])
    if after.note != "ok" or after.lines != want:
        h.notes.append(f"{label}: after the power cut at event {k}: {after.note}; {first_diff(after.lines, want)}")
        return False
    return True


def case_basic(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 40)
    ops = random_ops(rng, 220, keys) + [("dump",)]
    return h.expect(label, h.new_dir(), ops, Model()) is not None


def case_multi_session(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 50)
    data, model = h.new_dir(), Model()
    for s in range(3):
        ops = [("dump",)] + random_ops(rng, 100, keys, p_flush=0.04 * (s % 2), p_compact=0.01 * (s % 2))
        if h.expect(f"{label} session {s + 1}", data, ops, model) is None:
            return False
    return h.expect(f"{label} final", data, [("dump",)], model) is not None


def case_crash(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 40)
    data, model = h.new_dir(), Model()
    if h.expect(f"{label} setup", data, random_ops(rng, 100, keys, p_flush=0.05), model) is None:
        return False
    base = dict(model.data)
    ops = random_ops(rng, 140, keys, p_flush=0.03 if rng.random() < 0.5 else 0.0, p_compact=0.0)
    got = h.expect(f"{label} run", data, ops, model)
    if got is None:
        return False
    points = durable_points(got.trace)
    for j in range(CUTS):
        k = points[randint(rng, 0, len(points) - 1)]
        more = random_ops(rng, 20, keys)
        if not check_power_cut(h, f"{label} cut {j + 1}", data, base, ops, got, k, more):
            return False
    return True


def case_torn(h: Harness, rng, label: str, kind: str) -> bool:
    keys = key_space(rng, 30)
    data, model = h.new_dir(), Model()
    fresh = "zz" + token(rng, 6, 8)
    ops = random_ops(rng, 60, keys, p_flush=0.0, p_compact=0.0, reads=False)
    ops.append(("put", fresh, token(rng, 24, 40)))
    lost = Model(model.data)
    lost.run(ops[:-1])
    if h.expect(f"{label} writes", data, ops, model) is None:
        return False
    wal = data / "wal.log"
    if not wal.is_file() or wal.is_symlink():
        h.notes.append(f"{label}: no wal.log holding the writes")
        return False
    damaged = False
    if wal.stat().st_size > 0:
        blob = bytearray(wal.read_bytes())
        if kind == "truncate":
            del blob[len(blob) - randint(rng, 1, min(20, len(blob))):]
            damaged = True
        elif kind == "flip":
            blob[len(blob) - randint(rng, 1, min(20, len(blob)))] ^= 0x5A
            damaged = True
        else:
            blob += bytes(randint(rng, 0, 255) for _ in range(randint(rng, 1, 30)))
        wal.write_bytes(bytes(blob))
    more = random_ops(rng, 30, keys, reads=False, p_flush=0.0, p_compact=0.0)
    got = h.session(data, [("dump",)] + more + [("dump",)])
    first = got.lines[: got.lines.index("end") + 1] if "end" in got.lines else got.lines
    candidates = [model] + ([lost] if damaged else [])
    for candidate in candidates:
        if first == Model(candidate.data).run([("dump",)]):
            break
    else:
        h.notes.append(f"{label} ({kind}): state after recovery matches no acceptable prefix; {got.note}")
        return False
    state = Model(candidate.data)
    want = state.run([("dump",)] + more + [("dump",)])
    if got.note != "ok" or got.lines != want:
        h.notes.append(f"{label} ({kind}) writes after recovery: {got.note}; {first_diff(got.lines, want)}")
        return False
    return h.expect(f"{label} ({kind}) reopen", data, [("dump",)], state) is not None


def case_compaction(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 60)
    data, model = h.new_dir(), Model()
    ops = random_ops(rng, 250, keys, p_flush=0.08, p_compact=0.03) + [("compact",), ("dump",)]
    if h.expect(label, data, ops, model) is None:
        return False
    ops = [("dump",)] + random_ops(rng, 60, keys, p_flush=0.05, p_compact=0.02) + [("compact",), ("dump",)]
    ops += random_ops(rng, 5, keys, p_flush=0.0, p_compact=0.0, reads=False)
    if h.expect(f"{label} reopen", data, ops, model) is None:
        return False
    return h.expect(f"{label} writes after compaction", data, [("dump",)], model) is not None


def case_crash_in_phase(h: Harness, rng, label: str, phase: str) -> bool:
    keys = key_space(rng, 40)
    data, model = h.new_dir(), Model()
    setup = random_ops(rng, 120, keys, p_flush=0.06, p_compact=0.0, reads=False)
    if h.expect(f"{label} setup", data, setup, model) is None:
        return False
    base = dict(model.data)
    ops = random_ops(rng, 60, keys, p_flush=0.0, p_compact=0.0) + [(phase,)] + random_ops(rng, 5, keys, 0, 0)
    got = h.expect(f"{label} run", data, ops, model)
    if got is None:
        return False
    line_ends, _ = ack_counts(base, ops)
    before, printed = line_ends[-7], lines_before(got.trace)
    window = [k for k, n in enumerate(printed) if n == before]  # events while the phase command runs
    points = durable_points(got.trace, (window[0], window[-1]))
    for j in range(CUTS):
        k = points[randint(rng, 0, len(points) - 1)]
        more = random_ops(rng, 15, keys, p_flush=0.05)
        if not check_power_cut(h, f"{label} ({phase}) cut {j + 1}", data, base, ops, got, k, more):
            return False
    return True


def disk_bytes(root: Path) -> int:
    return sum(len(data) for data in fstrace.snapshot(root)[0].values())


def io_case(h: Harness, rng) -> dict:
    """The layout checks (gate) and the I/O measures, all from the trace and the synced files."""
    res = {"layout": [], "write_amp": None, "fsyncs": None, "space": None}
    data = h.new_dir()
    keys = [f"k{i:05d}{token(rng, 2, 4)}" for i in range(300)]
    values = [token(rng, 40, 80) for _ in keys]
    logical = sum(len(k) + len(v) for k, v in zip(keys, values))
    model, puts = Model(), [("put", k, v) for k, v in zip(keys, values)]
    got = h.expect("io puts", data, puts, model)
    wal = fstrace.snapshot(data)[0].get(str(data / "wal.log"))
    if not wal:
        res["layout"].append("after 300 puts and no flush there is no non-empty wal.log")
    durable = got is not None
    if got is not None:  # efficiency only counts for a store that keeps what it acknowledged, at any point
        points = durable_points(got.trace)
        for j in range(CUTS):
            k = points[randint(rng, 0, len(points) - 1)]
            durable = durable and check_power_cut(h, f"io cut {j + 1}", data, {}, puts, got, k, [])
        end = len(got.trace.events)
        fstrace.materialize(data, fstrace.states(got.start, got.trace, [end])[end])
        durable = durable and h.expect("io durability", data, [("dump",)], Model(model.data)) is not None
    if durable:
        res["write_amp"] = got.trace.bytes_written / logical
        res["fsyncs"] = got.trace.syncs / len(keys)
    h.session(data, [("flush",)])
    files = fstrace.snapshot(data)[0]
    wal_size = len(files.get(str(data / "wal.log"), b""))
    others = sum(len(b) for p, b in files.items() if p != str(data / "wal.log"))
    if wal_size > LAYOUT_MAX_WAL_AFTER_FLUSH:
        res["layout"].append(f"wal.log still holds {wal_size} bytes after flush")
    if others < 0.9 * logical:
        res["layout"].append(f"after flush the segment files hold {others} bytes for {logical} of live data")
    news = [token(rng, 40, 80) for _ in keys]
    ops = [("put", k, v) for k, v in zip(keys, news)] + [("del", k) for k in keys[::2]] + [("compact",)]
    after = h.expect("io compaction", data, ops + [("dump",)], model)
    live = sum(len(k) + len(v) for k, v in model.data.items())
    space = disk_bytes(data) / live
    if space > LAYOUT_MAX_SPACE:
        res["layout"].append(f"after compact {space:.2f} bytes on disk per live byte")
    if durable and after is not None:
        res["space"] = space
    return res


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    h = Harness()

    public_ops = [tuple(line.split()) for line in (HERE / "public_example.txt").read_text().splitlines()
                  if line.strip() and not line.startswith("#")]
    card.binary("public_example", 1, lambda: h.expect("public example", h.new_dir(), public_ops, Model()) is not None,
                visibility="public", detail="examples/basic.txt gives examples/basic.out")

    io = io_case(h, stress.rng(SEED, "io"))
    layout_ok = not io["layout"]
    card.binary("hidden_layout", 0.5, layout_ok,
                detail="wal.log holds unflushed writes, flush moves them into segments, compact bounds space"
                       + ("" if layout_ok else ": " + "; ".join(io["layout"])))
    families = [
        ("hidden_basic_ops", 2, "one session, output compared line by line",
         lambda: [case_basic(h, stress.rng(SEED, "basic", i), f"basic-{i}") for i in range(3)]),
        ("hidden_multi_session", 2, "state survives restarts, each followed by a power cut",
         lambda: [case_multi_session(h, stress.rng(SEED, "multi", i), f"multi-{i}") for i in range(2)]),
        ("hidden_crash_durability", 3, "power cuts at seeded points of the trace keep every acknowledged write",
         lambda: [case_crash(h, stress.rng(SEED, "crash", i), f"crash-{i}") for i in range(4)]),
        ("hidden_torn_writes", 2, "damaged WAL tail: recover a valid prefix and keep working",
         lambda: [case_torn(h, stress.rng(SEED, "torn", kind, i), f"torn-{i}", kind)
                  for kind in ("truncate", "flip", "garbage") for i in range(1)]),
        ("hidden_compaction", 2, "flush/compaction keep the newest values and tombstones right",
         lambda: [case_compaction(h, stress.rng(SEED, "compact", i), f"compact-{i}") for i in range(2)]),
        ("hidden_crash_in_flush_compact", 2, "power cuts inside flush or compaction windows lose nothing",
         lambda: [case_crash_in_phase(h, stress.rng(SEED, "phase", phase, i), f"phase-{i}", phase)
                  for phase in ("flush", "compact") for i in range(2)]),
    ]
    for name, weight, detail, cases in families:
        if layout_ok:
            card.fraction(name, weight, cases, detail=detail)
        else:
            card.add(name, weight, 0.0, kind="fraction", detail=f"{detail}; not credited: layout check failed")
    inf = float("inf")

    def measure(key: str):
        return inf if not layout_ok or io[key] is None else io[key]

    card.banded("hidden_io_write_amplification", 1, measure("write_amp"), bands=WRITE_AMP_BANDS,
                detail="bytes written to the data files / logical bytes for 300 puts (from the trace)")
    card.banded("hidden_io_fsyncs_per_write", 1, measure("fsyncs"), bands=FSYNC_BANDS,
                detail="fsync/fdatasync calls per acknowledged put (from the trace)")
    card.banded("hidden_space_after_compaction", 1, measure("space"), bands=SPACE_BANDS,
                detail="synced bytes on disk / live logical bytes after overwriting, deleting half and compacting")
    if h.notes:
        print("notes:\n  " + "\n  ".join(h.notes[:60]))
    card.write()


if __name__ == "__main__":
    main()
