"""``lhtb serve-local-model``: the offline model server (see lhtb.llm.local_server) behind the CLI."""

from __future__ import annotations


def serve_local_model_command(port: int, model: str, n_ctx: int, threads: int | None, prepare_only: bool) -> int:
    from lhtb.llm.local_server import main

    argv = ["--port", str(port), "--model", model, "--n-ctx", str(n_ctx)]
    if threads is not None:
        argv += ["--threads", str(threads)]
    if prepare_only:
        argv.append("--prepare-only")
    return main(argv)
