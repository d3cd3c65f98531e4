# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of kv-store-crash-recovery: drive the agent's store (``python3 -m kvstore DIR SCRIPT``) through
seeded workloads, injected crashes and damaged logs, and compare everything with a dict model.

The verifier first installs its own copy of kvstore/vfs.py (the emulated storage layer whose semantics decide
what survives a crash, and whose counters feed the I/O bands), so the emulation cannot be changed by the agent.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from workloads import Model, key_space, randint, random_ops, script, token, writes_in

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, work_dir, writable_dir

SEED = stress.seed_from_env(5150)
HERE = Path(__file__).resolve().parent
APP = Path("/app")
CRASH_STATUS = "exit status 77"
WRITE_AMP_BANDS = [(1.5, 1.0), (4.0, 0.5), (20.0, 0.0)]
FSYNC_BANDS = [(1.05, 1.0), (2.0, 0.5), (4.0, 0.0)]
SPACE_BANDS = [(1.5, 1.0), (3.0, 0.5), (8.0, 0.0)]


def install_vfs() -> None:
    package = APP / "kvstore"
    if package.is_dir() and not package.is_symlink():
        target = package / "vfs.py"
        if target.is_symlink() or target.exists():
            target.unlink()
        shutil.copyfile(HERE / "vfs.py", target)
        target.chmod(0o644)
        for cache in package.rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)


class Harness:
    def __init__(self) -> None:
        self.runner = AgentRunner(str(APP), timeout_sec=20.0, max_timeouts=3)
        self.root = work_dir("kv-")
        self.count = 0
        self.notes: list[str] = []

    def new_dir(self) -> Path:
        self.count += 1
        return writable_dir(self.root / f"data-{self.count}")

    def session(self, data: Path, ops: list, *extra: str):
        """(stdout lines, note) of one run of the store on a script."""
        self.count += 1
        path = self.root / f"script-{self.count}.txt"
        path.write_text(script(ops))
        path.chmod(0o644)
        run = self.runner.run([sys.executable, "-m", "kvstore", str(data), str(path), *extra])
        lines = run.stdout.splitlines()
        return lines, ("ok" if run.ok else run.note)

    def expect(self, label: str, data: Path, ops: list, model: Model) -> bool:
        lines, note = self.session(data, ops)
        want = model.run(ops)
        if note != "ok" or lines != want:
            self.notes.append(f"{label}: {note}; {first_diff(lines, want)}")
            return False
        return True


def first_diff(got: list, want: list) -> str:
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return f"line {i + 1}: got {a[:60]!r}, want {b[:60]!r}"
    return f"{len(got)} lines, want {len(want)}"


def prefix_through_write(ops: list, n: int) -> list:
    """ops up to and including the n-th write."""
    seen = 0
    for i, op in enumerate(ops):
        if op[0] in ("put", "del"):
            seen += 1
            if seen == n:
                return ops[: i + 1]
    return ops


def case_basic(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 40)
    ops = random_ops(rng, 220, keys) + [("dump",)]
    return h.expect(label, h.new_dir(), ops, Model())


def case_multi_session(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 50)
    data, model = h.new_dir(), Model()
    for s in range(4):
        ops = [("dump",)] + random_ops(rng, 90, keys, p_flush=0.04 * (s % 2), p_compact=0.01 * (s % 2))
        if not h.expect(f"{label} session {s + 1}", data, ops, model):
            return False
    return h.expect(f"{label} final", data, [("dump",)], model)


def case_crash(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 40)
    data, model = h.new_dir(), Model()
    if not h.expect(f"{label} setup", data, random_ops(rng, 100, keys, p_flush=0.05), model):
        return False
    ops = random_ops(rng, 140, keys, p_flush=0.03 if rng.random() < 0.5 else 0.0, p_compact=0.0)
    n = randint(rng, 1, writes_in(ops))
    lines, note = h.session(data, ops, "--crash-after", str(n))
    want = model.run(prefix_through_write(ops, n))
    if note != CRASH_STATUS or lines != want:
        h.notes.append(f"{label} crash run: {note}; {first_diff(lines, want)}")
        return False
    after = [("dump",)] + random_ops(rng, 30, keys) + [("dump",)]
    return h.expect(f"{label} after crash", data, after, model)


