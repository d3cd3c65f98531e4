"""Harness side of verification: run a task's verifier and turn what it wrote into a validated reward."""

# What the host side of verification means for a grade: which files reach the verifier, how its reward file is
# read and validated, its timeouts and user. Bump it with any change to that meaning: the QA lock hashes this
# number (not this package's source, which also holds plumbing), so every task's entry becomes stale.
VERIFIER_PROTOCOL = 1
