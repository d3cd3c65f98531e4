# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Per-region heatwave statistics and the JSON report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .cfdates import format_day
from .climatology import threshold_of, thresholds
from .config import Config
from .record import Record
from .spells import find_spells, hot_days


def region_stats(record: Record, name: str, config: Config) -> dict:
    series = record.series[name]
    table = thresholds(record.days, series, config.baseline, config.percentile, config.window)
    first, last = config.analysis
    idx = [i for i, (y, _m, _d) in enumerate(record.days) if first <= y <= last]
    values = series[idx]
    limits = np.array([threshold_of(table, record.days[i]) for i in idx])
    hot = hot_days(values, limits)
    spells = find_spells(hot, config.min_length)
    return {
        "events": len(spells),
        "longest": max((length for _s, length in spells), default=0),
        "hot_days": int(sum(length for _s, length in spells)),
        "degree_days": float(np.sum((values - limits)[hot])),
        "first_event_start": format_day(record.days[idx[spells[0][0]]]) if spells else None,
        "mean_tmax": float(np.mean(values)),
    }


def build_report(record: Record, config: Config) -> dict:
    return {"regions": {r.name: region_stats(record, r.name, config) for r in config.regions}}


def write_report(report: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
