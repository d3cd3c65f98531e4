# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The churn-score method of paper.md: table loading, preprocessing, target encoding, model and calibration."""
