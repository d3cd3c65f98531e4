"""Export to Harbor: what the copy holds (the integration test runs it in stock Harbor)."""

from __future__ import annotations

import filecmp
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from taskfactory import REPO, write_task

from lhtb.errors import ConfigError
from lhtb.harbor import reward_shim
from lhtb.harbor.task_export import NO_NETWORK_COMPOSE, REWARD_SHIM, TASK_TEST, VENDOR_DIR, export_task
from lhtb.tasks.loader import load_task

SAMPLE = REPO / "tasks" / "sample-sales-report"


def test_sample_task_exports_with_lhtb_choices_written_out(tmp_path: Path) -> None:
    dest = export_task(load_task(SAMPLE), tmp_path)
    text = (dest / "task.toml").read_text()
    config = tomllib.loads(text)
    assert config["task"]["name"] == "lhtb/sample-sales-report"
    assert config["verifier"]["environment_mode"] == "separate"
    assert config["environment"]["workdir"] == "/app"
    assert config["environment"]["memory_mb"] == 1024  # kept as the task wrote it
    assert config["artifacts"] == ["/app"]
    assert "lhtb-canary GUID" in text  # comments survive
    assert (dest / "environment" / "docker-compose.yaml").read_text() == NO_NETWORK_COMPOSE
    assert (dest / "tests" / TASK_TEST).read_text() == (SAMPLE / "tests" / "test.sh").read_text()
    wrapper = (dest / "tests" / "test.sh").read_text()
    assert f"bash /tests/{TASK_TEST}" in wrapper and "cd /app" in wrapper
    vendored = dest / "tests" / VENDOR_DIR / "lhtb" / "grading"
    source = REPO / "src" / "lhtb" / "grading"
    for module in source.glob("*.py"):
        assert filecmp.cmp(module, vendored / module.name, shallow=False), module.name
    assert not list(vendored.rglob("__pycache__"))
    assert load_task(dest).name == "lhtb/sample-sales-report"  # the copy is still an lhtb task


def test_lhtb_choices_are_written_out_where_harbors_defaults_differ(tmp_path: Path) -> None:
    task = write_task(tmp_path / "src", "plain")  # states a separate verifier and no network, as lhtb's tasks do
    dest = export_task(load_task(task), tmp_path / "out", org="acme")
    config = tomllib.loads((dest / "task.toml").read_text())
    assert config["task"]["name"] == "acme/plain"
    assert config["verifier"]["environment_mode"] == "separate"
    assert "allow_internet" not in config["environment"]  # Harbor's Docker would refuse no-network: Compose does it
    assert (dest / "environment" / "docker-compose.yaml").read_text() == NO_NETWORK_COMPOSE
    assert config["environment"]["build_timeout_sec"] == 900  # Harbor: 600
    assert config["environment"]["cpus"] == 1 and config["environment"]["memory_mb"] == 2048  # Harbor: none


def test_a_silent_task_keeps_harbors_meaning(tmp_path: Path) -> None:
    task = write_task(tmp_path / "src", "silent", lhtb_choices=False)
    dest = export_task(load_task(task), tmp_path / "out")
    config = tomllib.loads((dest / "task.toml").read_text())
    assert config["verifier"]["environment_mode"] == "shared"  # Harbor's default, lhtb's for a silent task too
    assert not (dest / "environment" / "docker-compose.yaml").exists()  # the public network, as in Harbor


def test_networked_task_gets_no_compose_override(tmp_path: Path) -> None:
    task = write_task(tmp_path / "src", "online", toml='[environment]\nnetwork_mode = "public"\n')
    dest = export_task(load_task(task), tmp_path / "out")
    assert not (dest / "environment" / "docker-compose.yaml").exists()


