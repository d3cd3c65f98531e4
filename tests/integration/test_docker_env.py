"""The Docker environment itself: exec options, timeouts killed inside the container, tar streams, pause."""

from __future__ import annotations

import asyncio
import io
import tarfile
from pathlib import Path

import pytest

from lhtb.environments.base import ContainerSpec, unique_name
from lhtb.environments.cgroup_cpu import CpuFile
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.images import PYTHON_IMAGE
from lhtb.environments.tarsafe import safe_extract


def _env(**overrides: object) -> DockerEnvironment:
    spec = ContainerSpec(
        image=PYTHON_IMAGE,
        name=unique_name("envtest"),
        job="envtest",
        trial="envtest",
        role="agent",
        **overrides,
    )  # type: ignore[arg-type]
    return DockerEnvironment(spec)


async def _with_env(body, **overrides: object):  # type: ignore[no-untyped-def]
    env = _env(**overrides)
    await env.start()
    try:
        return await body(env)
    finally:
        await env.stop()


def test_exec_user_env_workdir_and_limits() -> None:
    async def body(env: DockerEnvironment):  # type: ignore[no-untyped-def]
        who = await env.exec("id -un; echo $GREETING; pwd", user="nobody", env={"GREETING": "hi"}, workdir="/tmp")
        net = await env.exec("cat /sys/class/net/*/operstate 2>/dev/null | sort | tr '\\n' ' '; ls /sys/class/net")
        pids = await env.exec("cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max")
        failing = await env.exec("exit 5")
        return who, net, pids, failing

    who, net, pids, failing = asyncio.run(_with_env(body, pids_limit=321, env={"BASE": "1"}))
    assert who.stdout.split() == ["nobody", "hi", "/tmp"]
    assert net.stdout.split()[-1] == "lo"  # network none: loopback only
    assert pids.stdout.strip() == "321"
    assert failing.exit_code == 5 and not failing.timed_out


def test_timed_out_exec_is_killed_inside_the_container() -> None:
    async def body(env: DockerEnvironment):  # type: ignore[no-untyped-def]
        result = await env.exec("sleep 300 & sleep 301; echo never", timeout_sec=1.5)
        await asyncio.sleep(0.5)
        survivors = await env.exec("ps -eo args | grep -c '^sleep 30[01]' || true")
        return result, survivors

    result, survivors = asyncio.run(_with_env(body))
    assert result.timed_out and result.exit_code is None
    assert result.duration_sec < 10
    assert "never" not in result.stdout
    assert survivors.stdout.strip() == "0"


def test_cancelled_exec_is_killed_too() -> None:
    async def body(env: DockerEnvironment):  # type: ignore[no-untyped-def]
        task = asyncio.ensure_future(env.exec("sleep 302"))
        await asyncio.sleep(1.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.5)
        return await env.exec("ps -eo args | grep -c '^sleep 302' || true")

    assert asyncio.run(_with_env(body)).stdout.strip() == "0"


def test_upload_download_and_unsafe_links(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "deep").mkdir(parents=True)
    (source / "deep" / "data.txt").write_text("payload")

    async def body(env: DockerEnvironment):  # type: ignore[no-untyped-def]
        await env.upload_dir(source, "/app/in")
        await env.exec(
            "ln -s /etc/shadow /app/in/evil; ln -s ../../../../etc /app/in/deep/up; ln -s data.txt /app/in/deep/ok"
        )
        return await env.download_sanitized("/app/in")

    sanitized = asyncio.run(_with_env(body))
    refused = " ".join(sanitized.refused)
    assert "in/evil" in refused and "in/deep/up" in refused
    dest = tmp_path / "out"
    safe_extract(sanitized.data, dest)
    assert (dest / "in" / "deep" / "data.txt").read_text() == "payload"
    assert (dest / "in" / "deep" / "ok").is_symlink()
    assert not (dest / "in" / "evil").exists()


def test_pause_freezes_processes() -> None:
    async def body(env: DockerEnvironment):  # type: ignore[no-untyped-def]
        await env.exec("nohup bash -c 'while true; do date +%s%N >> /app/ticks; sleep 0.05; done' >/dev/null 2>&1 &")
        await asyncio.sleep(0.5)
        await env.pause()
        frozen = await asyncio.to_thread(_read_file, env, "/app/ticks")
        await asyncio.sleep(0.6)
        still = await asyncio.to_thread(_read_file, env, "/app/ticks")
        await env.unpause()
        await asyncio.sleep(0.3)
        after = (await env.exec("cat /app/ticks")).stdout
        return frozen, still, after

    frozen, still, after = asyncio.run(_with_env(body))
    assert frozen == still  # nothing ran while paused
    assert len(after) > len(still)


def test_cpu_counter_follows_work_from_the_host_file_and_the_api() -> None:
    async def body(env: DockerEnvironment):  # type: ignore[no-untyped-def]
        idle_start = await env.cpu_usage_ns()
        await asyncio.sleep(0.5)
        idle_end = await env.cpu_usage_ns()
        await env.exec("timeout 2 sh -c 'while :; do :; done'; true")
        busy_end = await env.cpu_usage_ns()
        found = env._cpu_file
        env._cpu_file = False  # as on a remote engine: the Engine API's stats
        from_api = await env.cpu_usage_ns()
        return idle_start, idle_end, busy_end, from_api, found

    idle_start, idle_end, busy_end, from_api, found = asyncio.run(_with_env(body))
    assert isinstance(found, CpuFile), "the engine runs on this host: its cgroup file is read"
    assert idle_start is not None and idle_end is not None and busy_end is not None and from_api is not None
    assert idle_end - idle_start < 0.05e9  # an idle container uses (almost) nothing
    assert busy_end - idle_end > 0.3e9  # a two-second busy loop on a one-CPU container (even on a loaded host)
    assert abs(from_api - busy_end) < 0.2e9  # both sources count the same thing


def _read_file(env: DockerEnvironment, path: str) -> str:
    stream, _ = env._require().get_archive(path)
    with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
        member = archive.extractfile(archive.getmembers()[0])
        assert member is not None
        return member.read().decode()


def test_stop_is_idempotent_and_fast() -> None:
    import time

    async def body() -> float:
        env = _env()
        await env.start()
        started = time.monotonic()
        await env.stop()
        await env.stop()
        return time.monotonic() - started

    assert asyncio.run(body()) < 5  # an init process: no 10 s SIGTERM grace
