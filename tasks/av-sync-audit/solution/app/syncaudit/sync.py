# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Pair beeps with flashes and summarise the offsets: mean, drift, verdict."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_PAIR_SEC = 0.5  # a beep and a flash less than this far apart belong to the same event


@dataclass
class SyncResult:
    offsets_ms: np.ndarray  # audio minus video, per event
    video_times: np.ndarray
    offset_ms: float | None
    drift_ppm: float | None
    in_sync: bool


def pair_events(flashes: np.ndarray, beeps: np.ndarray) -> list[tuple[float, float]]:
    """Each beep with the nearest flash within MAX_PAIR_SEC; a flash is used at most once."""
    pairs, used = [], set()
    for t_a in beeps:
        if len(flashes) == 0:
            break
        i = int(np.argmin(np.abs(flashes - t_a)))
        if abs(flashes[i] - t_a) < MAX_PAIR_SEC and i not in used:
            used.add(i)
            pairs.append((float(flashes[i]), float(t_a)))
    return sorted(pairs)


def summarise(flashes: np.ndarray, beeps: np.ndarray, tolerance_ms: float) -> SyncResult:
    pairs = pair_events(flashes, beeps)
    t_v = np.array([p[0] for p in pairs])
    offsets = np.array([(p[1] - p[0]) * 1000.0 for p in pairs])
    if len(pairs) == 0:
        return SyncResult(offsets, t_v, None, None, False)
    drift = float(np.polyfit(t_v, offsets, 1)[0]) * 1000.0 if len(pairs) >= 2 else 0.0
    in_sync = bool(np.abs(offsets).max() <= tolerance_ms)
    return SyncResult(offsets, t_v, float(offsets.mean()), drift, in_sync)
