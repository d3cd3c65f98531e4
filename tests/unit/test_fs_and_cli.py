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


def test_tasks_list_json_is_for_scripts(make_task) -> None:
    from lhtb.tasks.listing import TaskList

    make_task("good")
    bad = make_task("bad")
    (bad / "task.toml").write_text("[agent]\ntimeout = 5\n")
    result = CliRunner().invoke(app, ["tasks", "list", "-p", str(make_task.root), "--json"])
    assert result.exit_code == 1
    listing = TaskList.model_validate_json(result.stdout)
    by_name = {task.name: task for task in listing.tasks}
    assert by_name["good"].valid and by_name["good"].errors == [] and by_name["good"].agent_timeout_sec is not None
    assert (
        not by_name["bad"].valid and "task.toml" in by_name["bad"].errors[0] and "timeout" in by_name["bad"].errors[0]
    )


def test_tasks_list_keeps_long_names_whole_in_80_columns(make_task) -> None:
    long_name = "a-long-task-name-for-a-narrow-terminal-x"
    task = make_task("long")
    (task / "task.toml").write_text(f'[task]\nname = "{long_name}"\n' + (task / "task.toml").read_text())
    result = CliRunner().invoke(app, ["tasks", "list", "-p", str(make_task.root)], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert long_name in result.output and "…" not in result.output


def test_run_unknown_agent_is_a_clear_error(make_task) -> None:
    make_task("good")
    result = CliRunner().invoke(app, ["run", "-p", str(make_task.root), "-a", "wizard"])
    assert result.exit_code == 2
    assert "unknown agent" in result.output
