# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""chartdig: recover the data series behind rendered line and bar charts.

Pipeline: meta.load_meta -> imageio.load_rgb -> axes.find_plot_area -> calibrate.AxisMap ->
lines.extract_lines / bars.extract_bars -> report.build_report.
"""

__version__ = "0.4.1"