def test_export_replaces_a_previous_copy_and_refuses_bad_orgs(tmp_path: Path) -> None:
    task = load_task(SAMPLE)
    first = export_task(task, tmp_path)
    (first / "stale.txt").write_text("old")
    second = export_task(task, tmp_path)
    assert second == first and not (second / "stale.txt").exists()
    assert not list(tmp_path.glob(".*.export"))
    with pytest.raises(ConfigError, match="--org"):
        export_task(task, tmp_path, org="Bad Org/")
    with pytest.raises(ConfigError, match="exported twice"):
        export_task(load_task(second), tmp_path / "again")


def test_reward_shim_writes_the_headline_lhtb_computes(tmp_path: Path) -> None:
    scorecard = tmp_path / "lhtb.json"
    scorecard.write_text(
        json.dumps(
            {
                "schema": "lhtb.reward/1",
                "reward": 0.75,
                "subtasks": [
                    {"name": "a", "weight": 1, "score": 1.0, "kind": "binary", "visibility": "public", "detail": ""},
                    {
                        "name": "b",
                        "weight": 3,
                        "score": 2 / 3,
                        "kind": "fraction",
                        "visibility": "hidden",
                        "detail": "",
                    },
                ],
            }
        )
    )
    target = tmp_path / "reward.json"
    shim = Path(reward_shim.__file__)
    subprocess.run([sys.executable, str(shim), str(scorecard), str(target)], check=True)
    assert json.loads(target.read_text()) == {"reward": 0.75}
    missing = subprocess.run([sys.executable, str(shim), str(tmp_path / "none.json"), str(tmp_path / "r2.json")])
    assert missing.returncode == 1 and not (tmp_path / "r2.json").exists()
    seed = subprocess.run([sys.executable, str(shim), "--new-seed"], capture_output=True, text=True, check=True)
    assert 0 <= int(seed.stdout) < 2**63
    assert REWARD_SHIM == "harbor_reward.py"


def test_a_task_silent_on_its_workdir_leaves_it_to_the_image(tmp_path: Path) -> None:
    """The workdir stays the image's; the artifact lhtb gives a separate verifier (that workdir) is written out
    when the Dockerfile says it, so Harbor's verifier gets it too; unknown without building, it is left out."""
    task = load_task(write_task(tmp_path / "src", "wd"))  # its Dockerfile: WORKDIR /app
    assert task.config.environment.workdir_from_image
    config = tomllib.loads((export_task(task, tmp_path / "out") / "task.toml").read_text())
    assert "workdir" not in config["environment"] and config["artifacts"] == ["/app"]
    unknown = load_task(write_task(tmp_path / "src", "base", dockerfile="FROM lhtb/python:bookworm\n"))
    config = tomllib.loads((export_task(unknown, tmp_path / "out") / "task.toml").read_text())
    assert "artifacts" not in config  # the base image's WORKDIR: not known without building
    stated = task.with_workdir("/srv")
    assert not stated.config.environment.workdir_from_image
    assert stated.config.environment.workdir == "/srv" and stated.config.artifact_paths == ["/srv"]


def test_each_steps_own_test_script_is_wrapped(tmp_path: Path) -> None:
    """Harbor lays a step's tests/ over the task's: a step's own test.sh is wrapped like the task's, so a step
    graded with lhtb's scorecard gets Harbor's flat reward too; the SDK is vendored once, in tests/."""
    from taskfactory import write_multi_step_task

    task = write_multi_step_task(tmp_path / "tasks", "ms")
    dest = export_task(load_task(task), tmp_path / "out")
    for tests in (dest / "tests", dest / "steps" / "create" / "tests", dest / "steps" / "extend" / "tests"):
        original = task / tests.relative_to(dest) / "test.sh"
        assert (tests / TASK_TEST).read_text() == original.read_text()
        assert f"bash /tests/{TASK_TEST}" in (tests / "test.sh").read_text()
    assert not (dest / "steps" / "finish" / "tests").exists()  # it uses the task's
    assert (dest / "tests" / VENDOR_DIR / REWARD_SHIM).is_file()
    assert not (dest / "steps" / "create" / "tests" / VENDOR_DIR).exists()
