"""Shared mode with a live service, in real containers: the agent leaves a web server running, and the verifier
grades it from a sibling container in the agent's network namespace (lhtb.verifier.sibling). The server itself
reports what an agent process could see while it was graded: no tests, no verifier process, and the agent's
other processes stopped."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from helpers import containers_of, run
from taskfactory import write_task

SERVER = textwrap.dedent(
    """\
    import glob, http.server, json, os

    def spy():
        # everything an agent process could try while it is graded
        seen = [p for p in glob.glob("/proc/[0-9]*/root/tests/*") + glob.glob("/tests/*") + glob.glob("/tmp/.lhtb-*")]
        try:
            state = open(f"/proc/{open('/app/worker.pid').read().strip()}/stat").read().rsplit(") ", 1)[1][0]
        except OSError:
            state = "?"
        procs = [open(p).read().replace("\\0", " ") for p in glob.glob("/proc/[0-9]*/cmdline")]
        return {"seen": seen, "worker": state, "verifier_procs": [c for c in procs if "test.sh" in c]}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if os.path.exists("/app/resume-worker"):  # a service that lets the agent's other work run meanwhile
                os.kill(int(open("/app/worker.pid").read()), 18)  # SIGCONT
            body = json.dumps(spy()) if self.path == "/spy" else "42"
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", 8765), Handler).serve_forever()
    """
)
SOLVE = textwrap.dedent(
    """\
    echo answer-file > /app/state.txt
    nohup setsid tail -f /dev/null >/dev/null 2>&1 &
    echo $! > /app/worker.pid
    nohup setsid python3 /solution/server.py >/dev/null 2>&1 &
    for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/8765) 2>/dev/null && break; sleep 0.1; done
    (exec 3<>/dev/tcp/127.0.0.1/8765) 2>/dev/null || exit 1"""
)
TEST = textwrap.dedent(
    """\
    echo hidden > /tests/secret-case.txt
    python3 - <<'PY'
    import json, urllib.request
    def get(path):
        try:
            return urllib.request.urlopen("http://127.0.0.1:8765" + path, timeout=10).read().decode()
        except OSError as exc:
            return f"unreachable: {exc}"
    served = get("/answer") == "42"
    state = open("/app/state.txt").read().strip() == "answer-file" if __import__("os").path.exists("/app/state.txt") else False
    open("/logs/verifier/spy.json", "w").write(get("/spy"))
    json.dump({"reward": 1.0 if served and state else 0.0}, open("/logs/verifier/reward.json", "w"))
    PY
    """
)


def _live_task(root: Path, name: str, extra: str = "") -> Path:
    task = write_task(root, name, solve=f"{SOLVE}\n{extra}", test_sh=TEST)
    toml = (task / "task.toml").read_text()
    (task / "task.toml").write_text(toml.replace('environment_mode = "separate"', 'environment_mode = "shared"'))
    (task / "solution" / "server.py").write_text(SERVER)
    return task


def test_a_live_service_is_graded_from_a_sibling_that_no_agent_process_can_see(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    _live_task(tasks, "live-service")
    # what the agent controls is graded, never excluded: a service that resumes the agent's stopped work while it
    # is graded, and a snapshot the sibling cannot even start from (its `sleep` removed), both count as failed
    _live_task(tasks, "live-resumer", "touch /app/resume-worker")
    _live_task(tasks, "live-broken", "rm -f /usr/bin/sleep /bin/sleep")
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), name="live", concurrency=2)
    by_key = {(t.task_name, t.agent.name): t for t in trials.values()}
    oracle, nop = by_key[("live-service", "oracle")], by_key[("live-service", "nop")]
    assert oracle.error is None and oracle.reward == 1.0, oracle.error
    assert nop.error is None and nop.reward == 0.0  # nothing listens: graded in the agent's container, as before
    trial_dir = tmp_path / "jobs" / "live" / "trials" / oracle.trial_name
    final = trial_dir / "verifier" / "final"
    assert (final / "live-service-pids.txt").read_text().split()  # graded from a sibling, the server running
    nop_final = tmp_path / "jobs" / "live" / "trials" / nop.trial_name / "verifier" / "final"
    assert not (nop_final / "live-service-pids.txt").exists()
    spy = json.loads((final / "output" / "spy.json").read_text())
    assert spy["seen"] == [] and spy["verifier_procs"] == []  # neither the tests nor the verifier's processes
    assert spy["worker"] == "T"  # the agent's other processes are stopped while it is graded
    for name, message in (("live-resumer", "resumed by the agent"), ("live-broken", "could not be graded")):
        trial = by_key[(name, "oracle")]
        assert trial.error is not None and trial.error.error_class.value == "verifier_error", (name, trial.error)
        assert message in trial.error.message and trial.reward is None, (name, trial.error.message)
    assert containers_of("live") == []
    import docker

    assert docker.from_env().images.list(filters={"label": "lhtb.job=live"}) == []  # the snapshots are removed
