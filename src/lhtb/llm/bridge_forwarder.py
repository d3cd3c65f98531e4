"""Runs INSIDE a task container (stdlib only): 127.0.0.1:PORT -> a Unix socket the harness bind-mounts.

The container keeps ``--network none``; an agent inside it reaches the model server on the host's loopback
through this forwarder and the harness's end of the socket (``lhtb.llm.bridge``), never through a network.

    python3 bridge_forwarder.py PORT SOCKET_PATH

The harness's end (``lhtb.llm.bridge``) imports :func:`pipe` from here: both ends relay the same way.
"""

from __future__ import annotations  # annotations stay text: the task image's python3 may be old

import asyncio
import sys
from collections.abc import Callable


async def pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, on_bytes: Callable[[bytes], None] | None = None
) -> None:
    """Copy until the reader ends; ``on_bytes`` sees every chunk first (the harness's activity watch)."""
    try:
        while chunk := await reader.read(65536):
            if on_bytes is not None:
                on_bytes(chunk)
            writer.write(chunk)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def _serve(port: int, socket_path: str) -> None:
    async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_unix_connection(socket_path)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, upstream_writer), pipe(upstream_reader, client_writer))

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(_serve(int(sys.argv[1]), sys.argv[2]))
