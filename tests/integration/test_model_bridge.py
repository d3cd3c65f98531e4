"""The loopback bridge: a --network none container reaches a server on the host's 127.0.0.1, and nothing else."""

from __future__ import annotations

import asyncio
import http.server
import threading
from collections.abc import Iterator

import pytest

from lhtb.environments.base import ContainerSpec, unique_name
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.images import PYTHON_IMAGE
from lhtb.llm.bridge import ModelBridge, loopback_port


class _Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = f"hello from the host: {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def host_server() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield int(server.server_address[1])
    server.shutdown()
    server.server_close()


FETCH = (
    'python3 -c "import urllib.request; '
    "print(urllib.request.urlopen('http://127.0.0.1:{port}/v1/models', timeout=10).read().decode())\""
)


def test_container_reaches_the_host_loopback_server_only_through_the_bridge(host_server: int) -> None:
    async def body() -> tuple[str, str, str, int]:
        bridge = ModelBridge(host_server)
        await bridge.start()
        spec = ContainerSpec(
            image=PYTHON_IMAGE, name=unique_name("bridge"), job="bridgetest", trial="bridgetest", role="agent",
            mounts=bridge.mount,
        )  # fmt: skip
        env = DockerEnvironment(spec)
        await env.start()
        try:
            before = await env.exec(FETCH.format(port=host_server), timeout_sec=20)  # no route yet
            started = await env.exec(bridge.forwarder_command, user="root", timeout_sec=30)
            assert started.exit_code == 0, started.stderr
            after = await env.exec(FETCH.format(port=host_server), user="nobody", timeout_sec=20)
            interfaces = await env.exec("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")
        finally:
            await env.stop()
            await bridge.close()
        return before.stderr, after.stdout, interfaces.stdout, int(not bridge.directory.exists())

    refused, fetched, interfaces, cleaned = asyncio.run(body())
    assert "Connection refused" in refused
    assert fetched.strip() == "hello from the host: /v1/models"  # also for an unprivileged user
    assert interfaces.split() == ["lo"]  # still --network none
    assert cleaned


@pytest.mark.parametrize(
    ("url", "port"),
    [
        ("http://127.0.0.1:8089/v1", 8089),
        ("http://localhost:9000", 9000),
        ("http://[::1]:7000/v1", 7000),
        ("http://127.0.0.1/v1", 80),
        ("http://10.0.0.5:8089/v1", None),
        ("https://api.example.com/v1", None),
        (None, None),
    ],
)
def test_only_loopback_urls_are_bridged(url: str | None, port: int | None) -> None:
    assert loopback_port(url) == port


def test_a_remote_model_for_an_in_container_agent_without_network_is_a_setup_error(make_task, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from lhtb.jobs.job_runner import new_job_config, run_job
    from lhtb.results.models import AgentSpec, TrialResult

    make_task("remote-model")
    spec = AgentSpec(name="codex", model="m", kwargs={"api_base": "http://10.0.0.5:8089/v1"})  # never contacted
    config = new_job_config(make_task.root, None, [spec], job_name="remote", attempts=1, concurrency=1, max_retries=0)
    run_job(config, tmp_path / "jobs")
    (path,) = (tmp_path / "jobs" / "remote" / "trials").glob("*/result.json")
    result = TrialResult.model_validate_json(path.read_text())
    assert result.error is not None and result.error.error_class.value == "agent_setup"
    assert "must be this machine's loopback" in result.error.message
