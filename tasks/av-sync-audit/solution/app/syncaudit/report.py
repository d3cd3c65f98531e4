# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The JSON report."""

from __future__ import annotations

import json
import os
from pathlib import Path


def clip_entry(result, dropped: int, duplicated: int) -> dict:
    return {
        "offset_ms": None if result.offset_ms is None else round(float(result.offset_ms), 3),
        "drift_ppm": None if result.drift_ppm is None else round(float(result.drift_ppm), 1),
        "dropped_frames": int(dropped),
        "duplicated_frames": int(duplicated),
        "in_sync": bool(result.in_sync),
        "events": int(len(result.offsets_ms)),
    }


def write(path: str, tolerance_ms: float, clips: dict) -> None:
    report = {"tolerance_ms": float(tolerance_ms), "clips": clips}
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(report, indent=2) + "\n")
    os.replace(tmp, target)
