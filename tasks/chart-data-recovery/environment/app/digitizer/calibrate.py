# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Mapping between data coordinates and continuous pixel coordinates of the plot area."""

from __future__ import annotations

from .axes import PlotArea


class AxisMap:
    def __init__(self, area: PlotArea, xlim, ylim, yscale: str = "linear") -> None:
        self.area = area
        self.x0, self.x1 = float(xlim[0]), float(xlim[1])
        self.yscale = yscale
        self.y0, self.y1 = float(ylim[0]), float(ylim[1])

    def _fwd(self, y: float) -> float:
        return y

    def _inv(self, t: float) -> float:
        return t

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
        frac = (row - a.top) / (a.bottom - a.top)
        return self._inv(self.y0 + frac * (self.y1 - self.y0))

    def col_to_x(self, col: float) -> float:
        a = self.area
        return self.x0 + (col - a.left) / (a.right - a.left) * (self.x1 - self.x0)
