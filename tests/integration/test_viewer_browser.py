"""The viewer in a real browser: headless Chromium (Debian's package) driven by Playwright, no browser download.

One real job is made here: a scripted terminal agent whose commands and model text are hostile (markup, a
script tag, ANSI colours, a 5,000-character line, unicode), the oracle and nop, and a verifier that prints
markup. The site is opened from ``file://`` and from ``lhtb view --serve``; every page kind is followed by its
links, the recording is played, paused and sought, and a screenshot of each page kind lands in
``build/viewer-screenshots/`` (docs/viewer.md embeds copies). A page that throws, logs a console error or fails
to load one of its files fails the test.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import served_view, wait_for
from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.jobs.job_runner import new_job_config, run_job
from lhtb.results.models import AgentSpec

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency (pip install -e .[dev])")

CHROMIUM = "/usr/bin/chromium"
# Chromium's own connections (updates, sync, QUIC probes) fail at start on a closed network: all switched off.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "viewer-screenshots"
HOSTILE = "<b>bold</b> <script>window.__pwned=1</script> <img src=x onerror=window.__pwned=2>"
UNICODE = "✓ 漢字 🎉 Ünïcødé"
CRASH = "echo '<script>window.__pwned=3</script> verifier says <i>hi</i>'; exit 3\n"


def _turn(keys: str, duration: float = 1.0, *, analysis: str = "", complete: bool = False) -> dict[str, Any]:
    return {"analysis": analysis, "plan": "", "commands": [{"keystrokes": keys, "duration": duration}],
            "task_complete": complete}  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from taskfactory import write_task

    root = tmp_path_factory.mktemp("viewer")
    tasks = root / "tasks"
    write_task(tasks, "hello")
    write_task(tasks, "crash", test_sh=CRASH)
    script = [
        _turn(f"printf '\\033[31mRED\\033[0m %s\\n' '{HOSTILE}'\n", analysis=f"plan: {HOSTILE}"),
        _turn("echo first-marker\n", 2.0, analysis=UNICODE),
        _turn("sleep 2; echo second-marker\n", 4.0),
        _turn("python3 -c \"print('L' * 5000)\"\n", 1.0),
        _turn("echo hello > /app/out.txt\n", 1.0, complete=True),
        {"analysis": "", "plan": "", "commands": [], "task_complete": True},
    ]
    script_path = root / "script.json"
    script_path.write_text(json.dumps(script))
    agents = [
        AgentSpec(name="terminus", model="scripted", kwargs={"script": str(script_path)}),
        AgentSpec(name="oracle"),
        AgentSpec(name="nop"),
    ]
    config = new_job_config(tasks, None, agents, job_name="browserjob", attempts=1, concurrency=2, max_retries=0)
    run_job(config, root / "jobs")
    job_dir = root / "jobs" / "browserjob"
    result = CliRunner().invoke(app, ["view", str(job_dir)])
    assert result.exit_code == 0, result.output
    return job_dir / "view"


class Watched:
    """A page whose console errors, uncaught exceptions and failed loads are collected."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(f"uncaught: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"failed to load {r.url}: {r.failure}"))

    def clean(self) -> None:
        assert self.problems == [], self.problems
        assert self.page.evaluate("window.__pwned") is None  # no agent-made script ever ran


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium (scripts/setup.sh does)"
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),  # a fresh user-data dir
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


def _open(browser: Any, url: str) -> Watched:
    page = browser.new_page()
    watched = Watched(page)
    page.goto(url)
    page.wait_for_load_state("load")
    return watched


def _shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


