"""A task's own faults end its trials as task_invalid, never retried; a verifier's refused reward file says what it was.

One job runs every faulty task (tiny images from lhtb/python:bookworm) with max_retries=2; the tests read its results.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run

from lhtb.environments.images import dockerfile_problem, task_image_tag
from lhtb.errors import ErrorClass
from lhtb.results.models import TrialResult

BASE = "FROM lhtb/python:bookworm\nWORKDIR /app\n"
WEIRD_NAME = "..ünï.."
ABSENT_BASE = "lhtb-test/absent-base:1"  # no registry here serves it: the pull fails at once


def _write_task() -> Callable[..., Path]:
    """tests/conftest.py's write_task (``import conftest`` finds this directory's conftest first)."""
    spec = importlib.util.spec_from_file_location("lhtb_tests_conftest", Path(__file__).parents[1] / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    write_task: Callable[..., Path] = module.write_task
    return write_task


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, TrialResult]:
    write_task = _write_task()
    root = tmp_path_factory.mktemp("task-errors")
    tasks, jobs = root / "tasks", root / "jobs"
    write_task(tasks, "syntax-error", dockerfile=BASE + "FOO bar\n")
    write_task(tasks, "empty-dockerfile", dockerfile="")
    write_task(tasks, "no-from", dockerfile="# a comment\nRUN true\n")
    latin1 = write_task(tasks, "latin1-dockerfile")
    (latin1 / "environment" / "Dockerfile").write_bytes(BASE.encode() + b"# caf\xe9\n")
    write_task(tasks, "copy-missing", dockerfile=BASE + "COPY not-there /app/\n")
    write_task(tasks, "run-fails", dockerfile=BASE + "RUN exit 3\n")
    write_task(tasks, "missing-base", dockerfile=f"FROM {ABSENT_BASE} AS build\nFROM build\nWORKDIR /app\n")
    write_task(tasks, "missing-user", toml='user = "nosuch"\n')  # appended to the [verifier] table
    write_task(tasks, "user-nobody", toml='user = "nobody"\n')
    write_task(tasks, WEIRD_NAME)
    write_task(tasks, "abs-symlink-reward", test_sh="ln -s /etc/passwd /logs/verifier/reward.txt\n")
    write_task(tasks, "fifo-reward", test_sh="mkfifo /logs/verifier/reward.txt\n")
    write_task(tasks, "crlf-test-sh", test_sh="echo 1 > /logs/verifier/reward.txt\r\n")
    _job, trials = run(tasks, jobs, max_retries=2, concurrency=2)
    return {trial.task_name: trial for trial in trials.values()}


@pytest.mark.parametrize(
    ("task", "cause"),
    [
        ("syntax-error", "dockerfile parse error line 3: unknown instruction: FOO"),
        ("empty-dockerfile", "the Dockerfile is empty"),
        ("no-from", "has no FROM instruction"),
        ("latin1-dockerfile", "not UTF-8 text (invalid continuation byte at byte 44, line 3)"),
        ("copy-missing", "COPY failed: file not found in build context"),
    ],
)
def test_dockerfile_faults_are_task_invalid(results: dict[str, TrialResult], task: str, cause: str) -> None:
    trial = results[task]
    assert trial.error is not None
    assert trial.error.error_class is ErrorClass.TASK_INVALID, trial.error
    assert not trial.error.retryable
    assert trial.retries == 0
    assert f"{task}/environment/Dockerfile: " in trial.error.message
    assert cause in trial.error.message


def test_a_failing_run_step_stays_a_retried_build_error(results: dict[str, TrialResult]) -> None:
    """It may be transient (a mirror down), so it is retried: docs/grading.md, "Task errors"."""
    trial = results["run-fails"]
    assert trial.error is not None and trial.error.error_class is ErrorClass.ENVIRONMENT_BUILD
    assert trial.retries == 2
    assert "returned a non-zero code: 3" in trial.error.message


def test_a_missing_base_image_names_the_image_and_the_fix_and_is_not_retried(
    results: dict[str, TrialResult],
) -> None:
    trial = results["missing-base"]
    assert trial.error is not None and trial.error.error_class is ErrorClass.BASE_IMAGE_MISSING, trial.error
    assert trial.retries == 0 and not trial.error.retryable
    message = trial.error.message
    assert f"missing-base/environment/Dockerfile: base image {ABSENT_BASE} is not on this machine" in message
    assert "lhtb images load" in message and f"docker save {ABSENT_BASE}" in message
    assert "build," not in message  # the stage named "build" is not an image


def test_missing_verifier_user_is_task_invalid(results: dict[str, TrialResult]) -> None:
    trial = results["missing-user"]
    assert trial.error is not None and trial.error.error_class is ErrorClass.TASK_INVALID, trial.error
    assert trial.retries == 0
    assert "missing-user/task.toml: [verifier] user 'nosuch' does not exist" in trial.error.message
    assert "unable to find user nosuch" in trial.error.message


def test_an_existing_non_root_verifier_user_can_run_the_tests(results: dict[str, TrialResult]) -> None:
    trial = results["user-nobody"]
    assert trial.error is None, trial.error
    assert trial.reward == 1.0


def test_any_task_name_makes_a_valid_image_tag(results: dict[str, TrialResult]) -> None:
    trial = results[WEIRD_NAME]
    assert trial.error is None, trial.error
    assert (trial.reward, trial.retries) == (1.0, 0)


@pytest.mark.parametrize(
    ("task", "message"),
    [
        ("abs-symlink-reward", "/logs/verifier/reward.txt is a symlink to /etc/passwd (refused: reward files must"),
        ("fifo-reward", "/logs/verifier/reward.txt is a special file (device, fifo or socket), not a regular file"),
        ("crlf-test-sh", "found 'reward.txt\\r': a CRLF line ending in test.sh?"),
    ],
)
def test_refused_reward_files_say_what_they_were(results: dict[str, TrialResult], task: str, message: str) -> None:
    trial = results[task]
    assert trial.error is not None and trial.error.error_class is ErrorClass.VERIFIER_ERROR, trial.error
    assert trial.retries == 0
    assert message in trial.error.message


class TestWithoutTheEngine:
    def test_tags_are_valid_and_distinct(self) -> None:
        import re

        reference = re.compile(r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*")
        names = [WEIRD_NAME, "..", "-", "Foo", "foo", "a" * 300, "ü", "x/y", "tâche_1.0"]
        repositories = [task_image_tag(name, "c0ffee").split(":")[0] for name in names]
        for name, repository in zip(names, repositories, strict=True):
            assert reference.fullmatch(repository), (name, repository)
            assert len(repository) < 100
        assert len(set(repositories)) == len(names)
        assert task_image_tag("sales-report", "c0ffee").startswith("lhtb-task/sales-report-")

    def test_dockerfile_problem(self, tmp_path: Path) -> None:
        dockerfile = tmp_path / "Dockerfile"
        assert dockerfile_problem(dockerfile) == f"{dockerfile}: required file is missing"
        for content, problem in [
            (b"", "is empty"),
            (b" \n\n", "is empty"),
            (b"FROM x\n# \xff\n", "not UTF-8 text"),
            (b"# only a comment\n", "has no FROM instruction"),
        ]:
            dockerfile.write_bytes(content)
            assert f"{dockerfile}: " in (dockerfile_problem(dockerfile) or ""), content
            assert problem in (dockerfile_problem(dockerfile) or ""), content
        dockerfile.write_bytes(b"\xef\xbb\xbfARG BASE=x\nfrom --platform=linux/amd64 $BASE AS build\n")
        assert dockerfile_problem(dockerfile) is None


def test_images_load_brings_a_saved_image_back(tmp_path: Path) -> None:
    import io
    import tarfile

    from typer.testing import CliRunner

    from lhtb.cli.app import app
    from lhtb.environments.docker_client import get_client

    client = get_client()
    tag = "lhtb-test/loaded-base:1"
    empty = io.BytesIO()
    with tarfile.open(fileobj=empty, mode="w"):
        pass
    client.images.client.api.import_image_from_data(empty.getvalue(), repository=tag.split(":")[0], tag="1")
    archive = tmp_path / "base.tar"
    with archive.open("wb") as stream:
        for chunk in client.images.get(tag).save(named=True):
            stream.write(chunk)
    client.images.remove(tag, force=True)
    try:
        result = CliRunner().invoke(app, ["images", "load", str(archive)])
        assert result.exit_code == 0, result.output
        assert f"loaded {tag}" in result.output
        client.images.get(tag)
        missing = CliRunner().invoke(app, ["images", "load", str(tmp_path / "none.tar")])
        assert missing.exit_code == 2 and "no such image archive" in " ".join(missing.output.split())
    finally:
        client.images.remove(tag, force=True)
