"""A task's Compose file: sidecars accepted (tests/integration/test_compose_sidecars.py runs them), what would
break lhtb's guarantees refused naming file and key, main without network honoured (the form `lhtb tasks export
--harbor` writes)."""

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
        ("services:\n  db:\n    image: pg\n    ports: ['5432:5432']\n", "services.db sets ports"),
        ("services:\n  db:\n    image: pg\n    privileged: true\n", "services.db sets privileged"),
        ("services:\n  db:\n    image: pg\n    network_mode: host\n", "services.db sets network_mode"),
        ("services:\n  db:\n    image: pg\n    volumes: [/:/host]\n", "services.db sets volumes"),
        ("services:\n  db:\n    image: pg\n    container_name: db\n", "container_name: a fixed name"),
        ("services:\n  db:\n    image: pg\n    depends_on: [main]\n", "depends_on main"),
        ("services:\n  db:\n    command: x\n", "services.db has neither image nor build"),
        ("services:\n  db:\n    image: pg\nvolumes:\n  data: {}\n", "the file sets volumes"),
        ("services:\n  main:\n    network_mode: none\n  db:\n    image: pg\n", "main could not reach them"),
        ("services:\n  main:\n    image: other\n", "services.main.image"),
        ("services:\n  db:\n    build: ../../\n", "services.db.build '../../': outside"),
        ("services:\n  db:\n    build: {context: /etc}\n", "services.db.build '/etc': outside"),
        ("services:\n  db:\n    image: pg\n    env_file: [../secrets.env]\n", "env_file '../secrets.env'"),
        ("services:\n  main:\n    volumes: [./x:/x]\n", "services.main sets volumes"),
        ("services:\n  main:\n    network_mode: host\n", "network_mode 'host'"),
        ("services:\n  db:\n    build: {context: ., dockerfile: /etc/passwd}\n", "build.dockerfile '/etc/passwd'"),
        ("services:\n  db:\n    build: {context: ., dockerfile: ../../x}\n", "build.dockerfile '../../x': outside"),
        ("services:\n  db:\n    build: {context: ., secrets: [key]}\n", "services.db.build sets secrets"),
        ("services:\n  db:\n    build: {context: ., ssh: [default]}\n", "services.db.build sets ssh"),
        ("services:\n  db:\n    build: {context: ., additional_contexts: {x: /}}\n", "sets additional_contexts"),
        ("services:\n  db:\n    extends: {file: ../../base.yaml, service: db}\n", "services.db sets extends"),
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


def test_sidecars_load_with_main_environment_under_the_tasks_own(tmp_path: Path) -> None:
    text = (
        "services:\n  db:\n    image: lhtb/python:bookworm\n    healthcheck: {test: [CMD, 'true']}\n"
        "    x-note: extension keys are Compose's own\n"
        "  main:\n    depends_on: [db]\n    environment: [DB_HOST=db, MODE=compose]\n"
    )
    task = load_task(_with_compose(tmp_path, text, toml='[environment.env]\nMODE = "task"\n'))
    assert task.compose is not None and task.compose.sidecars == ("db",)
    assert task.config.environment.env == {"DB_HOST": "db", "MODE": "task"}  # task.toml's value wins
    assert task.config.environment.effective_network == "none"  # the sidecars' network is internal then


def test_a_compose_file_without_sidecars_leaves_the_task_single_container(tmp_path: Path) -> None:
    task = load_task(_with_compose(tmp_path, "services:\n  main:\n    network_mode: none\n"))
    assert task.compose is None


def test_a_sidecar_built_from_environment_loads(tmp_path: Path) -> None:
    text = "services:\n  db:\n    build: {context: ., dockerfile: db.Dockerfile, args: {V: '1'}}\n"
    task = _with_compose(tmp_path, text)
    loaded = load_task(task)
    assert loaded.compose is not None and loaded.compose.sidecars == ("db",)
