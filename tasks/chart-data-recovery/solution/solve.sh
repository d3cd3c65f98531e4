#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: rewrite the defective modules of the digitizer (colour spellings, spine-centre frame
# detection that ignores coloured bars, y inversion and log scale, nearest-colour classification, marker
# centres inside the frame, bars located from the documented layout with negative values, no rounding).
set -euo pipefail
cd /app
cat > /app/digitizer/meta.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading and validating the META.json sidecar that comes with every chart."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_HEX6 = re.compile(r"#?([0-9a-fA-F]{6})")
_HEX3 = re.compile(r"#?([0-9a-fA-F]{3})")
_RGB = re.compile(r"rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)", re.IGNORECASE)


class MetaError(ValueError):
    pass


def parse_color(value) -> tuple[int, int, int]:
    """A series colour as an (r, g, b) tuple of 0..255 ints.

    Accepted spellings: "#1f77b4", "#1F77B4", "1f77b4", "#f00", "rgb(31, 119, 180)", [31, 119, 180].
    """
    if isinstance(value, (list, tuple)) and len(value) == 3:
        rgb = tuple(int(round(float(c))) for c in value)
    elif isinstance(value, str):
        text = value.strip()
        if m := _HEX6.fullmatch(text):
            digits = m.group(1)
            rgb = tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))
        elif m := _HEX3.fullmatch(text):
            rgb = tuple(int(ch * 2, 16) for ch in m.group(1))
        elif m := _RGB.fullmatch(text):
            rgb = tuple(int(m.group(i)) for i in (1, 2, 3))
        else:
            raise MetaError(f"unknown colour spelling {value!r}")
    else:
        raise MetaError(f"unknown colour spelling {value!r}")
    if not all(0 <= c <= 255 for c in rgb):
        raise MetaError(f"colour out of range: {value!r}")
    return rgb


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
PYEOF
cat > /app/digitizer/axes.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Finding the plot area: the rectangle drawn by the four axis spines.

Positions are continuous pixel coordinates measured from the image's top-left corner, where pixel (row r,
column c) covers [r, r+1) x [c, c+1); the centre of row r is r + 0.5.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .imageio import darkness

DARK = 0.55  # a spine pixel is at least this dark


@dataclass
class PlotArea:
    left: float
    right: float
    top: float
    bottom: float

    def inner_rows(self) -> tuple[int, int]:
        """Row indices strictly inside the frame (spines excluded)."""
        return int(np.floor(self.top)) + 2, int(np.ceil(self.bottom)) - 2

    def inner_cols(self) -> tuple[int, int]:
        return int(np.floor(self.left)) + 2, int(np.ceil(self.right)) - 2


def _line_centre(profile: np.ndarray, index: int) -> float:
    """Darkness-weighted centre (in pixel-centre coordinates) of the line around ``index``."""
    low = index
    while low > 0 and profile[low - 1] > 0.15 * profile[index]:
        low -= 1
    high = index
    while high < len(profile) - 1 and profile[high + 1] > 0.15 * profile[index]:
        high += 1
    idx = np.arange(low, high + 1)
    weights = profile[low:high + 1]
    return float((weights * (idx + 0.5)).sum() / weights.sum())


def _two_lines(profile: np.ndarray) -> tuple[int, int]:
    """Indices of the first and last strong peaks of a coverage profile."""
    strong = np.nonzero(profile >= 0.5 * profile.max())[0]
    if len(strong) < 2:
        raise ValueError("could not find the axis frame")
    first, last = int(strong[0]), int(strong[-1])
    # move to the local maximum of each line
    while first + 1 < len(profile) and profile[first + 1] > profile[first]:
        first += 1
    while last - 1 >= 0 and profile[last - 1] > profile[last]:
        last -= 1
    return first, last


def find_plot_area(rgb: np.ndarray) -> PlotArea:
    dark = darkness(rgb)
    grey = (rgb.max(axis=2) - rgb.min(axis=2)) < 50  # spines are black: coloured bars must not count
    # A spine is a long run of dark grey pixels; sum the darkness of such pixels per row / column.
    mask = np.where((dark >= DARK * 0.5) & grey, dark, 0.0)
    rows = mask.sum(axis=1)
    cols = mask.sum(axis=0)
    top_i, bottom_i = _two_lines(rows)
    left_i, right_i = _two_lines(cols)
    return PlotArea(left=_line_centre(cols, left_i), right=_line_centre(cols, right_i),
                    top=_line_centre(rows, top_i), bottom=_line_centre(rows, bottom_i))
PYEOF
cat > /app/digitizer/calibrate.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Mapping between data coordinates and continuous pixel coordinates of the plot area."""

from __future__ import annotations

import math

from .axes import PlotArea


class AxisMap:
    def __init__(self, area: PlotArea, xlim, ylim, yscale: str = "linear") -> None:
        self.area = area
        self.x0, self.x1 = float(xlim[0]), float(xlim[1])
        self.yscale = yscale
        self.y0, self.y1 = (self._fwd(float(ylim[0])), self._fwd(float(ylim[1])))

    def _fwd(self, y: float) -> float:
        return math.log10(y) if self.yscale == "log" else y

    def _inv(self, t: float) -> float:
        return 10.0 ** t if self.yscale == "log" else t

    # data -> pixel ---------------------------------------------------------------------------------------------
    def x_to_col(self, x: float) -> float:
        a = self.area
        return a.left + (x - self.x0) / (self.x1 - self.x0) * (a.right - a.left)

    def y_to_row(self, y: float) -> float:
        a = self.area
        frac = (self._fwd(y) - self.y0) / (self.y1 - self.y0)
        return a.bottom - frac * (a.bottom - a.top)  # rows grow downwards

    # pixel -> data ---------------------------------------------------------------------------------------------
    def row_to_y(self, row: float) -> float:
        a = self.area
        frac = (a.bottom - row) / (a.bottom - a.top)
        return self._inv(self.y0 + frac * (self.y1 - self.y0))

    def col_to_x(self, col: float) -> float:
        a = self.area
        return self.x0 + (col - a.left) / (a.right - a.left) * (self.x1 - self.x0)
PYEOF
cat > /app/digitizer/colors.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Colour classification: which series (if any) a pixel belongs to.

Pixels are assigned to the nearest colour among the series colours and the chart's neutral colours (white
background, grey grid, black text), so antialiased edges split at the half-way mix and JPEG noise is tolerated.
"""

