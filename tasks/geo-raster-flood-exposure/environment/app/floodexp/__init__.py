# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""floodexp: people and area exposed to flooding per administrative zone, from three rasters."""

__version__ = "0.4.0"
