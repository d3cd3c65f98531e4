# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Parse pm2d output files and compare one with the reference's."""

from __future__ import annotations

import math

REL_TOL = 1e-10


def parse_header(deck: str) -> tuple[float, int, int]:
    box = steps = n = None
    for line in deck.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "box":
            box = float(words[1])
        elif words[0] == "steps":
            steps = int(words[1])
        elif words[0] == "particles":
            n = int(words[1])
            break
    return box, steps, n


def parse_output(text: str, steps: int, n: int):
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if len(lines) != steps + 2 + n:
        raise ValueError(f"{len(lines)} non-blank lines, want {steps + 2 + n}")
    energies = []
    for s in range(steps + 1):
        words = lines[s]
        if len(words) != 4 or words[0] != "energy" or int(words[1]) != s:
            raise ValueError(f"line {s + 1}: want 'energy {s} KINETIC POTENTIAL'")
        energies.append((float(words[2]), float(words[3])))
    if lines[steps + 1] != ["particles", str(n)]:
        raise ValueError(f"line {steps + 2}: want 'particles {n}'")
    rows = []
    for i in range(n):
        words = lines[steps + 2 + i]
        if len(words) != 4:
            raise ValueError(f"particle {i}: want 4 numbers")
        rows.append(tuple(float(w) for w in words))
    return energies, rows


def periodic_gap(a: float, b: float, box: float) -> float:
    d = abs(a - b) % box
    return min(d, box - d)


def compare(deck: str, got: str | None, want: str) -> str:
    """'' when ``got`` matches the reference output ``want``, else why not."""
    if got is None:
        return "no output file"
    box, steps, n = parse_header(deck)
    ref_e, ref_p = parse_output(want, steps, n)
    try:
        e, p = parse_output(got, steps, n)
    except ValueError as exc:
        return f"malformed output: {exc}"
    # kinetic and field energy each against its own scale: a drift can make one dwarf the other
    scales = [max([abs(pair[k]) for pair in ref_e] + [1e-300]) for k in (0, 1)]
    for s, (a, b) in enumerate(zip(e, ref_e)):
        for v, w, scale, name in zip(a, b, scales, ("kinetic", "field")):
            if not math.isfinite(v) or abs(v - w) > REL_TOL * scale:
                return f"{name} energy at step {s}: got {v!r}, want {w!r}"
    v_scale = max([abs(v) for row in ref_p for v in row[2:]] + [1e-300])
    for i, (row, ref) in enumerate(zip(p, ref_p)):
        if not all(math.isfinite(v) for v in row):
            return f"particle {i}: non-finite value"
        for axis in (0, 1):
            if not 0.0 <= row[axis] < box:
                return f"particle {i}: coordinate {row[axis]!r} outside [0, {box!r})"
            if periodic_gap(row[axis], ref[axis], box) > REL_TOL * box:
                return f"particle {i}: position {row[:2]}, want {ref[:2]}"
        for axis in (2, 3):
            if abs(row[axis] - ref[axis]) > REL_TOL * v_scale:
                return f"particle {i}: velocity {row[2:]}, want {ref[2:]}"
    return ""
