# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The pose track file: ``seq,t,x,y,theta``, one row per encoder record, in time order."""

from __future__ import annotations

from pathlib import Path

from .angles import wrap


def write_track(path: str | Path, rows: list[tuple[int, float, float, float, float]]) -> None:
    lines = ["seq,t,x,y,theta"]
    for seq, t, x, y, th in rows:
        lines.append(f"{seq},{t:.6f},{x:.5f},{y:.5f},{wrap(th):.6f}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
