"""``lhtb view --serve``: serve the site with http.server on the loopback interface only.

With a :class:`LiveSite` the server is also the live view of running jobs: ``/live/<job>.json`` and
``/live/<job>/<trial page>.json`` answer from the job directories (lhtb.viewer.live), and the site is rebuilt in
the background whenever a trial directory appears or a result is written, so new trial pages exist by the time
a page's poll says the trial finished.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from lhtb.viewer.live import LiveJob, job_status, trial_live

HOST = "127.0.0.1"  # never 0.0.0.0: result files hold agent output and the site is for the local user
REBUILD_CHECK_SEC = 3.0


def _signature(job_dirs: list[Path]) -> tuple[tuple[str, float], ...]:
    """What changes when the site needs a rebuild: trial directories and their result files."""
    seen = []
    for job_dir in job_dirs:
        trials = job_dir / "trials"
        for trial in sorted(trials.iterdir()) if trials.is_dir() else []:
            result = trial / "result.json"
            seen.append((str(trial), result.stat().st_mtime if result.exists() else 0.0))
    return tuple(seen)


class LiveSite:
    """The jobs the served site shows, kept current by rebuilding it when their directories change."""

    def __init__(
        self, job_dirs: list[Path], rebuild: Callable[[], list[LiveJob]], built: list[LiveJob] | None = None
    ) -> None:
        """``built``: the jobs as a build just made them (else ``rebuild`` makes them now)."""
        self._job_dirs = job_dirs
        self._rebuild = rebuild
        self._signature = _signature(job_dirs)
        self.jobs: dict[str, LiveJob] = {job.slug: job for job in (rebuild() if built is None else built)}
        self.errors: list[str] = []
        self._stop = threading.Event()

    def check(self) -> bool:
        """Rebuild when something changed; True when it did. A failed rebuild keeps the last good site."""
        signature = _signature(self._job_dirs)
        if signature == self._signature:
            return False
        try:
            jobs = self._rebuild()
        except Exception as exc:  # a half-written job: the next check tries again
            self.errors.append(f"{type(exc).__name__}: {exc}")
            return False
        self._signature = signature
        self.jobs = {job.slug: job for job in jobs}
        return True

    def run(self) -> None:
        while not self._stop.wait(REBUILD_CHECK_SEC):
            self.check()

    def stop(self) -> None:
        self._stop.set()

    def answer(self, path: str, query: str) -> dict[str, Any] | None:
        parts = [unquote(p) for p in path.removeprefix("/live/").split("/")]
        if len(parts) == 1 and parts[0].endswith(".json"):
            job = self.jobs.get(parts[0].removesuffix(".json"))
            return None if job is None else job_status(job)
        if len(parts) == 2 and parts[1].endswith(".json"):
            job = self.jobs.get(parts[0])
            try:
                cast_from = int(parse_qs(query).get("cast_from", ["0"])[0])
            except ValueError:
                cast_from = 0
            return None if job is None else trial_live(job, parts[1].removesuffix(".json"), cast_from)
        return None


class _Handler(http.server.SimpleHTTPRequestHandler):
    live: LiveSite | None = None

    def __init__(self, *args: Any, live: LiveSite | None = None, **kwargs: Any) -> None:
        self.live = live
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path.startswith("/live/"):
            self._live(parts.path, parts.query)
            return
        super().do_GET()

    def _live(self, path: str, query: str) -> None:
        data = self.live.answer(path, query) if self.live is not None else None
        if data is None:
            self.send_error(404, "no such live job or trial")
            return
        body = json.dumps(data, allow_nan=False).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def make_server(directory: Path, port: int, live: LiveSite | None = None) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_Handler, directory=str(directory), live=live)
    return http.server.ThreadingHTTPServer((HOST, port), handler)


def serve(directory: Path, port: int, on_ready: Callable[[str], None], live: LiveSite | None = None) -> None:
    """Serve until Ctrl-C; ``on_ready`` gets the URL (with the real port when ``port`` is 0)."""
    server = make_server(directory, port, live)
    watcher = threading.Thread(target=live.run, daemon=True) if live is not None else None
    try:
        if watcher is not None:
            watcher.start()
        on_ready(f"http://{HOST}:{server.server_address[1]}/")
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        if live is not None:
            live.stop()
        server.server_close()
