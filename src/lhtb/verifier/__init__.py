"""Harness side of verification: run a task's verifier and turn what it wrote into a validated reward."""
