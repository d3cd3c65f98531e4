# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's reference: heatwave statistics computed from a case's canonical field (never from the files).

``reference(case)`` returns ``{region: stats}`` plus, per region, the smallest distance between an analysis
day's regional mean and its threshold; a region whose margin is under MARGIN is ambiguous (float32 decoding
could flip a day) and the case is redrawn.
"""

from __future__ import annotations

import numpy as np

MARGIN = 2e-4  # degC: ten times what float32 decoding can move a regional mean


def _in_box(lat: np.ndarray, lon: np.ndarray, box: dict) -> np.ndarray:
    south, north = box["lat"]
    west, east = box["lon"]
    lat_ok = (lat >= south) & (lat <= north)
    lon_ok = (lon >= west) & (lon <= east) if west <= east else (lon >= west) | (lon <= east)
    return lat_ok[:, None] & lon_ok[None, :]


def regional_series(case, box: dict) -> np.ndarray:
    mask = _in_box(case.lat, case.lon, box)
    weights = np.broadcast_to(np.cos(np.deg2rad(case.lat))[:, None], mask.shape)[mask]
    cells = case.field[:, mask]  # (time, k)
    valid = np.isfinite(cells)
    num = np.where(valid, cells, 0.0) @ weights
    den = valid.astype(np.float64) @ weights
    out = np.full(len(case.dates), np.nan)
    ok = den > 0
    out[ok] = num[ok] / den[ok]
    return out


def thresholds(dates, series, years, percentile, window) -> dict:
    first, last = years
    idx = [i for i, (y, _m, _d) in enumerate(dates) if first <= y <= last]
    lo, hi = idx[0], idx[-1]
    anchors: dict = {}
    for i in idx:
        anchors.setdefault(dates[i][1:], []).append(i)
    out = {}
    for key, where in anchors.items():
        chosen = np.zeros(len(dates), dtype=bool)
        for a in where:
            chosen[max(lo, a - window):min(hi, a + window) + 1] = True
        values = series[chosen]
        values = values[np.isfinite(values)]
        out[key] = float(np.percentile(values, percentile)) if len(values) else float("nan")
    return out


def reference(case) -> tuple[dict, dict]:
    cfg = case.config
    stats, margins = {}, {}
    first, last = cfg["analysis"]
    days = [i for i, (y, _m, _d) in enumerate(case.dates) if first <= y <= last]
    for box in cfg["regions"]:
        series = regional_series(case, box)
        thr = thresholds(case.dates, series, cfg["baseline"], cfg["percentile"], cfg["window"])
        t = series[days]
        limit = np.array([thr.get(case.dates[i][1:], thr.get((2, 28))) for i in days])
        valid = np.isfinite(t)
        margins[box["name"]] = float(np.min(np.abs(t[valid] - limit[valid])))
        hot = valid & (t > limit)
        spells, run = [], 0
        for k, h in enumerate([*hot, False]):
            if h:
                run += 1
            else:
                if run >= cfg["min_length"]:
                    spells.append((k - run, run))
                run = 0
        event_days = [k for s, n in spells for k in range(s, s + n)]
        first_start = None
        if spells:
            y, m, d = case.dates[days[spells[0][0]]]
            first_start = f"{y:04d}-{m:02d}-{d:02d}"
        stats[box["name"]] = {
            "events": len(spells),
            "longest": max((n for _s, n in spells), default=0),
            "hot_days": len(event_days),
            "degree_days": float(np.sum(t[event_days] - limit[event_days])) if event_days else 0.0,
            "first_event_start": first_start,
            "mean_tmax": float(np.mean(t[valid])),
        }
    return stats, margins
