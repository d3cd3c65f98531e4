# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of file-format-re: run the agent's ``/app/lhpk.py decode|encode`` on archives and trees it never saw.

Archives come from tests/lhpkref.py (the verifier's configurable encoder, both format revisions) with seeded
rare features; the agent's encoder must write revision 2, checked with the verifier's strict decoder.
Corrupted archives count only together with their clean twin (clean decoded right AND corrupted rejected),
so a tool that rejects everything earns nothing there.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from cases import CORRUPTIONS, CORRUPTIONS_V2, corrupt_case, corrupt_case_v2, decode_case, encode_tree
from lhpkref import FormatError, Options, decode, encode

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_bytes, work_dir, writable_dir

SEED = stress.seed_from_env(7331)
TOOL = "/app/lhpk.py"
SAMPLES = Path(__file__).resolve().parent / "public" / "samples"  # copies of public data: see docs/authoring.md
BASIC = {"basic": 3, "no_index": 3}
RARE = {"continuation": 3, "ancillary": 3, "mixed": 3, "names": 3, "large": 2}
V2 = {"v2_basic": 3, "v2_stream": 3, "v2_names": 3, "v2_large": 2}
ENCODE_TREES = 8
SIZE_BANDS = [(1.02, 1.0), (1.15, 0.5), (1.6, 0.0)]


def read_tree(root: Path) -> dict | None:
    """{relative name: bytes} of the regular files under root; None if anything else is there."""
    files = {}
    for base, dirs, names in os.walk(root, followlinks=False):
        for d in dirs:
            if os.path.islink(os.path.join(base, d)):
                return None
        for name in names:
            path = os.path.join(base, name)
            data = read_regular_bytes(path)
            if data is None:
                return None
            files[os.path.relpath(path, root).replace(os.sep, "/")] = data
    return files


def write_tree(root: Path, files: dict) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for base, dirs, names in os.walk(root):
        os.chmod(base, 0o755)
        for name in names:
            os.chmod(os.path.join(base, name), 0o644)


class Tool:
    def __init__(self) -> None:
        self.runner = AgentRunner("/app", timeout_sec=15.0, max_timeouts=3)
        self.dir = work_dir("lhpk-")
        self.count = 0
        self.notes: list[str] = []

    def decode(self, label: str, archive: bytes) -> tuple[bool, dict | None]:
        """(exit status 0, the extracted tree or None)"""
        self.count += 1
        path = self.dir / f"{self.count}.lhpk"
        path.write_bytes(archive)
        path.chmod(0o644)
        out = writable_dir(self.dir / f"{self.count}-out")
        run = self.runner.run([sys.executable, TOOL, "decode", str(path), str(out)])
        if not run.ok:
            return False, None
        return True, read_tree(out)

    def decoded_right(self, label: str, archive: bytes, expected: dict) -> bool:
        ok, tree = self.decode(label, archive)
        if not (ok and tree == expected):
            self.notes.append(f"{label}: {'exit status not 0' if not ok else 'wrong tree'}")
            return False
        return True

    def encode(self, label: str, files: dict) -> bytes | None:
        self.count += 1
        src = self.dir / f"{self.count}-src"
        src.mkdir()
        write_tree(src, files)
        out_dir = writable_dir(self.dir / f"{self.count}-enc")
        target = out_dir / "out.lhpk"
        run = self.runner.run([sys.executable, TOOL, "encode", str(src), str(target)])
        if not run.ok:
            self.notes.append(f"{label}: encode failed ({run.note})")
            return None
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            self.notes.append(f"{label}: no archive written")
            return None
        with os.fdopen(fd, "rb") as handle:
            return handle.read(64 << 20)


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    tool = Tool()

    public = []
    for archive in sorted(SAMPLES.glob("*.lhpk")):
        expected = read_tree(SAMPLES / archive.stem)
        public.append(tool.decoded_right(f"sample {archive.stem}", archive.read_bytes(), expected))
    card.fraction("public_samples", 0.5, public, visibility="public", detail="the archives in /app/samples")

    basic = []
    for family, count in BASIC.items():
        for i in range(count):
            archive, expected = decode_case(stress.rng(SEED, "decode", family, i), family)
            basic.append(tool.decoded_right(f"{family}-{i}", archive, expected))
    card.fraction("hidden_decode_basic", 1, basic,
                  detail="revision 1 archives like the encoder's, with and without index")

    rare = []
    for family, count in RARE.items():
        for i in range(count):
            archive, expected = decode_case(stress.rng(SEED, "decode", family, i), family)
            rare.append(tool.decoded_right(f"{family}-{i}", archive, expected))
    card.fraction("hidden_decode_rare_features", 1.5, rare,
                  detail="revision 1: continuation, ancillary, mixed compression, unicode/long names, large")

    rev2 = []
    for family, count in V2.items():
        for i in range(count):
            archive, expected = decode_case(stress.rng(SEED, "decode", family, i), family)
            rev2.append(tool.decoded_right(f"{family}-{i}", archive, expected))
    card.fraction("hidden_decode_revision2", 3, rev2,
                  detail="revision 2: links, per-entry streams in pieces, content checksums, rare features")

    rejected = []
    for kind in CORRUPTIONS + CORRUPTIONS_V2:
        make = corrupt_case_v2 if kind in CORRUPTIONS_V2 else corrupt_case
        clean, expected, bad = make(stress.rng(SEED, "corrupt", kind), kind)
        good = tool.decoded_right(f"{kind} (clean twin)", clean, expected)
        ok, _ = tool.decode(kind, bad)
        if good and ok:
            tool.notes.append(f"{kind}: corrupted archive accepted")
        rejected.append(good and not ok)
    card.fraction("hidden_reject_corrupted", 4, rejected,
                  detail="corrupted archive exits nonzero while its clean twin decodes right")

    round_trips, agent_size, reference_size = [], 0, 0
    for i in range(ENCODE_TREES):
        files = dict(encode_tree(stress.rng(SEED, "encode", i), i))
        archive = tool.encode(f"encode-{i}", files)
        try:
            if archive is not None and archive[4:5] != b"\x02":
                raise FormatError("not a revision 2 archive")
            ok = archive is not None and decode(archive) == files
        except FormatError as exc:
            tool.notes.append(f"encode-{i}: graders' decoder rejects it: {exc}")
            ok = False
        round_trips.append(ok)
        if ok:
            agent_size += len(archive)
            reference_size += len(encode(sorted(files.items()), Options(version=2)))
    card.fraction("hidden_encode_round_trip", 4, round_trips,
                  detail="the agent's revision 2 archives decode to the exact tree (graders' strict decoder)")
    ratio = agent_size / reference_size if all(round_trips) else float("inf")
    card.banded("hidden_encode_size", 1, ratio, bands=SIZE_BANDS,
                detail="archive size / lhpkenc 2.1's size (only when every round trip is right)")
    if tool.notes:
        print("notes:\n  " + "\n  ".join(tool.notes[:60]))
    card.write()


if __name__ == "__main__":
    main()