def case_torn(h: Harness, rng, label: str, kind: str) -> bool:
    keys = key_space(rng, 30)
    data, model = h.new_dir(), Model()
    fresh = "zz" + token(rng, 6, 8)
    ops = random_ops(rng, 60, keys, p_flush=0.0, p_compact=0.0, reads=False)
    ops.append(("put", fresh, token(rng, 24, 40)))
    lost = Model(model.data)
    lost.run(ops[:-1])
    if not h.expect(f"{label} writes", data, ops, model):
        return False
    wal = data / "wal.log"
    damaged = False
    if wal.is_file() and not wal.is_symlink() and wal.stat().st_size > 0:
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
    lines, note = h.session(data, [("dump",)] + more + [("dump",)])
    first = lines[: lines.index("end") + 1] if "end" in lines else lines
    candidates = [model] + ([lost] if damaged else [])
    for candidate in candidates:
        if first == Model(candidate.data).run([("dump",)]):
            break
    else:
        h.notes.append(f"{label} ({kind}): state after recovery matches no acceptable prefix; {note}")
        return False
    state = Model(candidate.data)
    want = state.run([("dump",)] + more + [("dump",)])
    if note != "ok" or lines != want:
        h.notes.append(f"{label} ({kind}) writes after recovery: {note}; {first_diff(lines, want)}")
        return False
    return h.expect(f"{label} ({kind}) reopen", data, [("dump",)], state)


def case_compaction(h: Harness, rng, label: str) -> bool:
    keys = key_space(rng, 60)
    data, model = h.new_dir(), Model()
    ops = random_ops(rng, 250, keys, p_flush=0.08, p_compact=0.03) + [("compact",), ("dump",)]
    if not h.expect(label, data, ops, model):
        return False
    ops = [("dump",)] + random_ops(rng, 60, keys, p_flush=0.05, p_compact=0.02) + [("compact",), ("dump",)]
    return h.expect(f"{label} reopen", data, ops, model)


def case_crash_in_phase(h: Harness, rng, label: str, phase: str) -> bool:
    keys = key_space(rng, 40)
    data, model = h.new_dir(), Model()
    setup = random_ops(rng, 120, keys, p_flush=0.06, p_compact=0.0, reads=False)
    if not h.expect(f"{label} setup", data, setup, model):
        return False
    ops = random_ops(rng, 60, keys, p_flush=0.0, p_compact=0.0) + [(phase,)]
    k = randint(rng, 1, 6)
    lines, note = h.session(data, ops, "--crash-in", f"{phase}:{k}")
    want_full = model.run(ops)
    if not ((note == CRASH_STATUS and lines == want_full[:-1]) or (note == "ok" and lines == want_full)):
        h.notes.append(f"{label} ({phase}:{k}): {note}; {first_diff(lines, want_full)}")
        return False
    after = [("dump",)] + random_ops(rng, 30, keys, p_flush=0.05) + [("compact",), ("dump",)]
    return h.expect(f"{label} ({phase}:{k}) after crash", data, after, model)


