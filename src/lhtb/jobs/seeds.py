"""Verify seeds: which hidden cases a trial is graded on.

A job draws one seed (or takes ``--verify-seed``) and every trial derives its own from it, the task and the
attempt number, so hidden cases differ from trial to trial and cannot be memorised, yet a job re-run with the
same job seed grades every trial on the same cases. Agents compared in one job face the same cases on the
same attempt (a paired comparison), and a retried trial keeps its seed.
"""

from __future__ import annotations

import hashlib
import secrets

MAX_SEED = 2**63 - 1  # fits every verifier's integer parsing (and numpy's seeds, after a modulo)


def new_job_seed() -> int:
    return secrets.randbelow(MAX_SEED + 1)


def trial_seed(job_seed: int, task_name: str, attempt: int) -> int:
    """The LHTB_VERIFY_SEED of every verification of one trial."""
    digest = hashlib.sha256(f"lhtb-verify-seed\0{job_seed}\0{task_name}\0{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED
