from pathlib import Path

from lhtb.qa.scaffold import scaffold
from lhtb.qa.static import CANARY, content_digests, files_missing_canary, foreign_bases
from lhtb.tasks.loader import load_task


def test_scaffold_is_a_valid_task_with_canaries(tmp_path: Path) -> None:
    task = load_task(scaffold("demo", tmp_path, "games-puzzles"))
    assert task.config.metadata.category == "games-puzzles"
    assert task.config.agent.continue_until_timeout is True
    assert files_missing_canary(task) == []
    assert foreign_bases(task) == []


def test_missing_canary_and_foreign_base_are_reported(tmp_path: Path) -> None:
    root = scaffold("demo", tmp_path, "x")
    (root / "tests" / "helper.py").write_text("print('no canary here')\n")
    (root / "environment" / "data.csv").write_text("a,b\n1,2\n")  # data files carry no comment syntax
    (root / "environment" / "Dockerfile").write_text(f"# {CANARY}\nFROM ubuntu:22.04 AS build\nFROM build\n")
    task = load_task(root)
    assert files_missing_canary(task) == ["tests/helper.py"]
    assert foreign_bases(task) == ["ubuntu:22.04"]


def test_content_digests_skip_tiny_files(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "tiny").write_text("x")
    (tmp_path / "tests" / "big.py").write_text("y" * 100)
    digests = content_digests([tmp_path / "tests"])
    assert list(digests.values()) == ["tests/big.py"]


def test_declared_copies_must_match_their_originals(tmp_path: Path) -> None:
    import pytest

    from lhtb.errors import TaskInvalidError
    from lhtb.qa.static import drifted_copies

    path = scaffold("copies", tmp_path, "games-puzzles")
    (path / "environment" / "engine").mkdir()
    (path / "environment" / "engine" / "rules.py").write_text("RULES = 1\n")
    (path / "environment" / "gen.py").write_text("SEED = 7\n")
    (path / "tests" / "engine").mkdir()
    (path / "tests" / "engine" / "rules.py").write_text("RULES = 1\n")
    (path / "tests" / "gen.py").write_text("SEED = 7\n")
    toml = path / "task.toml"
    toml.write_text(
        toml.read_text().replace("[verifier]\n", '[verifier]\ncopies = { "engine" = "engine", "gen.py" = "gen.py" }\n')
    )
    assert drifted_copies(load_task(path)) == []

    (path / "tests" / "gen.py").write_text("SEED = 8\n")  # drifted
    (path / "tests" / "engine" / "extra.py").write_text("")  # a file the original lacks
    assert drifted_copies(load_task(path)) == [
        "tests/engine vs environment/engine: not the same files (extra.py)",
        "tests/gen.py vs environment/gen.py: gen.py differ",
    ]
    toml.write_text(toml.read_text().replace('"gen.py" = "gen.py"', '"gen.py" = "../gen.py"'))
    with pytest.raises(TaskInvalidError, match=r"task.toml: 'verifier.copies'"):
        load_task(path)
