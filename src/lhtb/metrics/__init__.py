"""Evaluation metrics computed from result files only: pass rates, pass@k, bootstrap CIs, rankings, failure modes.

Everything here is pure and deterministic (seeded), so the same result files always give the same numbers.
"""
