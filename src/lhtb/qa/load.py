"""A CPU hog for the load gate: one busy process per core while the oracle is graded, two gradings at a time.

Grading must not depend on how busy the machine is; a verifier whose per-run timeouts or timing assumptions
only hold on an idle machine fails here instead of in a researcher's sweep.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator

# Busy until stopped, or until its parent (the harness) is gone: a killed check leaves no spinner behind.
_SPIN = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"


@contextlib.asynccontextmanager
async def cpu_hog(processes: int | None = None) -> AsyncIterator[int]:
    count = processes or os.cpu_count() or 1
    spinners = [
        subprocess.Popen([sys.executable, "-c", _SPIN], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        for _ in range(count)
    ]
    try:
        yield count
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()
