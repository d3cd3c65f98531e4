"""End to end: run a small real job (oracle and nop), build the viewer with ``lhtb view`` and serve it."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from helpers import run, served_view
from typer.testing import CliRunner

from lhtb.cli.app import app

CRASH = "echo '<script>alert(1)</script>'; exit 3\n"


def test_view_a_real_job(make_task, tmp_path: Path) -> None:
    make_task("hello")  # oracle 1.0, nop 0.0
    make_task("crash", test_sh=CRASH)  # a verifier error whose stdout holds markup
    _, trials = run(make_task.root, tmp_path / "jobs", ("oracle", "nop"), name="viewjob")
    job_dir = tmp_path / "jobs" / "viewjob"
    result = CliRunner().invoke(app, ["view", str(job_dir)])
    assert result.exit_code == 0, result.output
    site = job_dir / "view"
    index = (site / "index.html").read_text()
    assert 'href="jobs/viewjob/index.html"' in index and "Leaderboard" in index
    job_page = (site / "jobs" / "viewjob" / "index.html").read_text()
    assert len(trials) == 4
    for name, trial in trials.items():
        page = site / "jobs" / "viewjob" / "trials" / f"{name}.html"
        assert page.is_file(), name
        assert f'href="trials/{name}.html"' in job_page
        text = page.read_text()
        assert 'id="scorecard"' in text and 'id="verifier"' in text
        assert "<script>alert" not in text
        if trial.task_name == "crash":
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    serve_one_page(site)


def serve_one_page(site: Path) -> None:
    """``lhtb view --serve --port 0`` in a subprocess: fetch a page from 127.0.0.1, then stop it with Ctrl-C."""
    with served_view(site.parent) as served:
        page = urllib.request.urlopen(served.url + "jobs/viewjob/index.html", timeout=10)
        with page as reply:
            assert reply.status == 200 and b"viewjob" in reply.read()
    assert served.exit_code == 0
