"""lhtb: Long-Horizon Terminal-Bench.

Kept import-free on purpose: verifier containers import ``lhtb.grading`` from a read-only copy of this package
with only the standard library available, and the CLI must start fast.
"""

__version__ = "0.1.0"
