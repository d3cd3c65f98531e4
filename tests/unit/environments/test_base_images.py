"""Which images a Dockerfile builds from (the base-image check names exactly those)."""

from __future__ import annotations

from lhtb.environments.images import base_images


def test_stages_scratch_and_args_are_not_base_images() -> None:
    dockerfile = (
        "ARG BASE=lhtb/python:bookworm\n"
        "FROM --platform=linux/amd64 ubuntu:24.04 AS Builder\n"
        "RUN make\n"
        "from builder as tester\n"
        "FROM $BASE\n"
        "FROM scratch\n"
        "FROM debian:bookworm\n"
        "COPY --from=builder /x /x\n"
        "FROM ubuntu:24.04\n"
    )
    assert base_images(dockerfile) == ["ubuntu:24.04", "debian:bookworm"]


def test_substitution_replaces_only_the_named_from_references() -> None:
    from lhtb.environments.images import substitute_bases

    dockerfile = "FROM ubuntu:24.04 AS build\nRUN echo ubuntu:24.04\nFROM build\nfrom --platform=x ubuntu:24.04\n"
    assert substitute_bases(dockerfile, {"ubuntu:24.04": "lhtb/base:bookworm", "build": "nope"}) == (
        "FROM lhtb/base:bookworm AS build\nRUN echo ubuntu:24.04\nFROM build\nfrom --platform=x lhtb/base:bookworm\n"
    )