def _walk(browser: Any, index_url: str, *, shots: bool) -> None:
    index = _open(browser, index_url)
    page = index.page
    assert page.title().startswith("lhtb view")
    leaderboard = page.locator("section", has=page.locator("h2", has_text="Leaderboard")).first
    assert leaderboard.locator("tbody tr").count() == 3  # terminus, oracle, nop
    modes = page.locator("section", has=page.locator("h2", has_text="Failure modes")).first
    assert modes.is_visible() and "solved" in modes.inner_text()
    if shots:
        _shot(page, "index")
    index.clean()
    page.click("a[href='jobs/browserjob/index.html']")
    page.wait_for_load_state("load")
    job = Watched(page)
    rows = page.locator("table tbody tr")
    assert rows.count() == 6
    page.fill("input.filter", "terminus hello")  # the trial filter narrows the table
    visible = [r for r in rows.all() if r.is_visible()]
    assert len(visible) == 1
    if shots:
        _shot(page, "job")
    page.locator("a[href^='trials/hello__terminus']").first.click()  # the label holds ":": a digested name
    page.wait_for_load_state("load")
    trial = Watched(page)
    for anchor in ("summary", "scorecard", "phases", "curve", "trajectory", "recording"):
        assert page.locator(f"section#{anchor}").count() == 1, anchor
    assert page.locator("section#curve svg").count() == 1  # the reward curve renders
    page.locator("section#trajectory details").evaluate_all("ds => ds.forEach(d => { d.open = true; })")
    trajectory = page.locator("section#trajectory").inner_text()
    assert HOSTILE in trajectory and UNICODE in trajectory  # agent-made text shown as text, never as markup
    assert page.locator("section#trajectory b, section#trajectory img, section#trajectory script").count() == 0
    if shots:
        _shot(page, "trial")
    _player(page, shots=shots)
    trial.clean()
    job.clean()
    crash = _open(browser, index_url.replace("index.html", "jobs/browserjob/trials/crash__oracle__1.html"))
    verifier = crash.page.locator("section#verifier").inner_text()
    assert "<script>window.__pwned=3</script> verifier says <i>hi</i>" in verifier
    crash.clean()


def _player(page: Any, *, shots: bool) -> None:
    """Play, pause and seek: the screen shows what the terminal showed at the time sought."""
    player = page.locator("section#recording .player")
    player.scroll_into_view_if_needed()
    screen = player.locator("pre.screen")
    cast = json.loads(player.locator("script.cast-data").text_content())
    events = cast["events"]
    first = next(t for t, kind, text in events if kind == "o" and "first-marker" in text)
    second = next(t for t, kind, text in events if kind == "o" and "second-marker" in text)
    assert second - first > 1.0  # the sleep between them is in the recording

    def seek(t: float) -> str:
        player.locator("input.seek").evaluate(
            "(el, t) => { el.value = String(t); el.dispatchEvent(new Event('input')); }", t
        )
        return screen.inner_text()

    between = seek((first + second) / 2)
    assert "first-marker" in between and "second-marker" not in between
    assert "\x1b" not in between and "RED" in between  # ANSI colours dropped, their text kept
    assert "<b>bold</b>" in between and player.locator("pre.screen b").count() == 0
    clock = player.locator(".clock").inner_text()
    assert re.match(rf"{(first + second) / 2:.1f} / ", clock), clock
    end = seek(events[-1][0])
    assert "second-marker" in end and "L" * 5000 in end
    seek(0)
    play = player.locator("button.play")
    play.click()
    assert play.inner_text().endswith("pause")
    page.wait_for_function("() => document.querySelector('.player .clock').textContent.split(' ')[0] > '0.0'")
    play.click()
    assert play.inner_text().endswith("play") or play.inner_text().endswith("replay")
    paused_at = player.locator(".clock").inner_text()
    page.wait_for_timeout(600)
    assert player.locator(".clock").inner_text() == paused_at  # paused: time stands still
    if shots:
        seek((first + second) / 2)
        _shot(page, "recording")


def test_the_site_works_from_file_urls(site: Path, browser: Any) -> None:
    _walk(browser, (site / "index.html").as_uri(), shots=True)


def test_the_site_works_when_served(site: Path, browser: Any) -> None:
    with served_view(site.parent) as served:
        _walk(browser, served.url + "index.html", shots=False)


