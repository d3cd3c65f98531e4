"""Run pytest on a task's hidden tests so that nothing planted in the artifacts can change the outcome.

Use from test.sh as ``python3 -P -m lhtb.grading.pytest_runner /tests/test_x.py [more pytest args]``:
- ``-P`` keeps the current directory (the agent's workdir) off ``sys.path``: a planted ``pytest.py``,
  ``sitecustomize.py`` or package shadowing a real one is never imported;
- ``--rootdir`` and ``--confcutdir`` pin conftest discovery to ``/tests``: ``conftest.py`` in the workdir is
  never loaded; ``-c`` pins the configuration to the task's own ini file (or none): a planted ``pytest.ini``,
  ``tox.ini``, ``setup.cfg`` or ``pyproject.toml`` is ignored;
- ``-p no:cacheprovider`` writes no ``.pytest_cache``; plugin autoloading is off (PYTEST_DISABLE_PLUGIN_AUTOLOAD
  is set by the harness).
The harness also sets PYTHONNOUSERSITE, PYTHONDONTWRITEBYTECODE and PYTHONPATH itself (docs/long-horizon.md).
"""

from __future__ import annotations

import os
import sys

TESTS_DIR = os.environ.get("LHTB_TESTS_DIR", "/tests")


def safe_args(user_args: list[str], tests_dir: str = TESTS_DIR) -> list[str]:
    ini = os.path.join(tests_dir, "pytest.ini")
    config = ini if os.path.isfile(ini) else os.devnull
    return [
        "-p",
        "no:cacheprovider",
        f"--rootdir={tests_dir}",
        f"--confcutdir={tests_dir}",
        "-c",
        config,
        *user_args,
    ]


def main() -> int:
    cwd = os.path.realpath(os.getcwd())
    sys.path[:] = [p for p in sys.path if p and os.path.realpath(p) != cwd]
    import pytest

    return int(pytest.main(safe_args(sys.argv[1:])))


if __name__ == "__main__":
    sys.exit(main())
