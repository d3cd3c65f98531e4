"""lhtb.grading runs on a bare python3: stdlib only, and a crashing verifier script leaves no reward.json."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import lhtb

SRC_DIR = Path(lhtb.__file__).resolve().parents[1]


def run_python(code: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with -I -S (no PYTHONPATH, no user site, no site-packages): stdlib plus src/ only."""
    prelude = f"import sys; sys.path.insert(0, {str(SRC_DIR)!r})\n"
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", prelude + textwrap.dedent(code), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_grading_imports_only_the_standard_library(tmp_path: Path) -> None:
    code = """
        import sys
        before = set(sys.modules)
        import lhtb.grading
        from lhtb.grading import Scorecard, stress
        card = Scorecard(sys.argv[1])
        card.binary("a", 1, True)
        card.banded("b", 1, 2.0, bands=[(1, 0), (3, 1)])
        card.write()
        stress.cases(1, 2, lambda r, i: stress.noise(r, [1.0], 0.1))
        new = sorted(set(sys.modules) - before)
        stdlib = sys.stdlib_module_names
        foreign = [m for m in new if m.split(".")[0] not in stdlib and m.split(".")[0] != "lhtb"]
        lhtb_modules = [m for m in new if m.startswith("lhtb.") and not m.startswith("lhtb.grading")]
        print("FOREIGN", foreign, "OTHER_LHTB", lhtb_modules, "PYDANTIC", "pydantic" in sys.modules)
    """
    result = run_python(code, str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "FOREIGN [] OTHER_LHTB [] PYDANTIC False" in result.stdout
    assert (tmp_path / "out" / "reward.json").is_file()


def test_pydantic_is_not_even_importable_in_isolated_mode(tmp_path: Path) -> None:
    # guards the test above: -I -S really hides the venv's site-packages
    result = run_python("import pydantic", cwd=tmp_path)
    assert result.returncode != 0
    assert "ModuleNotFoundError" in result.stderr


def test_crash_before_write_leaves_no_reward_file(tmp_path: Path) -> None:
    code = """
        import sys
        from lhtb.grading import Scorecard
        card = Scorecard(sys.argv[1])
        card.binary("public_check", 1, True, visibility="public")
        card.fraction("hidden_cases", 3, [True, True])
        raise RuntimeError("the verifier itself is broken")
        card.write()
    """
    out_dir = tmp_path / "verifier"
    result = run_python(code, str(out_dir), cwd=tmp_path)
    assert result.returncode == 1
    assert "the verifier itself is broken" in result.stderr
    assert not (out_dir / "reward.json").exists()
    assert not out_dir.exists() or list(out_dir.iterdir()) == []


def test_author_mistake_crashes_the_script_and_leaves_no_reward_file(tmp_path: Path) -> None:
    code = """
        import sys
        from lhtb.grading import Scorecard
        card = Scorecard(sys.argv[1])
        card.binary("ok", 1, True)
        card.banded("speed", 1, 2.0, bands=[(4, 1), (1, 0)])
        card.write()
    """
    out_dir = tmp_path / "verifier"
    result = run_python(code, str(out_dir), cwd=tmp_path)
    assert result.returncode == 1
    assert "GradingError: subtask 'speed'" in result.stderr
    assert not (out_dir / "reward.json").exists()


def test_check_failure_inside_a_script_still_writes(tmp_path: Path) -> None:
    code = """
        import sys
        from lhtb.grading import Scorecard
        card = Scorecard(sys.argv[1])
        card.binary("ok", 1, True)
        card.continuous("missing_output", 1, lambda: open("/nonexistent/out.txt").read(),
                        target=0, tolerance=0, bound=1)
        card.write()
    """
    out_dir = tmp_path / "verifier"
    result = run_python(code, str(out_dir), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    document = json.loads((out_dir / "reward.json").read_text())
    assert document["reward"] == 0.5
    assert document["subtasks"][1]["detail"].startswith("error: FileNotFoundError")
