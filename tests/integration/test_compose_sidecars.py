"""Tasks with Compose sidecars, run by the real Docker Compose v2: ``main`` is lhtb's container, each sandbox (the
agent's, a separate verifier's) gets its own sidecars on its own network, with lhtb's labels and limits, and
nothing of them outlives the trial or its dead owner."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import containers_of, run
from taskfactory import write_task

from lhtb.environments.base import ContainerSpec, Sidecars
from lhtb.environments.docker_client import get_client
from lhtb.environments.docker_env import DockerEnvironment


@pytest.fixture(scope="module", autouse=True)
def compose_available() -> None:
    from lhtb.environments.compose_env import compose_command
    from lhtb.errors import EnvironmentStartError

    try:
        compose_command()
    except EnvironmentStartError as exc:  # scripts/harbor-venv.sh links it; it skips only without Python 3.12
        pytest.skip(str(exc))


WEB = textwrap.dedent(
    """\
    services:
      web:
        image: lhtb/python:bookworm
        command: ["sh", "-c", "mkdir -p /srv && echo hello-from-web > /srv/token && cd /srv && exec python3 -m http.server 8000"]
        healthcheck:
          test: ["CMD", "python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/token')"]
          interval: 1s
          retries: 30
      main:
        depends_on: [web]
        environment:
          FROM_COMPOSE: "yes"
    """
)
FETCH = "python3 -c \"import urllib.request; print(urllib.request.urlopen('http://web:8000/token').read().decode().strip())\""
SOLVE = f"{FETCH} > /app/out.txt && echo $FROM_COMPOSE >> /app/out.txt"
# The verifier asks its own sidecar: a separate verifier without sidecars (or a network to them) scores 0.
CHECK = (
    f'want="$({FETCH})"; [ -n "$want" ] && [ "$(head -n 1 /app/out.txt)" = "$want" ] '
    '&& [ "$(sed -n 2p /app/out.txt)" = yes ] && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n'
)


def _sidecar_task(root: Path, name: str, *, mode: str) -> Path:
    task = write_task(root, name, solve=SOLVE, test_sh=CHECK)  # states a separate verifier
    toml = (task / "task.toml").read_text()
    (task / "task.toml").write_text(toml.replace('environment_mode = "separate"', f'environment_mode = "{mode}"'))
    (task / "environment" / "docker-compose.yaml").write_text(WEB)
    return task


def _leftovers(job: str) -> tuple[list[str], list[str]]:
    networks = get_client().api.networks(filters={"label": [f"lhtb.job={job}"]})
    return containers_of(job), [n["Name"] for n in networks]


def test_sidecar_task_runs_in_both_verifier_modes_and_leaves_nothing(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    _sidecar_task(tasks, "web-separate", mode="separate")
    _sidecar_task(tasks, "web-shared", mode="shared")
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), name="compose-job", concurrency=2)
    by_key = {(t.task_name, t.agent.name): t for t in trials.values()}
    for task in ("web-separate", "web-shared"):
        oracle = by_key[(task, "oracle")]
        assert oracle.reward == 1.0, (task, oracle.error)
        assert by_key[(task, "nop")].reward == 0.0, by_key[(task, "nop")].error
    assert by_key[("web-separate", "oracle")].verifier_mode == "separate"
    assert by_key[("web-shared", "oracle")].verifier_mode == "shared"
    assert _leftovers("compose-job") == ([], [])


def _spec(tmp_path: Path, job: str, *, internal: bool = True) -> ContainerSpec:
    compose = tmp_path / "environment" / "docker-compose.yaml"
    compose.parent.mkdir(parents=True, exist_ok=True)
    compose.write_text(WEB)
    return ContainerSpec(
        image="lhtb/python:bookworm",
        name=f"lhtb-{job}-agent",
        job=job,
        trial=f"{job}-trial",
        role="agent",
        cpus=0.5,
        memory_mb=256,
        sidecars=Sidecars(compose_file=str(compose), services=("web",), internal=internal, timeout_sec=120),
    )


def test_sidecars_share_the_sandbox_network_with_lhtb_labels_and_limits(tmp_path: Path) -> None:
    asyncio.run(_share_network(tmp_path))
    assert _leftovers("compose-env") == ([], [])


async def _share_network(tmp_path: Path) -> None:
    env = DockerEnvironment(_spec(tmp_path, "compose-env"))
    try:
        await env.start()
        fetched = await env.exec(FETCH, timeout_sec=60)
        assert fetched.stdout.strip() == "hello-from-web", fetched
        client = get_client()
        (web,) = client.api.containers(filters={"label": ["lhtb.job=compose-env", "lhtb.role=sidecar"]})
        details = client.api.inspect_container(web["Id"])
        labels = details["Config"]["Labels"]
        assert labels["lhtb.managed"] == "1" and labels["lhtb.trial"] == "compose-env-trial"
        assert labels["lhtb.service"] == "web"
        assert details["HostConfig"]["NanoCpus"] == 500_000_000 and details["HostConfig"]["Memory"] == 256 << 20
        (network_name,) = details["NetworkSettings"]["Networks"]
        network = client.api.inspect_network(network_name)
        assert network["Internal"] is True  # no route out: main and its sidecars only
        assert set(network["Containers"]) == {web["Id"], env.container_id}
        # The sidecar reaches main by its service name.
        await env.exec(
            "cd /tmp && echo from-main > m && (python3 -m http.server 9000 >/dev/null 2>&1 &)", timeout_sec=10
        )
        probe = (
            "import time, urllib.request\n"
            "for _ in range(50):\n"
            "    try: print(urllib.request.urlopen('http://main:9000/m').read().decode().strip()); break\n"
            "    except OSError: time.sleep(0.2)\n"
        )
        answer = client.api.exec_start(client.api.exec_create(web["Id"], ["python3", "-c", probe]))
        assert answer.decode().strip() == "from-main"
    finally:
        await env.stop()


def test_gc_removes_the_sidecars_and_network_of_a_dead_owner(tmp_path: Path) -> None:
    from lhtb.environments.gc import collect

    spec = _spec(tmp_path, "compose-gc")
    script = textwrap.dedent(
        f"""\
        import asyncio, os
        from lhtb.environments.base import ContainerSpec, Sidecars
        from lhtb.environments.docker_env import DockerEnvironment
        spec = ContainerSpec(**{{**{spec.__dict__!r}, "sidecars": Sidecars(**{spec.sidecars.__dict__!r})}})
        asyncio.run(DockerEnvironment(spec).start())
        os._exit(0)  # gone without stopping anything
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=300)
    containers, networks = _leftovers("compose-gc")
    assert len(containers) == 2 and len(networks) == 1  # main and web, on their network
    report = collect(job="compose-gc")
    assert len(report.containers) == 2 and report.networks == networks
    assert _leftovers("compose-gc") == ([], [])