def io_case(h: Harness, rng) -> tuple:
    """(write amplification, fsyncs per write, space amplification after compaction) or Nones."""
    data = h.new_dir()
    keys = [f"k{i:05d}{token(rng, 2, 4)}" for i in range(300)]
    values = [token(rng, 40, 80) for _ in keys]
    ops = [("put", k, v) for k, v in zip(keys, values)] + [("stats",)]
    lines, note = h.session(data, ops)
    stats = parse_stats(lines[-1] if lines else "")
    if note != "ok" or lines[:-1] != ["ok"] * len(keys) or stats is None:
        h.notes.append(f"io: run failed or no stats line ({note})")
        return None, None, None
    on_disk = disk_bytes(data)
    if stats["bytes_written"] < on_disk:
        h.notes.append(f"io: {on_disk} bytes on disk but only {stats['bytes_written']} reported written")
        return None, None, None
    # efficiency only counts for a store that keeps what it acknowledged: same puts, crash after the last one
    check_dir = h.new_dir()
    lines, note = h.session(check_dir, ops[:-1], "--crash-after", str(len(keys)))
    if note != CRASH_STATUS or not h.expect("io durability", check_dir, [("dump",)],
                                            Model(dict(zip(keys, values)))):
        h.notes.append("io: acknowledged puts lost after a crash, no efficiency credit")
        return None, None, None
    logical = sum(len(k) + len(v) for k, v in zip(keys, values))
    write_amp = stats["bytes_written"] / logical
    fsyncs = stats["fsyncs"] / len(keys)
    model = Model(dict(zip(keys, values)))
    dels = [("del", k) for k in keys[::2]]
    ops = dels + [("compact",), ("dump",)]
    if not h.expect("io compaction", data, ops, model):
        return write_amp, fsyncs, None
    live = sum(len(k) + len(v) for k, v in model.data.items())
    return write_amp, fsyncs, disk_bytes(data) / live


def parse_stats(line: str):
    try:
        fields = dict(part.split("=", 1) for part in line.split())
        return {name: int(fields[name]) for name in ("bytes_written", "fsyncs")}
    except (ValueError, KeyError):
        return None


def disk_bytes(root: Path) -> int:
    total = 0
    for base, _dirs, names in os.walk(root):
        for name in names:
            try:
                total += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                pass
    return total


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    install_vfs()
    h = Harness()

    public_ops = [line.split() for line in (HERE / "public_example.txt").read_text().splitlines()
                  if line.strip() and not line.startswith("#")]
    card.binary("public_example", 1, lambda: h.expect("public example", h.new_dir(), [tuple(o) for o in public_ops],
                                                      Model()), visibility="public",
                detail="examples/basic.txt gives examples/basic.out")

    card.fraction("hidden_basic_ops", 2, [case_basic(h, stress.rng(SEED, "basic", i), f"basic-{i}")
                                          for i in range(4)], detail="one session, output compared line by line")
    card.fraction("hidden_multi_session", 2,
                  [case_multi_session(h, stress.rng(SEED, "multi", i), f"multi-{i}") for i in range(3)],
                  detail="state survives clean restarts (segments, WAL, tombstones)")
    card.fraction("hidden_crash_durability", 3,
                  [case_crash(h, stress.rng(SEED, "crash", i), f"crash-{i}") for i in range(6)],
                  detail="every acknowledged write survives --crash-after N")
    card.fraction("hidden_torn_writes", 2,
                  [case_torn(h, stress.rng(SEED, "torn", kind, i), f"torn-{i}", kind)
                   for kind in ("truncate", "flip", "garbage") for i in range(2)],
                  detail="damaged WAL tail: recover a valid prefix and keep working")
    card.fraction("hidden_compaction", 2,
                  [case_compaction(h, stress.rng(SEED, "compact", i), f"compact-{i}") for i in range(3)],
                  detail="flush/compaction keep the newest values and tombstones right")
    card.fraction("hidden_crash_in_flush_compact", 2,
                  [case_crash_in_phase(h, stress.rng(SEED, "phase", phase, i), f"phase-{i}", phase)
                   for phase in ("flush", "compact") for i in range(3)],
                  detail="a crash inside flush or compaction loses nothing")
    write_amp, fsyncs, space = io_case(h, stress.rng(SEED, "io"))
    inf = float("inf")
    card.banded("hidden_io_write_amplification", 1, inf if write_amp is None else write_amp, bands=WRITE_AMP_BANDS,
                detail="bytes made durable / logical bytes for 300 puts (from the stats command)")
    card.banded("hidden_io_fsyncs_per_write", 1, inf if fsyncs is None else fsyncs, bands=FSYNC_BANDS,
                detail="fsync calls per acknowledged put")
    card.banded("hidden_space_after_compaction", 1, inf if space is None else space, bands=SPACE_BANDS,
                detail="bytes on disk / live logical bytes after deleting half and compacting")
    if h.notes:
        print("notes:\n  " + "\n  ".join(h.notes[:60]))
    card.write()


if __name__ == "__main__":
    main()
