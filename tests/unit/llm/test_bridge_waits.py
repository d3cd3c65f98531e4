"""The model bridge tells the activity monitor when a relayed model call is in flight, on real loopback sockets.

The answer's end is found in the HTTP framing, so a streamed answer whose tokens come minutes after its headers
still reads as a wait, and an idle keep-alive connection reads as nothing.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from lhtb.llm.bridge import AnswerEnd, ModelBridge
from lhtb.llm.http_framing import RequestGate, model_api_paths


class Watcher:
    def __init__(self) -> None:
        self.waits = 0
        self.begun = 0
        self.touches = 0

    def begin_wait(self) -> None:
        self.waits += 1
        self.begun += 1

    def end_wait(self) -> None:
        self.waits -= 1

    def touch(self) -> None:
        self.touches += 1


@pytest.mark.parametrize(
    ("pieces", "ends_after"),
    [
        ([b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", b"cde"], 1),
        ([b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"], 0),
        ([b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", b"3\r\nab", b"c\r\n", b"0\r\n", b"\r\n"], 4),
        ([b"HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n4;x=y\r\ndata\r\n0\r\nX-T: 1\r\n\r\n"], 0),
        ([b"HTTP/1.1 100 Continue\r\n\r\n", b"HTTP/1.1 204 No Content\r\n\r\n"], 1),
        ([b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", b"data: x\n\n"], None),  # until close
        ([b"\x00garbage that is not HTTP\r\n\r\n"], 0),
    ],
)
def test_the_end_of_an_answer_is_found_in_its_framing(pieces: list[bytes], ends_after: int | None) -> None:
    answer = AnswerEnd()
    ended = [answer.feed(piece) for piece in pieces]
    expected = [i >= ends_after for i in range(len(pieces))] if ends_after is not None else [False] * len(pieces)
    assert ended == expected


def test_a_relayed_call_is_in_flight_until_its_streamed_answer_ends() -> None:
    async def go() -> None:
        release = {name: asyncio.Event() for name in ("headers", "tokens", "end")}

        async def model_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            for _ in range(2):  # two calls on one keep-alive connection
                await reader.readuntil(b"\r\n\r\n")
                await release["headers"].wait()
                writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                await writer.drain()
                await release["tokens"].wait()
                writer.write(b"5\r\nhello\r\n")
                await writer.drain()
                await release["end"].wait()
                writer.write(b"0\r\n\r\n")
                await writer.drain()
                for event in release.values():
                    event.clear()
            writer.close()

        server = await asyncio.start_server(model_server, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        bridge, watcher = ModelBridge(port), Watcher()
        bridge.activity = watcher
        await bridge.start()
        try:
            reader, writer = await asyncio.open_unix_connection(str(bridge.socket_path))

            async def settle() -> None:
                for _ in range(20):
                    await asyncio.sleep(0.01)

            for call in range(2):
                writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
                await writer.drain()
                await settle()
                assert watcher.waits == 1, f"call {call}: the request is in flight"
                release["headers"].set()
                await settle()
                assert watcher.waits == 1, "headers came, no token yet: still waiting"
                release["tokens"].set()
                await settle()
                assert watcher.waits == 1 and watcher.touches >= 2
                release["end"].set()
                await reader.readuntil(b"0\r\n\r\n")
                await settle()
                assert watcher.waits == 0, "the answer ended"
            await settle()
            assert watcher.waits == 0 and watcher.begun == 2  # the idle keep-alive connection is no wait
            writer.close()
        finally:
            await bridge.close()
            server.close()

    asyncio.run(go())


def test_a_connection_that_drops_mid_call_ends_its_wait() -> None:
    async def go() -> None:
        async def dropping_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.close()

        server = await asyncio.start_server(dropping_server, "127.0.0.1", 0)
        bridge, watcher = ModelBridge(server.sockets[0].getsockname()[1]), Watcher()
        bridge.activity = watcher
        await bridge.start()
        try:
            reader, writer = await asyncio.open_unix_connection(str(bridge.socket_path))
            writer.write(b"GET /v1/models HTTP/1.1\r\n\r\n")
            await writer.drain()
            assert await reader.read() == b""
            for _ in range(20):
                await asyncio.sleep(0.01)
            assert watcher.begun == 1 and watcher.waits == 0
        finally:
            await bridge.close()
            server.close()

    asyncio.run(go())


SMUGGLED = b"POST /model/new HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"


@pytest.mark.parametrize(
    ("request_bytes", "passes"),
    [
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", True),
        (b"POST /v1/responses HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", True),
        (b"POST /v1/v1/messages?beta=true HTTP/1.1\r\nContent-Length: 0\r\n\r\n", True),
        (b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n", True),
        (b"POST /model/new HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", False),  # the proxy's admin routes
        (b"POST /config/update HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", False),
        (b"POST /anthropic/v1/messages HTTP/1.1\r\nContent-Length: 0\r\n\r\n", False),  # pass-through off-host
        (b"POST /slots/0?action=save HTTP/1.1\r\nContent-Length: 0\r\n\r\n", False),  # a model server's files
        (b"POST http://x/v1/chat/completions HTTP/1.1\r\nContent-Length: 0\r\n\r\n", False),  # absolute form
        (b"GET http://[::1/v1/models HTTP/1.1\r\n\r\n", False),
        (b"DELETE /v1/models HTTP/1.1\r\n\r\n", False),
        (b"GET /v1/../key/generate HTTP/1.1\r\n\r\n", False),
        (b"\x16\x03\x01 not http\r\n\r\n", False),
        # Framing a lenient server reads differently from a lenient gate: refused, never guessed.
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 0\n\n" + SMUGGLED, False),  # bare LF
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding:\r\n chunked\r\n\r\n"
         b"0\r\n\r\n" + SMUGGLED, False),  # a folded header line
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
         False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\n{}", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\n{}\r\n0\r\n\r\n", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX\r\n0\r\n\r\n", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent Length: 2\r\n\r\n{}", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", False),  # over MAX_BODY
        (b"POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFF\r\n", False),
        (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\rContent-Length: 2\r\n\r\n{}", False),  # bare CR
    ],
)  # fmt: skip
def test_only_model_api_calls_pass_the_gate(request_bytes: bytes, passes: bool) -> None:
    gate = RequestGate(model_api_paths("/v1"))
    forwarded, refused = gate.feed(request_bytes)
    assert (refused is None) is passes, refused
    if passes:
        assert forwarded == request_bytes
    else:
        assert b"/model/new" not in forwarded and b"/anthropic" not in forwarded and b"/config" not in forwarded


def test_the_gate_allows_the_paths_of_the_base_url_it_was_given() -> None:
    """Claude Code's base URL is the proxy's root (it appends /v1/messages); an OpenAI client's ends in /v1."""
    root, openai_style = model_api_paths(""), model_api_paths("/openai/v1")
    assert {"/v1/messages", "/v1/messages/count_tokens"} <= root and "/chat/completions" in root
    assert "/openai/v1/chat/completions" in openai_style and "/v1/chat/completions" not in openai_style


