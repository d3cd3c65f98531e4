"""Exec output and timeouts in a real container: huge output is capped while read; a timeout is the clock's."""

from __future__ import annotations

import asyncio

from lhtb.environments.base import ContainerSpec, ExecResult, unique_name
from lhtb.environments.docker_env import MAX_CAPTURED_OUTPUT, DockerEnvironment
from lhtb.environments.images import BASE_IMAGE


async def _run(*commands: tuple[str, float | None]) -> list[ExecResult]:
    env = DockerEnvironment(
        ContainerSpec(image=BASE_IMAGE, name=unique_name("execout"), job="execout", trial="execout", role="agent")
    )
    await env.start()
    try:
        return [await env.exec(command, timeout_sec=timeout) for command, timeout in commands]
    finally:
        await env.stop()


def test_huge_output_is_capped_and_counted() -> None:
    mib = 1024 * 1024
    (big,) = asyncio.run(_run(("head -c 64M /dev/zero | tr '\\0' x; head -c 3M /dev/zero | tr '\\0' e >&2", 120)))
    assert big.exit_code == 0 and not big.timed_out
    assert big.stdout_bytes == 64 * mib and big.stderr_bytes == 3 * mib
    assert big.output_truncated
    assert len(big.stdout) <= MAX_CAPTURED_OUTPUT + 200  # head + tail + the marker line
    assert "bytes omitted by lhtb" in big.stdout and set(big.stdout.replace("\n", "")[:1000]) == {"x"}
    assert big.stderr == "e" * 3 * mib  # under the cap: whole


def test_exit_124_before_the_deadline_is_an_exit_code_not_a_timeout() -> None:
    own_124, own_137, slow = asyncio.run(_run(("echo ok; exit 124", 60), ("exit 137", 60), ("sleep 5; echo never", 1)))
    assert (own_124.exit_code, own_124.timed_out, own_124.stdout) == (124, False, "ok\n")
    assert (own_137.exit_code, own_137.timed_out) == (137, False)
    assert slow.timed_out and slow.exit_code is None and "never" not in slow.stdout
    assert slow.duration_sec >= 1
