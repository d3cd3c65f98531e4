# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Debug overlays: draw what the digitizer found on top of the chart, to check it by eye.

    python3 -m digitizer.overlay CHART.png META.json OUT.png

Draws the detected plot frame in magenta, a small cross at every recovered point (line charts) or a tick at
every recovered bar end (bar charts), and the pixel masks of every series tinted at 50 %.
"""

from __future__ import annotations

import sys

import numpy as np
from PIL import Image, ImageDraw

from .axes import find_plot_area
from .bars import bar_centres
from .calibrate import AxisMap
from .colors import classify
from .imageio import load_rgb
from .meta import load_meta
from .report import digitize

FRAME = (255, 0, 255)
MARK = (0, 0, 0)


def _tint(rgb: np.ndarray, labels: np.ndarray, n_series: int) -> np.ndarray:
    out = rgb.copy()
    tints = [(255, 0, 0), (0, 160, 0), (0, 0, 255), (200, 0, 200), (0, 180, 180)]
    for s in range(n_series):
        mask = labels == s
        out[mask] = 0.5 * out[mask] + 0.5 * np.array(tints[s % len(tints)], dtype=np.float64)
    return out


def _cross(draw: ImageDraw.ImageDraw, col: float, row: float, size: int = 4) -> None:
    draw.line([(col - size, row), (col + size, row)], fill=MARK, width=1)
    draw.line([(col, row - size), (col, row + size)], fill=MARK, width=1)


def make_overlay(png_path, meta_path, out_path) -> None:
    meta = load_meta(meta_path)
    rgb = load_rgb(png_path)
    area = find_plot_area(rgb)
    axis = AxisMap(area, meta.xlim, meta.ylim, meta.yscale)
    labels = classify(rgb, [s.color for s in meta.series])
    image = Image.fromarray(np.clip(_tint(rgb, labels, len(meta.series)), 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    draw.rectangle([area.left, area.top, area.right, area.bottom], outline=FRAME, width=1)
    result = digitize(png_path, meta_path)["series"]
    for j, series in enumerate(meta.series):
        values = result.get(series.name, [])
        if meta.kind == "line":
            xs = meta.x
        else:
            xs = bar_centres(len(meta.categories), len(meta.series), meta.group_width)[j]
        for x, value in zip(xs, values):
            try:
                row = axis.y_to_row(value)
            except (ValueError, ZeroDivisionError):
                continue
            _cross(draw, axis.x_to_col(x), row)
    image.save(out_path)


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print("usage: python3 -m digitizer.overlay CHART.png META.json OUT.png", file=sys.stderr)
        return 2
    make_overlay(argv[1], argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
