# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Pair beeps with flashes and summarise the offsets: mean, drift, verdict."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class SyncResult:
    offsets_ms: np.ndarray  # audio minus video, per event
    video_times: np.ndarray
    offset_ms: float | None
    drift_ppm: float | None
    in_sync: bool


def pair_events(flashes: np.ndarray, beeps: np.ndarray) -> list[tuple[float, float]]:
    """The k-th beep belongs to the k-th flash (the pattern emits them together)."""
    return [(float(t_v), float(t_a)) for t_v, t_a in zip(flashes, beeps)]


def summarise(flashes: np.ndarray, beeps: np.ndarray, tolerance_ms: float) -> SyncResult:
    pairs = pair_events(flashes, beeps)
    t_v = np.array([p[0] for p in pairs])
    offsets = np.array([(p[1] - p[0]) * 1000.0 for p in pairs])
    if len(pairs) == 0:
        return SyncResult(offsets, t_v, None, None, False)
    mean = offsets.mean()
    # drift: how fast video runs ahead of audio, in parts per million
    drift = float(np.polyfit(t_v, -offsets, 1)[0]) * 1000.0 if len(pairs) >= 2 else 0.0
    in_sync = np.abs(mean) <= tolerance_ms
    return SyncResult(offsets, t_v, mean, drift, in_sync)
