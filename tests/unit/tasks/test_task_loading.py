from pathlib import Path

import pytest

from lhtb.errors import TaskInvalidError
from lhtb.tasks.loader import load_task, scan_dataset, select_tasks


def test_valid_task_loads_with_defaults(make_task) -> None:
    task = load_task(make_task("ok"))
    assert task.name == "ok"
    assert task.config.metadata.category == "smoke"
    assert task.config.environment.workdir == "/app"
    assert task.config.artifact_paths == ["/app"]
    assert task.config.environment.effective_network == "none"


def test_unknown_key_names_file_and_key(make_task) -> None:
    path = make_task("typo", toml="[agent]\n")  # duplicate table is a TOML error, checked below
    with pytest.raises(TaskInvalidError, match="invalid TOML"):
        load_task(path)
    path = make_task("typo2")
    text = (
        (path / "task.toml")
        .read_text()
        .replace("timeout_sec = 60\n", "timeout_sec = 60\ncontinue_untill_timeout = true\n", 1)
    )
    (path / "task.toml").write_text(text)
    with pytest.raises(TaskInvalidError) as info:
        load_task(path)
    assert str(path / "task.toml") in str(info.value)
    assert "unknown key 'agent.continue_untill_timeout'" in str(info.value)


def test_harbor_keys_are_accepted(make_task) -> None:
    path = make_task(
        "harbor",
        top='version = "1.1"\nartifacts = ["/app", "/data/out"]\n',
        toml=(
            "[environment]\nbuild_timeout_sec = 100\ncpus = 2\nmemory_mb = 512\nstorage_mb = 1000\ngpus = 0\n"
            'allow_internet = false\nworkdir = "/work"\nenv = {A = "1"}\n[solution]\nenv = {B = "2"}\n'
            '[task]\nname = "renamed"\n'
        ),
    )
    task = load_task(path)
    assert task.name == "renamed"
    assert task.config.artifact_paths == ["/app", "/data/out"]
    assert task.config.environment.cpus == 2


@pytest.mark.parametrize(
    ("top", "extra", "message"),
    [
        ("", '[environment]\nworkdir = "relative"\n', "'environment.workdir': .*absolute path"),
        ("", "[agent]\n", "invalid TOML"),
        ('artifacts = ["/app/../etc"]\n', "", "'artifacts': .*without '..'"),
        ('version = "2.0"\n', "", "'version': .*unsupported"),
        ("", "[environment]\ncpus = -1\n", "'environment.cpus'"),
    ],
)
def test_bad_values_are_named(make_task, top: str, extra: str, message: str) -> None:
    with pytest.raises(TaskInvalidError, match=message):
        load_task(make_task("bad", top=top, toml=extra))


def test_missing_required_file_is_named(make_task) -> None:
    path = make_task("nofile")
    (path / "tests" / "test.sh").unlink()
    with pytest.raises(TaskInvalidError, match=r"tests/test.sh: required file is missing"):
        load_task(path)


def test_dataset_reports_invalid_tasks_without_skipping(make_task) -> None:
    make_task("a-good")
    bad = make_task("b-bad")
    (bad / "task.toml").write_text('version = "1.0"\n[agent]\ncolour = "red"\n')
    loads = scan_dataset(make_task.root)
    assert [load.path.name for load in loads] == ["a-good", "b-bad"]
    assert loads[0].task is not None and loads[0].error is None
    assert loads[1].task is None and "unknown key 'agent.colour'" in (loads[1].error or "")


def test_select_unknown_task_name(make_task) -> None:
    make_task("only")
    with pytest.raises(TaskInvalidError, match="unknown task name"):
        select_tasks(scan_dataset(make_task.root), ["other"])


def test_missing_dataset(tmp_path: Path) -> None:
    with pytest.raises(TaskInvalidError, match="no such task"):
        scan_dataset(tmp_path / "absent")
