# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A small inventory and orders HTTP JSON service on PostgreSQL."""
