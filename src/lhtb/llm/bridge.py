"""A loopback-only route from a ``--network none`` task container to a model server on the host's loopback.

Installed agents run inside the task container, so ``http://127.0.0.1:PORT/v1`` there is the container's own
loopback. The harness bind-mounts a directory holding a Unix socket it serves; a small forwarder inside the
container (``bridge_forwarder.py``, started by the harness) listens on the container's 127.0.0.1:PORT and
relays to that socket, and the harness relays the socket to the host's 127.0.0.1:PORT. The container gets no
network interface, and the host end connects to loopback only: nothing leaves this machine.

The relay also tells the activity monitor when the agent waits on its model: from a request's first bytes to the
end of its answer (found from the HTTP framing: Content-Length, the last chunk, or the connection's close) a call
is in flight (work, however long the model takes); a streamed answer's bytes are work as they come; an idle
keep-alive connection is nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import shutil
import tempfile
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from lhtb.llm.bridge_forwarder import pipe
from lhtb.llm.http_framing import MAX_CONNECTIONS, AnswerEnd, RequestGate, model_api_paths

__all__ = ["AnswerEnd", "ModelBridge", "loopback_port"]

BRIDGE_DIR = "/run/lhtb-model"  # where the socket directory is mounted in the container
SOCKET_NAME = "model.sock"
FORWARDER_NAME = "bridge_forwarder.py"
FORWARDER_SOURCE = Path(__file__).with_name(FORWARDER_NAME)


def loopback_port(api_base: str | None) -> int | None:
    """The port of ``api_base`` when it names this machine's loopback (the only target a bridge serves)."""
    if not api_base:
        return None
    parts = urlsplit(api_base)
    host = parts.hostname or ""
    try:
        is_loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return None
    if not is_loopback:
        return None
    return parts.port or (443 if parts.scheme == "https" else 80)


class CallWatcher(Protocol):
    """What the relay reports to (``lhtb.trial.activity.ActivityMonitor``)."""

    def begin_wait(self) -> None: ...
    def end_wait(self) -> None: ...
    def touch(self) -> None: ...


class _Exchange:
    """One relayed connection: is a request waiting for (the end of) its answer?"""

    def __init__(self, bridge: ModelBridge) -> None:
        self._bridge = bridge
        self._watcher: CallWatcher | None = None  # the one told of the wait in flight, if any
        self._answer = AnswerEnd()

    def request_bytes(self, _data: bytes) -> None:
        watcher = self._bridge.activity
        if self._watcher is None and watcher is not None:
            self._watcher = watcher
            self._answer = AnswerEnd()
            watcher.begin_wait()

    def answer_bytes(self, data: bytes) -> None:
        if self._bridge.activity is not None:
            self._bridge.activity.touch()
        if self._watcher is not None and self._answer.feed(data):
            self.finish()

    def finish(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.end_wait()


class ModelBridge:
    """The host end: a Unix socket in a fresh directory, relayed to 127.0.0.1:``port``."""

    def __init__(self, port: int, base_path: str = "/v1") -> None:
        """``base_path``: the path of the base URL the agent was given; its model API's paths are all that pass."""
        self.port = port
        self.allowed = model_api_paths(base_path)
        self.activity: CallWatcher | None = None  # set once the agent's activity monitor exists
        self.directory = Path(tempfile.mkdtemp(prefix="lhtb-model-"))
        self.socket_path = self.directory / SOCKET_NAME
        self._server: asyncio.AbstractServer | None = None
        self._relays: set[asyncio.Task[None]] = set()
        self.refused: list[str] = []  # requests that were not model-API calls (the connection was closed)

    @property
    def mount(self) -> dict[str, tuple[str, str]]:
        """The bind mount for the container (read-write: connecting to a socket needs write permission)."""
        return {str(self.directory): (BRIDGE_DIR, "rw")}

    @property
    def forwarder_command(self) -> str:
        """Bash for the container: start the forwarder detached, return once 127.0.0.1:port accepts."""
        port = self.port
        return (
            f"nohup python3 {BRIDGE_DIR}/{FORWARDER_NAME} {port} {BRIDGE_DIR}/{SOCKET_NAME} >/dev/null 2>&1 &\n"
            f"for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && exit 0; sleep 0.05; done\n"
            f"echo 'the model forwarder is not listening on 127.0.0.1:{port} (no python3 in the image?)' >&2; exit 1"
        )

    async def start(self) -> None:
        shutil.copyfile(FORWARDER_SOURCE, self.directory / FORWARDER_NAME)
        self._server = await asyncio.start_unix_server(self._handle, path=str(self.socket_path))
        # Agents may run as any user in the container: the socket must be connectable by all of them.
        os.chmod(self.directory, 0o755)
        os.chmod(self.socket_path, 0o777)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._relays) >= MAX_CONNECTIONS:
            self.refused.append(f"over {MAX_CONNECTIONS} connections at once")
            writer.close()
            return
        task = asyncio.current_task()
        if task is not None:
            self._relays.add(task)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            writer.close()
            return
        exchange = _Exchange(self)
        try:
            await asyncio.gather(
                self._requests(reader, upstream_writer, writer, exchange),
                pipe(upstream_reader, writer, exchange.answer_bytes),
            )
        finally:
            exchange.finish()  # a connection closed (or the trial ended) while waiting: the wait is over
            if task is not None:
                self._relays.discard(task)

    async def _requests(
        self,
        reader: asyncio.StreamReader,
        upstream: asyncio.StreamWriter,
        client: asyncio.StreamWriter,
        exchange: _Exchange,
    ) -> None:
        """The agent's requests, relayed while each is a model-API call; the first that is not closes both ends."""
        gate = RequestGate(self.allowed)
        try:
            while chunk := await reader.read(65536):
                allowed, refused = gate.feed(chunk)
                if allowed:
                    exchange.request_bytes(allowed)
                    upstream.write(allowed)
                    await upstream.drain()
                if refused is not None:
                    self.refused.append(refused)
                    client.close()
                    break
        except (ConnectionError, OSError):
            pass
        finally:
            upstream.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for relay in list(self._relays):
                relay.cancel()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        shutil.rmtree(self.directory, ignore_errors=True)
