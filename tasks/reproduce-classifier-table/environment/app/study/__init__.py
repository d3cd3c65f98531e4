# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Loan-risk classifier comparison (see paper.md)."""
