# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading and validating the META.json sidecar that comes with every chart."""

from __future__ import annotations

import json
from dataclasses import dataclass, field



class MetaError(ValueError):
    pass


def parse_color(value) -> tuple[int, int, int]:
    """A series colour as an (r, g, b) tuple of 0..255 ints, from a "#rrggbb" string."""
    text = str(value)
    if not text.startswith("#") or len(text) != 7:
        raise MetaError(f"unknown colour spelling {value!r}")
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


@dataclass
class Series:
    name: str
    color: tuple[int, int, int]


@dataclass
class ChartMeta:
    kind: str
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    yscale: str
    series: list[Series]
    x: list[float] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    group_width: float = 0.8


def load_meta(path) -> ChartMeta:
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    kind = raw.get("kind")
    if kind not in ("line", "bar"):
        raise MetaError(f"kind must be 'line' or 'bar', got {kind!r}")
    yscale = raw.get("yscale", "linear")
    if yscale not in ("linear", "log"):
        raise MetaError(f"yscale must be 'linear' or 'log', got {yscale!r}")
    xlim = tuple(float(v) for v in raw["xlim"])
    ylim = tuple(float(v) for v in raw["ylim"])
    if yscale == "log" and min(ylim) <= 0:
        raise MetaError("a log axis needs positive limits")
    series = [Series(str(s["name"]), parse_color(s["color"])) for s in raw["series"]]
    meta = ChartMeta(kind, xlim, ylim, yscale, series)
    if kind == "line":
        meta.x = [float(v) for v in raw["x"]]
    else:
        meta.categories = [str(c) for c in raw["categories"]]
        meta.group_width = float(raw.get("group_width", 0.8))
    return meta
