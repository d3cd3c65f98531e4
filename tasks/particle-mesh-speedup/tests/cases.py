# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded input decks for pm2d, one builder per hidden family (only Random.random() is drawn from)."""

from __future__ import annotations

import math

FAMILIES = ("uniform", "clustered", "boundary", "edge")


def uniform(rng, lo: float, hi: float) -> float:
    return lo + (hi - lo) * rng.random()


def choice(rng, items):
    return items[min(int(rng.random() * len(items)), len(items) - 1)]


def integer(rng, lo: int, hi: int) -> int:
    return min(lo + int(rng.random() * (hi - lo + 1)), hi)


def gauss(rng) -> float:
    u1 = max(rng.random(), 1e-300)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * rng.random())


def render(header: dict, particles: list, comments: int = 0, rng=None, newline: str = "\n") -> str:
    lines = ["# pm2d input deck"]
    lines += [f"{key} {value!r}" if isinstance(value, float) else f"{key} {value}" for key, value in header.items()]
    lines.append(f"particles {len(particles)}")
    body = [" ".join(f"{v!r}" for v in p) for p in particles]
    for k in range(comments):
        at = 0 if k == 0 else integer(rng, 0, len(body))
        body.insert(at, "# checkpoint" if k == 0 else choice(rng, ["# note", "", "   # indented note", "\t"]))
    return newline.join(lines + body) + newline


def header(box: float, grid: int, dt: float, steps: int, coupling: float) -> dict:
    return {"box": box, "grid": grid, "dt": dt, "steps": steps, "coupling": coupling}


def coupling_for(rng, box: float, mass: float, strength: float, sign=None) -> float:
    """A coupling whose field moves particles by about ``strength`` * box over the run."""
    s = sign if sign is not None else choice(rng, [1.0, -1.0])
    return s * strength * uniform(rng, 0.5, 1.5) * box * box / max(mass, 1e-9)


def make_uniform(rng) -> str:
    box = uniform(rng, 4.0, 20.0)
    grid = choice(rng, [16, 32])
    n = integer(rng, 150, 600)
    steps = integer(rng, 8, 14)
    dt = uniform(rng, 0.02, 0.08)
    t = steps * dt
    ux, uy = (uniform(rng, 0.05, 0.2) * box / t for _ in range(2))
    sig = 0.1 * min(ux, uy)
    parts = [[uniform(rng, 0.0, box), uniform(rng, 0.0, box), ux + sig * gauss(rng), uy + sig * gauss(rng),
              uniform(rng, 0.5, 2.0)] for _ in range(n)]
    mass = sum(p[4] for p in parts)
    c = coupling_for(rng, box, mass, 0.01 / (t * t))
    # the drift carries no particle across x = 0 or y = 0 (downwards) on its own
    for p in parts:
        p[0] = max(p[0], 0.05 * box)
        p[1] = max(p[1], 0.05 * box)
    return render(header(box, grid, dt, steps, c), parts)


def make_clustered(rng) -> str:
    box = uniform(rng, 4.0, 20.0)
    grid = choice(rng, [16, 32])
    steps = integer(rng, 8, 14)
    dt = uniform(rng, 0.02, 0.08)
    t = steps * dt
    blobs = integer(rng, 1, 4)
    ux, uy = (uniform(rng, 0.05, 0.15) * box / t for _ in range(2))
    parts = []
    for _ in range(blobs):
        cx, cy = uniform(rng, 0.3, 1.2) * box, uniform(rng, 0.3, 1.2) * box
        width = uniform(rng, 0.02, 0.08) * box
        for _ in range(integer(rng, 60, 200)):
            x = (cx + width * gauss(rng)) % box
            y = (cy + width * gauss(rng)) % box
            parts.append([max(x, 0.05 * box), max(y, 0.05 * box), ux, uy, uniform(rng, 0.2, 3.0)])
    mass = sum(p[4] for p in parts)
    c = coupling_for(rng, box, mass, 0.01 / (t * t), sign=1.0 if rng.random() < 0.7 else -1.0)
    return render(header(box, grid, dt, steps, c), parts)


def make_boundary(rng) -> str:
    box = uniform(rng, 4.0, 20.0)
    grid = choice(rng, [16, 32])
    steps = integer(rng, 8, 14)
    dt = uniform(rng, 0.02, 0.08)
    t = steps * dt
    n = integer(rng, 100, 400)
    parts = []
    for i in range(n):
        edge = uniform(rng, 0.0, 0.1) * box
        x = edge if rng.random() < 0.5 else box - edge
        y = uniform(rng, 0.0, box)
        if rng.random() < 0.5:
            x, y = y, x
        vx, vy = (uniform(rng, -0.4, 0.4) * box / t for _ in range(2))
        parts.append([x, y, vx, vy, uniform(rng, 0.5, 2.0)])
    # some particles leave through x = 0 and y = 0 for sure
    for p in parts[:10]:
        p[0], p[2] = uniform(rng, 0.0, 0.02) * box, -uniform(rng, 0.2, 0.4) * box / t
    for p in parts[10:20]:
        p[1], p[3] = uniform(rng, 0.0, 0.02) * box, -uniform(rng, 0.2, 0.4) * box / t
    mass = sum(p[4] for p in parts)
    c = coupling_for(rng, box, mass, 0.01 / (t * t))
    return render(header(box, grid, dt, steps, c), parts)


def make_edge(rng) -> str:
    box = uniform(rng, 3.0, 30.0)
    grid = choice(rng, [8, 16, 64])
    steps = integer(rng, 0, 4)
    dt = uniform(rng, 0.02, 0.1)
    h = box / grid
    special = [0.0, math.nextafter(box, 0.0), h, box - h, 0.5 * box, 3 * h, math.nextafter(h, 0.0)]
    n = integer(rng, 1, 12)
    parts = []
    crowd = (integer(rng, 0, grid - 1) + 0.5) * h
    for i in range(n):
        kind = choice(rng, ["special", "crowd", "random"])
        if kind == "special":
            x, y = choice(rng, special), choice(rng, special)
        elif kind == "crowd":
            x, y = crowd + uniform(rng, -0.2, 0.2) * h, crowd + uniform(rng, -0.2, 0.2) * h
        else:
            x, y = uniform(rng, 0.0, box), uniform(rng, 0.0, box)
        m = 0.0 if rng.random() < 0.15 else uniform(rng, 0.5, 2.0)
        parts.append([x, y, uniform(rng, -0.05, 0.05) * box, uniform(rng, -0.05, 0.05) * box, m])
    mass = sum(p[4] for p in parts)
    c = coupling_for(rng, box, mass, 0.01)
    newline = "\r\n" if rng.random() < 0.4 else "\n"
    return render(header(box, grid, dt, steps, c), parts, comments=integer(rng, 1, 3), rng=rng, newline=newline)


def make_speed(rng) -> str:
    box = uniform(rng, 8.0, 12.0)
    t_steps, dt = 6, 0.05
    t = t_steps * dt
    parts = [[uniform(rng, 0.1, 1.0) * box, uniform(rng, 0.1, 1.0) * box, 0.05 * box / t, 0.05 * box / t,
              uniform(rng, 0.5, 1.5)] for _ in range(integer(rng, 700, 800))]
    mass = sum(p[4] for p in parts)
    c = coupling_for(rng, box, mass, 0.01 / (t * t), sign=1.0)
    return render(header(box, 32, dt, t_steps, c), parts)


BUILDERS = {"uniform": make_uniform, "clustered": make_clustered, "boundary": make_boundary,
            "edge": make_edge, "speed": make_speed}
