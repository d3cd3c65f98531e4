"""Figures from result files (matplotlib, Agg backend, imported only when figures are drawn)."""
