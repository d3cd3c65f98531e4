# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Running the whole pipeline and shaping the output JSON."""

from __future__ import annotations

import math

from .axes import find_plot_area
from .bars import extract_bars
from .calibrate import AxisMap
from .colors import classify
from .imageio import load_rgb
from .lines import extract_lines
from .meta import load_meta


def _clean(value: float) -> float:
    return round(float(value), 2) if math.isfinite(value) else 0.0


def digitize(png_path, meta_path) -> dict:
    meta = load_meta(meta_path)
    rgb = load_rgb(png_path)
    area = find_plot_area(rgb)
    axis = AxisMap(area, meta.xlim, meta.ylim, meta.yscale)
    labels = classify(rgb, [s.color for s in meta.series])
    if meta.kind == "line":
        values = extract_lines(labels, axis, meta.x, len(meta.series))
    else:
        values = extract_bars(labels, axis, len(meta.categories), len(meta.series), meta.group_width)
    return build_report(meta, values)


def build_report(meta, values) -> dict:
    return {"series": {s.name: [_clean(v) for v in vals] for s, vals in zip(meta.series, values)}}
