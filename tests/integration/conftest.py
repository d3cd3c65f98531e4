"""Integration tests use the real Docker engine and the lhtb base images (scripts/setup.sh provides both)."""

from __future__ import annotations

import os

import pytest

# Interim verifications resume the agent a fixed pause after they start (default: the verifier timeout + 15 s);
# the tests' tasks grade in about a second, so a short pause keeps continue-until-timeout tests quick.
os.environ.setdefault("LHTB_FEEDBACK_PAUSE_SEC", "8")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "integration" in str(item.fspath):
            item.add_marker(pytest.mark.docker)


@pytest.fixture(scope="session", autouse=True)
def docker_ready() -> None:
    from lhtb.environments.docker_client import get_client
    from lhtb.environments.images import BASE_IMAGE, PYTHON_IMAGE

    client = get_client()  # raises with a clear message when no engine runs: integration tests need one
    for image in (BASE_IMAGE, PYTHON_IMAGE):
        client.images.get(image)


@pytest.fixture(scope="session", autouse=True)
def prune_task_images():  # type: ignore[no-untyped-def]
    """Task images built by this session are removed at its end: disk can be tight on CI machines."""
    from datetime import UTC, datetime

    from lhtb.environments.docker_client import get_client
    from lhtb.environments.images import TASK_IMAGE_REPO

    started = datetime.now(UTC).timestamp() - 5
    yield
    client = get_client()
    for image in client.images.list(filters={"label": "lhtb.task"}):
        created = datetime.fromisoformat(image.attrs["Created"][:19]).replace(tzinfo=UTC).timestamp()
        if created < started:
            continue
        for tag in image.tags:
            if tag.startswith(TASK_IMAGE_REPO + "/"):
                client.images.remove(tag, force=True)