from __future__ import annotations

import numpy as np

NEUTRALS = [(255, 255, 255), (217, 217, 217), (0, 0, 0), (128, 128, 128), (77, 77, 77)]
MAX_DISTANCE = 90.0


def classify(rgb: np.ndarray, series_colors: list[tuple[int, int, int]]) -> np.ndarray:
    """(H, W) int array: index of the series a pixel belongs to, or -1."""
    palette = np.array(list(series_colors) + NEUTRALS, dtype=np.float64)
    diff = rgb[:, :, None, :] - palette[None, None, :, :]
    dist = np.sqrt((diff ** 2).sum(axis=3))
    nearest = dist.argmin(axis=2)
    best = dist.min(axis=2)
    labels = np.where((nearest < len(series_colors)) & (best <= MAX_DISTANCE), nearest, -1)
    return labels


def series_mask(labels: np.ndarray, index: int) -> np.ndarray:
    return labels == index
PYEOF
cat > /app/digitizer/lines.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Line charts with a marker at every data point: the value at x is the centre of that point's marker."""

from __future__ import annotations

import numpy as np

from .calibrate import AxisMap


def _runs(rows: np.ndarray) -> list[tuple[int, int]]:
    if len(rows) == 0:
        return []
    breaks = np.nonzero(np.diff(rows) > 1)[0]
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(rows) - 1]))
    return [(int(rows[s]), int(rows[e])) for s, e in zip(starts, ends)]


def point_row(mask: np.ndarray, col: int, row_lo: int, row_hi: int, expect: float | None) -> float | None:
    """Centre row of the marker in column ``col`` (the longest run of series pixels), or None."""
    for offset in (0, -1, 1, -2, 2, -3, 3):
        c = col + offset
        if c < 0 or c >= mask.shape[1]:
            continue
        rows = np.nonzero(mask[row_lo:row_hi + 1, c])[0] + row_lo
        runs = _runs(rows)
        if not runs:
            continue
        if expect is not None:
            runs.sort(key=lambda r: (-(r[1] - r[0]), abs((r[0] + r[1]) / 2 - expect)))
        else:
            runs.sort(key=lambda r: -(r[1] - r[0]))
        start, end = runs[0]
        return (start + end) / 2.0 + 0.5
    return None


def extract_lines(labels: np.ndarray, axis: AxisMap, xs: list[float], n_series: int) -> list[list[float]]:
    row_lo, row_hi = axis.area.inner_rows()
    out = []
    for s in range(n_series):
        mask = labels == s
        values: list[float | None] = []
        for x in xs:
            col = int(np.floor(axis.x_to_col(x)))
            row = point_row(mask, col, row_lo, row_hi, None)
            values.append(None if row is None else axis.row_to_y(row))
        out.append(_fill_gaps(values, xs))
    return out


def _fill_gaps(values: list[float | None], xs: list[float]) -> list[float]:
    known = [(x, v) for x, v in zip(xs, values) if v is not None]
    if not known:
        return [0.0 for _ in values]
    kx = [k[0] for k in known]
    kv = [k[1] for k in known]
    return [v if v is not None else float(np.interp(x, kx, kv)) for x, v in zip(xs, values)]
PYEOF
cat > /app/digitizer/bars.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Grouped bar charts: category i is centred at x = i; inside a group the series' bars sit side by side, in
series order, each ``group_width / n_series`` wide. A bar starts at y = 0 and ends at its value."""

from __future__ import annotations

import numpy as np

from .calibrate import AxisMap


def bar_centres(n_categories: int, n_series: int, group_width: float) -> list[list[float]]:
    width = group_width / n_series
    return [[i - group_width / 2 + (j + 0.5) * width for i in range(n_categories)] for j in range(n_series)]


def bar_value(mask: np.ndarray, axis: AxisMap, col: int, row_lo: int, row_hi: int) -> float:
    zero_row = axis.y_to_row(0.0) if axis.yscale == "linear" else axis.area.bottom
    column = mask[row_lo:row_hi + 1, col]
    rows = np.nonzero(column)[0] + row_lo
    if len(rows) == 0:
        return 0.0
    above = rows[rows + 0.5 < zero_row]
    below = rows[rows + 0.5 > zero_row]
    if len(above) >= len(below):
        edge = float(above.min())  # top edge of the topmost bar pixel
    else:
        edge = float(below.max()) + 1.0  # bottom edge of the lowest bar pixel
    return axis.row_to_y(edge)


def extract_bars(labels: np.ndarray, axis: AxisMap, n_categories: int, n_series: int,
                 group_width: float) -> list[list[float]]:
    row_lo, row_hi = axis.area.inner_rows()
    out = []
    for s, centres in enumerate(bar_centres(n_categories, n_series, group_width)):
        mask = labels == s
        out.append([bar_value(mask, axis, int(np.floor(axis.x_to_col(x))), row_lo, row_hi) for x in centres])
    return out
PYEOF
cat > /app/digitizer/report.py <<'PYEOF'
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
    return float(value) if math.isfinite(value) else 0.0


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
PYEOF
python3 -m pytest -q /app/tests
