"""Integration tests use the real Docker engine and the lhtb base images (scripts/setup.sh provides both)."""

from __future__ import annotations

import pytest


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