def test_a_sidecar_that_fails_to_start_leaves_nothing(tmp_path: Path) -> None:
    asyncio.run(_fail_to_start(tmp_path))
    assert _leftovers("compose-missing") == ([], [])


async def _fail_to_start(tmp_path: Path) -> None:
    from lhtb.errors import BaseImageMissingError

    spec = _spec(tmp_path, "compose-missing")
    assert spec.sidecars is not None
    Path(spec.sidecars.compose_file).write_text(WEB.replace("image: lhtb/python:bookworm", "image: lhtb-test/absent:1"))
    env = DockerEnvironment(spec)
    with pytest.raises(BaseImageMissingError, match="lhtb-test/absent:1"):
        await env.start()
    await env.stop()


STORE_SERVER = textwrap.dedent(
    """\
    import http.server
    data = []
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_PUT(self):
            data.append(self.rfile.read(int(self.headers["Content-Length"])).decode())
            self.send_response(204)
            self.end_headers()
        def do_GET(self):
            body = "\\n".join(data).encode()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)
    http.server.HTTPServer(("0.0.0.0", 8000), Handler).serve_forever()
    """
)
GET = "python3 -c \"import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:8000/').read().decode())\""
PUT = (
    'python3 -c "import urllib.request; urllib.request.urlopen(urllib.request.Request('
    "'http://store:8000/', data=b'agent-was-here', method='PUT'))\""
)


