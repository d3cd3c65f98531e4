"""End to end: run a small real job (oracle and nop), build the viewer with ``lhtb view`` and serve it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from helpers import run
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


def _as_in_a_terminal() -> None:
    """The server's SIGINT as a terminal gives it: a test run started in the background (``cmd &`` without job
    control) ignores SIGINT, every child inherits that, and Ctrl-C would then never reach the server."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def serve_one_page(site: Path) -> None:
    """``lhtb view --serve --port 0`` in a subprocess: fetch a page from 127.0.0.1, then stop it with Ctrl-C."""
    job_dir = site.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "lhtb.cli", "view", str(job_dir), "--serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=_as_in_a_terminal,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line + (proc.stderr.read() if proc.stderr else "")
        with urllib.request.urlopen(match.group(0) + "jobs/viewjob/index.html", timeout=10) as reply:
            assert reply.status == 200 and b"viewjob" in reply.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
