"""A task that says nothing gets Harbor's defaults in real containers: the image's WORKDIR (for the agent, the
oracle and the artifacts) and a verifier in the agent's container. (The public network, Harbor's third default,
is checked without starting a networked container: tests/unit/tasks/test_harbor_schema.py.)"""

from __future__ import annotations

from pathlib import Path

from helpers import run
from taskfactory import write_task

CHECK_SRV = 'if [ "$(cat /srv/work/out.txt 2>/dev/null)" = /srv/work ]; then echo 1; else echo 0; fi'


def test_silent_workdir_and_verifier_mode_follow_harbor(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    write_task(
        tasks,
        "image-workdir",
        dockerfile="FROM lhtb/python:bookworm\nWORKDIR /srv/work\n",
        solve="pwd > out.txt",  # the oracle runs in the workdir
        test_sh=f"{CHECK_SRV} > /logs/verifier/reward.txt\n",
    )
    write_task(
        tasks,
        "shared-by-default",
        toml="[environment]\nallow_internet = false\n",  # silent on the verifier only
        lhtb_choices=False,
    )
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), concurrency=2)
    by_key = {(t.task_name, t.agent.name): t for t in trials.values()}
    assert by_key[("image-workdir", "oracle")].reward == 1.0, by_key[("image-workdir", "oracle")].error
    assert by_key[("image-workdir", "nop")].reward == 0.0
    assert by_key[("image-workdir", "oracle")].verifier_mode == "separate"  # lhtb's choice, stated by the factory
    shared = by_key[("shared-by-default", "oracle")]
    assert shared.verifier_mode == "shared" and shared.reward == 1.0, shared.error
    assert by_key[("shared-by-default", "nop")].reward == 0.0


def test_a_base_image_substitute_builds_the_task_and_is_recorded(tmp_path: Path) -> None:
    from lhtb.report.loading import load_jobs

    tasks = tmp_path / "tasks"
    write_task(tasks, "elsewhere", dockerfile="FROM lhtb-test/absent-base:1\nWORKDIR /app\n")
    substitutes = {"lhtb-test/absent-base:1": "lhtb/python:bookworm"}
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle",), base_images=substitutes)
    (trial,) = trials.values()
    assert trial.error is None and trial.reward == 1.0, trial.error
    assert trial.spec.base_images == substitutes  # the change to the task, in its result
    (row,) = load_jobs([tmp_path / "jobs" / "job"]).rows
    assert "base-image" in row.flags  # not ranked beside unchanged runs


def test_base_image_flags_are_checked_before_the_job(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lhtb.cli.app import app

    write_task(tmp_path / "tasks", "t")
    common = ["run", "-p", str(tmp_path / "tasks"), "-a", "nop", "-o", str(tmp_path / "jobs")]
    bad = CliRunner().invoke(app, [*common, "--base-image", "ubuntu:24.04"])
    assert bad.exit_code == 2 and "expected FROM=TO" in " ".join(bad.output.split())
    absent = CliRunner().invoke(app, [*common, "--base-image", "ubuntu:24.04=lhtb-test/nowhere:1"])
    assert absent.exit_code == 2 and "lhtb-test/nowhere:1 is not on this machine" in " ".join(absent.output.split())
    assert not (tmp_path / "jobs").exists()


def test_a_prebuilt_verifier_image_grades_with_the_tests_it_holds(tmp_path: Path) -> None:
    """Harbor's ``[verifier.environment] docker_image``: the separate verifier runs in that image, whose own
    /tests grade (nothing is copied in: the task ships no tests/test.sh); an image neither here nor pullable is
    base_image_missing, named with the fix."""
    import subprocess

    image = "lhtb-test/prebuilt-verifier:1"
    context = tmp_path / "verifier-image"
    context.mkdir()
    check = 'if [ "$(cat /app/out.txt 2>/dev/null)" = hello ] && [ -e /etc/prebuilt ]; then echo 1; else echo 0; fi'
    (context / "test.sh").write_text(f"#!/bin/bash\n{check} > /logs/verifier/reward.txt\n")
    (context / "Dockerfile").write_text(
        "FROM lhtb/python:bookworm\nRUN touch /etc/prebuilt\nCOPY test.sh /tests/test.sh\n"
    )
    subprocess.run(["docker", "build", "-q", "-t", image, str(context)], check=True, capture_output=True)
    try:
        tasks = tmp_path / "tasks"
        for name, reference in (("prebuilt", image), ("absent", "lhtb-test/no-such-verifier:1")):
            task = write_task(tasks, name, toml=f'[verifier.environment]\ndocker_image = "{reference}"\n')
            (task / "tests" / "test.sh").unlink()
        _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), concurrency=2)
        by_key = {(t.task_name, t.agent.name): t for t in trials.values()}
        oracle = by_key[("prebuilt", "oracle")]
        assert oracle.error is None and oracle.reward == 1.0 and oracle.verifier_mode == "separate", oracle.error
        assert by_key[("prebuilt", "nop")].reward == 0.0
        absent = by_key[("absent", "oracle")]
        assert absent.error is not None and absent.error.error_class.value == "base_image_missing"
        assert "lhtb-test/no-such-verifier:1" in absent.error.message and "lhtb images load" in absent.error.message
    finally:
        subprocess.run(["docker", "rmi", "-f", image], capture_output=True)


def test_a_prebuilt_task_image_runs_as_it_is(tmp_path: Path) -> None:
    """Harbor's ``[environment] docker_image`` with no environment/Dockerfile: the agent's image is that image,
    nothing built; absent and not pullable, base_image_missing naming the key; a --base-image substitute for it
    is recorded like any other."""
    tasks = tmp_path / "tasks"
    for name, reference in (("prebuilt", "lhtb/python:bookworm"), ("elsewhere", "lhtb-test/absent-prebuilt:1")):
        task = write_task(tasks, name, toml=f'[environment]\ndocker_image = "{reference}"\nworkdir = "/app"\n')
        (task / "environment" / "Dockerfile").unlink()
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), concurrency=2)
    by_key = {(t.task_name, t.agent.name): t for t in trials.values()}
    oracle = by_key[("prebuilt", "oracle")]
    assert oracle.error is None and oracle.reward == 1.0, oracle.error
    assert by_key[("prebuilt", "nop")].reward == 0.0
    absent = by_key[("elsewhere", "oracle")]
    assert absent.error is not None and absent.error.error_class.value == "base_image_missing"
    assert "[environment] docker_image lhtb-test/absent-prebuilt:1" in absent.error.message
    substitutes = {"lhtb-test/absent-prebuilt:1": "lhtb/python:bookworm"}
    _job, trials = run(tasks, tmp_path / "jobs2", ("oracle",), tasks=["elsewhere"], base_images=substitutes)
    (substituted,) = trials.values()
    assert substituted.reward == 1.0 and substituted.spec.base_images == substitutes, substituted.error
