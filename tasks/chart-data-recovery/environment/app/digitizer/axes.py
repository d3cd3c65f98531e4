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
    # A spine is a long run of dark pixels; sum the darkness of dark-enough pixels per row / column.
    mask = np.where(dark >= DARK * 0.5, dark, 0.0)
    rows = mask.sum(axis=1)
    cols = mask.sum(axis=0)
    top_i, bottom_i = _two_lines(rows)
    left_i, right_i = _two_lines(cols)
    return PlotArea(left=float(left_i), right=float(right_i), top=float(top_i), bottom=float(bottom_i))
