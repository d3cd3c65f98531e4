"""A task's Compose file: refused while lhtb cannot run what it asks for, honoured where it only takes the
network away (the form `lhtb tasks export --harbor` writes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from taskfactory import write_task

from lhtb.errors import TaskInvalidError
from lhtb.tasks.loader import load_task


def _with_compose(tmp_path: Path, text: str, **kwargs: object) -> Path:
    task = write_task(tmp_path, "composed", **kwargs)  # type: ignore[arg-type]
    (task / "environment" / "docker-compose.yaml").write_text(text)
    return task


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("services:\n  main: {}\n  db:\n    image: postgres\n", "services db: lhtb does not run Compose sidecars"),
        ("services:\n  main:\n    volumes: [./x:/x]\n", "services.main sets volumes"),
        ("services:\n  main:\n    network_mode: host\n", "network_mode 'host'"),
        ("services: [main]\n", "'services' must be a mapping"),
        ("services:\n  main: {\n", "not valid YAML"),
    ],
)
def test_what_lhtb_cannot_run_is_refused_naming_the_file(tmp_path: Path, text: str, message: str) -> None:
    task = _with_compose(tmp_path, text)
    with pytest.raises(TaskInvalidError) as info:
        load_task(task)
    assert str(task / "environment" / "docker-compose.yaml") in str(info.value) and message in str(info.value)


def test_main_without_network_takes_the_network_away(tmp_path: Path) -> None:
    toml = '[environment]\nnetwork_mode = "public"\n'
    task = _with_compose(tmp_path, "services:\n  main:\n    network_mode: none\n", toml=toml)
    assert load_task(task).config.environment.effective_network == "none"


def test_an_exported_task_keeps_no_network_in_lhtb(tmp_path: Path) -> None:
    from lhtb.harbor.task_export import export_task

    source = load_task(write_task(tmp_path / "src", "quiet"))
    assert source.config.environment.effective_network == "none"
    copy = load_task(export_task(source, tmp_path / "out"))
    assert copy.config.environment.effective_network == "none"  # allow_internet is gone; Compose says none
