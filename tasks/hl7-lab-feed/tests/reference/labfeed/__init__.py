# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""labfeed: HL7 v2 ORU^R01 laboratory result feeds -> harmonised results, critical-value alerts, summary."""
