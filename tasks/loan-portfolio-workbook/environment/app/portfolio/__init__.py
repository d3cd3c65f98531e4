# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""portfolio: loan-tape reading and credit-risk reporting."""
