# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's machinery: a fresh PostgreSQL cluster (run as the ``postgres`` user, Unix socket only), the
agent's ``migrate`` and ``serve`` commands run through AgentRunner under CPU limits, and an HTTP client.

The bootstrap superuser is ``root`` with peer authentication, so only this verifier (uid 0) can use it; the
agent's programs (uid ``nobody``) connect as the unprivileged role ``app`` that owns each test database.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pwd
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import psycopg2

from lhtb.grading.sandbox import SANDBOX_UID, AgentRunner, sandboxed

PG_BIN = Path("/usr/lib/postgresql/15/bin")
APP = "/app"
PORT = 18431
MIGRATE_CPU = 20
SERVE_CPU = 60
READY_GUARD_SEC = 60.0  # wall-clock guard only: a service that never answers /health fails the family
HTTP_TIMEOUT_SEC = 20.0
PARALLEL_TIMEOUT_SEC = 90.0
MAX_HTTP_TIMEOUTS = 4  # after these, requests fail at once: a hung service cannot stretch the verifier


class Cluster:
    def __init__(self) -> None:
        user = pwd.getpwnam("postgres")
        self.root = Path(tempfile.mkdtemp(prefix="pg-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.sock = self.root / "sock"
        for path in (self.data, self.sock):
            path.mkdir()
            os.chown(path, user.pw_uid, user.pw_gid)
        self.sock.chmod(0o755)
        self.as_postgres = ["runuser", "-u", "postgres", "--"]
        subprocess.run(self.as_postgres + [str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "root",
                                           "--no-sync", "-E", "UTF8", "--locale=C.UTF-8", "-A", "peer"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (self.data / "pg_hba.conf").write_text("local all root peer\nlocal all app trust\n")
        settings = {"listen_addresses": "''", "unix_socket_directories": f"'{self.sock}'", "fsync": "off",
                    "synchronous_commit": "off", "full_page_writes": "off", "max_connections": "120",
                    "shared_buffers": "'32MB'", "TimeZone": "'UTC'", "deadlock_timeout": "'200ms'"}
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("".join(f"{k} = {v}\n" for k, v in settings.items()))
        subprocess.run(self.as_postgres + [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60",
                                           "-l", str(self.data / "server.log"), "start"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with contextlib.closing(self.admin("postgres")) as conn, conn.cursor() as cur:
            cur.execute("CREATE ROLE app LOGIN CONNECTION LIMIT 60")

    def dsn(self, db: str, user: str = "app") -> str:
        return f"host={self.sock} dbname={db} user={user}"

    def admin(self, db: str):
        # public only (pg_catalog is searched first anyway): a schema named after this role, which the agent's
        # migrations could create, must not shadow the tables the verifier reads
        conn = psycopg2.connect(self.dsn(db, "root"), options="-c search_path=public")
        conn.autocommit = True
        return conn

    def create_db(self, name: str) -> None:
        with contextlib.closing(self.admin("postgres")) as conn, conn.cursor() as cur:
            cur.execute(f'CREATE DATABASE "{name}" OWNER app')

    def stop(self) -> None:
        subprocess.run(self.as_postgres + [str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                                           "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_sandbox_processes() -> None:
    """SIGKILL every process of the sandbox user (the service and anything it started)."""
    if not sandboxed():
        raise RuntimeError("the verifier must run as root in its own container")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if os.stat(entry.path).st_uid == SANDBOX_UID:
                os.kill(int(entry.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


def migrate(cluster: Cluster, db: str):
    runner = AgentRunner(APP, timeout_sec=MIGRATE_CPU * 6, max_timeouts=1)
    return runner.run(["/usr/bin/prlimit", f"--cpu={MIGRATE_CPU}:{MIGRATE_CPU + 2}", "--", "python3", "-m",
                       "inventory", "migrate", "--dsn", cluster.dsn(db)])


class Service:
    """The agent's ``serve`` command in a background thread; ``stop`` kills it with SIGKILL."""

    def __init__(self, cluster: Cluster, db: str) -> None:
        self.cluster, self.db = cluster, db
        self.thread: threading.Thread | None = None
        self.result = None

    def start(self) -> bool:
        runner = AgentRunner(APP, timeout_sec=SERVE_CPU * 8, max_timeouts=1)
        argv = ["/usr/bin/prlimit", f"--cpu={SERVE_CPU}:{SERVE_CPU + 2}", "--", "python3", "-m", "inventory",
                "serve", "--dsn", self.cluster.dsn(self.db), "--port", str(PORT)]
        self.thread = threading.Thread(target=lambda: setattr(self, "result", runner.run(argv)), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + READY_GUARD_SEC
        while time.monotonic() < deadline and self.thread.is_alive():
            try:
                status, body = call("GET", "/health", timeout=2.0, counted=False)
                if status == 200 and isinstance(body, dict) and body.get("ok") is True:
                    return True
            except (OSError, http.client.HTTPException, ValueError):
                pass
            time.sleep(0.1)
        return False

    def stop(self) -> None:
        kill_sandbox_processes()
        if self.thread is not None:
            self.thread.join(30)
        kill_sandbox_processes()
        # the port must be free before the next service binds it
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                call("GET", "/health", timeout=0.5, counted=False)
            except (OSError, http.client.HTTPException, ValueError):
                return
            time.sleep(0.1)


TIMEOUTS = [0]


def call(method: str, path: str, body=None, headers: dict | None = None, raw: bytes | None = None,
         timeout: float = HTTP_TIMEOUT_SEC, counted: bool = True):
    """One request on a fresh connection: (status, parsed JSON or None)."""
    if TIMEOUTS[0] >= MAX_HTTP_TIMEOUTS:
        raise OSError("not sent: the service timed out too often")
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    try:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        head = {"Content-Type": "application/json", "Connection": "close", **(headers or {})}
        conn.request(method, path, body=data, headers=head)
        resp = conn.getresponse()
        payload = resp.read(1 << 22)
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = None
        return resp.status, parsed
    except TimeoutError:
        if counted:
            TIMEOUTS[0] += 1
        raise
    finally:
        conn.close()


def safe_call(*args, **kwargs):
    try:
        return call(*args, **kwargs)
    except (OSError, http.client.HTTPException) as exc:
        return 0, {"transport_error": type(exc).__name__}


def parallel(requests: list) -> tuple[list, list]:
    """Start one thread per (method, path, body, headers); returns (threads, results list filled in order)."""
    results: list = [None] * len(requests)

    def one(i, req):  # requests that wait on a lock together may time out together: not counted
        results[i] = safe_call(*req, timeout=PARALLEL_TIMEOUT_SEC, counted=False)

    threads = [threading.Thread(target=one, args=(i, r), daemon=True) for i, r in enumerate(requests)]
    for t in threads:
        t.start()
    return threads, results
