"""Artifact faults the agent causes are graded, never harness errors (integrity round 2, holes 3 and 4)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import run

from lhtb.environments.base import ContainerSpec, unique_name
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.images import BASE_IMAGE
from lhtb.errors import ArtifactsRefusedError, ErrorClass
from lhtb.results.scoring import scored_reward

DANGLING = (
    "ln -s /etc/shadow /app/abs; ln /app/abs /app/h-abs; mkfifo /app/p; ln /app/p /app/h-fifo; "
    "mknod /app/dev c 1 3 2>/dev/null && ln /app/dev /app/h-dev; true"
)


def _env() -> DockerEnvironment:
    return DockerEnvironment(
        ContainerSpec(image=BASE_IMAGE, name=unique_name("artfault"), job="artfault", trial="artfault", role="agent")
    )


def test_sparse_file_is_refused_quickly_and_dangling_links_are_dropped() -> None:
    async def body() -> tuple[str, list[str]]:
        env = _env()
        await env.start()
        try:
            links_setup = DANGLING.replace("/app/", "/app/links/")
            await env.exec(f"mkdir -p /app/big /app/links && echo hi > /app/links/ok; {links_setup}")
            await env.exec("truncate -s 3G /app/big/big.bin")
            try:
                await env.download_sanitized("/app/big")
            except ArtifactsRefusedError as exc:
                refused_big = str(exc)
            else:
                raise AssertionError("a 3 GiB artifact was accepted")
            links = await env.download_sanitized("/app/links")
            assert links is not None
            assert links.n_members == 2  # the directory and links/ok: every link to a refused member is dropped
            return refused_big, links.refused
        finally:
            await env.stop()

    refused_big, refused = asyncio.run(body())
    assert "big.bin" in refused_big and "size limit" in refused_big
    text = "\n".join(refused)
    # Docker stores the first name of an inode in full and later names as hard links to it.
    assert text.count("hard link to a member") == 3, text


RSS_PROBE = textwrap.dedent(
    """
    import asyncio, sys
    from lhtb.environments.base import ContainerSpec, unique_name
    from lhtb.environments.docker_env import DockerEnvironment
    from lhtb.environments.images import BASE_IMAGE

    async def main():
        env = DockerEnvironment(ContainerSpec(image=BASE_IMAGE, name=unique_name("artrss"), job="artfault",
                                              trial="artrss", role="agent"))
        await env.start()
        try:
            await env.exec("mkdir -p /app && truncate -s 1900M /app/big.bin")
            archive = await env.download_sanitized("/app")
            assert archive is not None and archive.size > 1900 * 2**20, archive
            archive.close()
        finally:
            await env.stop()

    asyncio.run(main())
    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0].split()[1]
    print(int(hwm) // 1024)
    """
)


def test_harness_memory_stays_bounded_on_a_large_sparse_artifact() -> None:
    done = subprocess.run([sys.executable, "-c", RSS_PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    peak_mib = int(done.stdout.split()[-1])
    print(f"peak RSS while snapshotting a 1.9 GiB sparse artifact: {peak_mib} MiB")
    assert peak_mib < 300


def test_trials_with_artifact_faults_are_graded_not_excluded(make_task, tmp_path: Path) -> None:
    make_task("sparse", solve="echo hello > /app/out.txt; truncate -s 3G /app/big.bin")
    make_task("dangling", solve=f"echo hello > /app/out.txt; {DANGLING}")
    job, trials = run(make_task.root, tmp_path / "jobs", name="artfaults", max_retries=2)
    sparse = trials["sparse__oracle__1"]
    assert sparse.error is not None and sparse.error.error_class == ErrorClass.ARTIFACTS_REFUSED
    assert "big.bin" in sparse.error.message and not sparse.error.retryable
    assert sparse.retries == 0 and scored_reward(sparse) == 0.0
    dangling = trials["dangling__oracle__1"]
    assert dangling.error is None and dangling.reward == 1.0  # the links are refused, the rest is graded
    refused = tmp_path / "jobs" / "artfaults" / "trials" / "dangling__oracle__1" / "verifier" / "final"
    assert "h-fifo" in (refused / "refused-artifacts.txt").read_text()
    (summary,) = job.agents
    assert summary.n_trials == 2 and summary.mean_reward == 0.5
