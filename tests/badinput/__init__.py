"""The bad-input corpus: malformed tasks and datasets, each with the exact outcome expected (generate.py)."""