def test_collect_hooks_carry_a_sidecars_state_to_a_separate_verifier(tmp_path: Path) -> None:
    """The agent's work lives in a sidecar's memory; the separate verifier gets fresh sidecars, so only Harbor's
    collect hooks (a dump in the sidecar, a copy in main) and the artifacts naming the sidecar carry it over."""
    import json

    tasks = tmp_path / "tasks"
    task = write_task(
        tasks,
        "store",
        solve=f"{PUT} && echo done > /app/out.txt",
        test_sh='grep -qx agent-was-here /srv/dump.txt && [ "$(cat /app/copied.txt)" = done ] '
        "&& echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n",
        top='artifacts = ["/app", { source = "/srv/dump.txt", service = "store" }]\n',
        toml=textwrap.dedent(
            f"""\
            [[verifier.collect]]
            command = "cp /app/out.txt /app/copied.txt"
            [[verifier.collect]]
            service = "store"
            command = {json.dumps(GET + " > /srv/dump.txt")}
            """
        ),
    )
    command = json.dumps(["python3", "-c", STORE_SERVER])
    (task / "environment" / "docker-compose.yaml").write_text(
        "services:\n  store:\n    image: lhtb/python:bookworm\n"
        f"    command: {command}\n"
        "    healthcheck:\n"
        f"      test: {json.dumps(['CMD', 'python3', '-c', GET.split(' -c ', 1)[1].strip(chr(34))])}\n"
        "      interval: 1s\n      retries: 30\n"
        "  main:\n    depends_on: [store]\n"
    )
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle", "nop"), name="collect")
    by_agent = {t.agent.name: t for t in trials.values()}
    assert by_agent["oracle"].reward == 1.0, by_agent["oracle"].error
    assert by_agent["nop"].reward == 0.0
    log = tmp_path / "jobs" / "collect" / "trials" / by_agent["oracle"].trial_name / "verifier" / "final"
    assert [line.split(":")[0] for line in (log / "collect-hooks.txt").read_text().splitlines()] == [
        "collect[0] (main)",
        "collect[1] (store)",
    ]
    assert _leftovers("collect") == ([], [])


def test_a_sidecar_that_never_gets_healthy_fails_the_start_and_leaves_nothing(tmp_path: Path) -> None:
    """Before the agent runs, so not the agent's doing: an environment_start error (retried, excluded), bounded
    by the task's build timeout, with the sidecar's name in the message."""
    tasks = tmp_path / "tasks"
    task = write_task(tasks, "sick", toml="[environment]\nbuild_timeout_sec = 20\n")
    (task / "environment" / "docker-compose.yaml").write_text(
        "services:\n  sick:\n    image: lhtb/python:bookworm\n    command: [sleep, infinity]\n"
        "    healthcheck:\n      test: [CMD, 'false']\n      interval: 1s\n      retries: 2\n"
    )
    _job, trials = run(tasks, tmp_path / "jobs", ("oracle",), name="sick")
    (trial,) = trials.values()
    assert trial.error is not None and trial.error.error_class.value == "environment_start", trial.error
    assert "sick" in trial.error.message and trial.reward is None
    assert _leftovers("sick") == ([], [])


@pytest.mark.slow
def test_exported_sidecar_tasks_score_the_same_in_stock_harbor(tmp_path: Path) -> None:
    """`lhtb tasks export --harbor` of a task with a sidecar and no network: its services share an internal
    network in the copy (Harbor's no-network rule would need its egress sidecar from a registry), so stock Harbor
    runs it, in both verifier modes, oracle 1.0 and nop 0.0 as lhtb does."""
    import shutil

    from test_harbor_export import HARBOR_BIN, _harbor_run

    from lhtb.harbor.task_export import INTERNAL_NETWORK

    if not (HARBOR_BIN / "harbor").exists():
        pytest.skip("stock Harbor absent (scripts/harbor-venv.sh)")
    tasks = tmp_path / "tasks"
    for name, mode in (("web-separate", "separate"), ("web-shared", "shared")):
        _sidecar_task(tasks, name, mode=mode)
    lhtb = shutil.which("lhtb", path=str(Path(sys.executable).parent))
    assert lhtb is not None
    exported = tmp_path / "harbor-tasks"
    done = subprocess.run(
        [lhtb, "tasks", "export", str(tasks / "web-separate"), str(tasks / "web-shared"), "--harbor", str(exported)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    import yaml

    compose = yaml.safe_load((exported / "web-separate" / "environment" / "docker-compose.yaml").read_text())
    assert compose["networks"] == {INTERNAL_NETWORK: {"internal": True}}
    assert {name: service["networks"] for name, service in compose["services"].items()} == {
        "web": [INTERNAL_NETWORK],
        "main": [INTERNAL_NETWORK],
    }
    for agent, expected in (("oracle", 1.0), ("nop", 0.0)):
        results = _harbor_run(exported, tmp_path, agent)
        for name in ("lhtb/web-separate", "lhtb/web-shared"):
            assert results[name]["exception_info"] is None, (name, results[name]["exception_info"])
            assert results[name]["verifier_result"]["rewards"] == {"reward": expected}, (name, agent)
