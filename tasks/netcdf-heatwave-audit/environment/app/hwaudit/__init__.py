# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""hwaudit: regional heatwave statistics from daily gridded maximum-temperature NetCDF files."""

__version__ = "0.4.1"