def test_a_refused_request_behind_an_allowed_one_on_one_connection_is_not_forwarded() -> None:
    """Pipelined on a keep-alive connection: the allowed call goes through whole, the admin call after it not at
    all, even when the second head arrives in the first call's last packet or byte by byte."""
    allowed = b"POST /v1/v1/messages HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
    admin = b"POST /key/generate HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"
    for pieces in ([allowed + admin], [bytes([b]) for b in allowed + admin]):
        gate = RequestGate(model_api_paths("/v1"))
        forwarded = b"".join(gate.feed(piece)[0] for piece in pieces)
        assert forwarded == allowed and gate.refused is not None and "/key/generate" in gate.refused


def test_the_gate_reads_a_head_sent_byte_by_byte_in_linear_time() -> None:
    """No rescans of the pending bytes: 64 KiB one byte at a time is a few hundred thousand steps, not billions."""
    import time

    gate = RequestGate(model_api_paths("/v1"))
    head = b"POST /v1/responses HTTP/1.1\r\n" + b"X-Pad: " + b"a" * 60_000 + b"\r\nContent-Length: 0\r\n\r\n"
    started = time.process_time()
    forwarded = b"".join(gate.feed(head[i : i + 1])[0] for i in range(len(head)))
    assert forwarded == head and gate.refused is None
    assert time.process_time() - started < 5.0  # quadratic scanning took 1.5 s on this machine; linear, ~0.3 s


def test_the_bridge_closes_a_connection_that_asks_for_anything_but_the_model() -> None:
    async def go() -> tuple[bytes, list[bytes], list[str]]:
        seen: list[bytes] = []

        async def proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            seen.append(await reader.read(65536))
            writer.close()

        server = await asyncio.start_server(proxy, "127.0.0.1", 0)
        bridge = ModelBridge(server.sockets[0].getsockname()[1])
        await bridge.start()
        try:
            reader, writer = await asyncio.open_unix_connection(str(bridge.socket_path))
            writer.write(b"POST /config/update HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}")
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 10)  # closed, unanswered
            await asyncio.sleep(0.2)
            return answer, seen, bridge.refused
        finally:
            await bridge.close()
            server.close()

    answer, seen, refused = asyncio.run(go())
    assert answer == b"" and b"/config/update" not in b"".join(seen)
    assert refused == ["POST /config/update is not a model API call"]


def test_the_bridge_takes_at_most_so_many_connections_at_once() -> None:
    from lhtb.llm.http_framing import MAX_CONNECTIONS

    async def go() -> tuple[int, list[str]]:
        async def idle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read()

        server = await asyncio.start_server(idle, "127.0.0.1", 0)
        bridge = ModelBridge(server.sockets[0].getsockname()[1])
        await bridge.start()
        try:
            held = [await asyncio.open_unix_connection(str(bridge.socket_path)) for _ in range(MAX_CONNECTIONS + 3)]
            await asyncio.sleep(0.3)
            closed = 0
            for reader, _writer in held:
                with contextlib.suppress(TimeoutError):  # an open connection: nothing to read, not closed
                    closed += await asyncio.wait_for(reader.read(), 0.2) == b""
            return closed, bridge.refused
        finally:
            await bridge.close()
            server.close()

    closed, refused = asyncio.run(go())
    assert closed == 3 and refused == [f"over {MAX_CONNECTIONS} connections at once"] * 3
