import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import lhtb
from lhtb.cli.app import app
from lhtb.fs import write_model_atomic, write_text_atomic
from lhtb.results.models import AgentSpec


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.json"
    write_text_atomic(target, "old")
    write_model_atomic(target, AgentSpec(name="oracle"))
    assert json.loads(target.read_text())["name"] == "oracle"
    assert [p.name for p in target.parent.iterdir()] == ["f.json"]  # no temp files left


def test_version_and_help() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["--version"]).output.strip() == f"lhtb {lhtb.__version__}"
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "run" in result.output


def test_cli_imports_stay_lazy() -> None:
    """`lhtb --help` must not import docker, pydantic models of results, or the trial machinery."""
    code = "import sys; from lhtb.cli.app import app; print(sorted(m for m in sys.modules if m.split('.')[0] in ('docker', 'litellm')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_tasks_list_reports_invalid(make_task) -> None:
    make_task("good")
    bad = make_task("bad")
    (bad / "task.toml").write_text("[agent]\ntimeout = 5\n")
    result = CliRunner().invoke(app, ["tasks", "list", "-p", str(make_task.root)])
    assert result.exit_code == 1
    assert "good" in result.output and "unknown key" in result.output


def test_run_unknown_agent_is_a_clear_error(make_task) -> None:
    make_task("good")
    result = CliRunner().invoke(app, ["run", "-p", str(make_task.root), "-a", "wizard"])
    assert result.exit_code == 2
    assert "unknown agent" in result.output