def test_compare_two_agents_per_task_and_subtask(site: Path, browser: Any) -> None:
    watched = _open(browser, (site / "index.html").as_uri())
    page = watched.page
    page.click("#compare-link")
    page.wait_for_load_state("load")
    compare = Watched(page)
    page.select_option("#compare-a", "nop")
    page.select_option("#compare-b", "oracle")
    rows = {
        row.get_attribute("data-task"): [c.inner_text() for c in row.locator("td").all()]
        for row in page.locator("#compare-tasks tbody tr").all()
    }
    assert rows["hello"] == ["hello", "0.000", "1", "1.000", "1", "+1.000"]
    assert rows["crash"] == ["crash", "0.000", "1", "0.000", "1", "0.000"]  # a verifier error scores 0 on both
    assert list(rows) == ["hello", "crash"]  # the largest difference first
    assert "mean Δ +0.500" in page.locator("#compare-summary").inner_text()
    subtasks = page.locator("#compare-subtasks tbody tr")
    assert subtasks.count() >= 1 and "hello" in subtasks.first.inner_text()
    _shot(page, "compare")
    page.select_option("#compare-by", "job")  # one job: both sides are the whole job, no difference anywhere
    assert all(
        row.locator("td").last.inner_text() in ("0.000", "—") for row in page.locator("#compare-tasks tbody tr").all()
    )
    compare.clean()
    watched.clean()


def test_the_live_view_follows_a_running_job(tmp_path: Path, browser: Any) -> None:
    """``lhtb view --serve`` on a job while it runs: phase, agent time and the recording move, no reload."""
    import urllib.request

    from taskfactory import write_task

    tasks = tmp_path / "tasks"
    write_task(tasks, "slow")
    ticks = [_turn(f"sleep 3; echo tick-{n}\n", 4.0) for n in range(1, 5)]
    script = [*ticks, _turn("echo hello > /app/out.txt\n", 1.0, complete=True)]
    script.append({"analysis": "", "plan": "", "commands": [], "task_complete": True})
    (tmp_path / "script.json").write_text(json.dumps(script))
    jobs = tmp_path / "jobs"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    run_cmd = [sys.executable, "-m", "lhtb.cli", "run", "-p", str(tasks), "-a", "terminus", "-m", "scripted",
               "--ak", f"script={tmp_path / 'script.json'}", "-o", str(jobs), "--job-name", "live"]  # fmt: skip
    job = subprocess.Popen(run_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        wait_for(lambda: (jobs / "live" / "config.json").exists(), 120, "the job to start")
        with served_view(jobs / "live") as served:
            base = served.url
            job_page = _open(browser, base + "jobs/live/index.html")
            page = job_page.page
            page.evaluate("window.__sameDocument = 42")
            running = "#live-running tbody tr"
            page.wait_for_function(
                f"() => [...document.querySelectorAll('{running}')].some(r => r.cells[1].textContent === 'agent')",
                timeout=120_000,
            )
            first_time = page.locator(f"{running} td:nth-child(3)").first.inner_text()
            page.wait_for_function(
                f"t => document.querySelector('{running} td:nth-child(3)')?.textContent !== t", arg=first_time,
                timeout=30_000,
            )  # fmt: skip

            def trial_page_exists() -> bool:
                names = [p.name for p in (jobs / "live" / "view" / "jobs" / "live" / "trials").glob("*.html")]
                return bool(names)

            wait_for(trial_page_exists, 60, "the site rebuilt with the running trial's page")
            trial_file = next((jobs / "live" / "view" / "jobs" / "live" / "trials").glob("*.html")).name
            trial = _open(browser, base + f"jobs/live/trials/{trial_file}")
            trial.page.evaluate("window.__sameDocument = 7")
            trial.page.wait_for_function(
                "() => document.querySelector('.player pre.screen').textContent.includes('tick-3')", timeout=90_000
            )
            assert trial.page.evaluate("window.__sameDocument") == 7  # tailed, not reloaded
            assert (
                "running" in trial.page.locator("#live-state").inner_text()
                or "finished" in trial.page.locator("#live-state").inner_text()
            )
            page.wait_for_function(
                "() => document.getElementById('live-progress').textContent.startsWith('1 of 1 trials finished')",
                timeout=120_000,
            )
            reward = page.locator("table.trials tbody tr").first.locator("td").nth(4).inner_text()
            assert reward == "1.000", reward
            assert page.evaluate("window.__sameDocument") == 42  # the page updated in place
            job_page.clean()
            trial.clean()
            assert job.wait(timeout=120) == 0
            with urllib.request.urlopen(base + "live/nosuch.json", timeout=10) as reply:
                raise AssertionError(f"an unknown job answered {reply.status}")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404
    finally:
        if job.poll() is None:
            job.send_signal(signal.SIGINT)
            try:
                job.wait(timeout=30)
            except subprocess.TimeoutExpired:
                job.kill()
                job.wait()
