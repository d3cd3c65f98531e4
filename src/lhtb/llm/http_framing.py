"""HTTP/1.1 framing for the model bridge: where each message on a relayed connection starts and ends.

The bridge reads it twice. Answers: a call is in flight until its answer ends (:class:`AnswerEnd`), however long
a streamed answer takes. Requests: only calls to a model API pass (:class:`RequestGate`), so a process in the
agent's container can use the model it was given and nothing else the server behind the bridge offers (the
translating proxy's admin routes, a model server's slot files). Bodies are framed by Content-Length, chunked
encoding, or (answers only) the connection's close.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

MAX_HEAD = 65536

# Path endings of the model APIs the agents call (OpenAI chat completions, completions, embeddings, models and
# Responses; Anthropic Messages and its token count), whatever prefix the base URL has (/v1, /openai/v1, ...).
MODEL_API_PATHS = (
    "/chat/completions",
    "/completions",
    "/embeddings",
    "/models",
    "/responses",
    "/messages",
    "/messages/count_tokens",
)


class _Framing:
    """Messages one after another: a head, then a body. Yields ``("head", bytes)`` for each complete head,
    ``("body", bytes)`` for the body's bytes (chunk framing included) and ``("end", b"")`` when a message ends."""

    def __init__(self) -> None:
        self._pending = b""
        self._state = "head"  # head, body, chunk-size, chunk-data, chunk-crlf, trailer, close
        self._left = 0

    def _events(self, data: bytes) -> Iterator[tuple[str, bytes]]:
        self._pending += data
        while self._pending:
            if self._state == "close":
                taken, self._pending = self._pending, b""
                yield "body", taken
                return
            if self._state in ("body", "chunk-data"):
                taken, self._pending = self._pending[: self._left], self._pending[self._left :]
                self._left -= len(taken)
                yield "body", taken
                if self._left:
                    return
                if self._state == "body":
                    self._state = "head"
                    yield "end", b""
                else:
                    self._state = "chunk-crlf"
                continue
            line_end = b"\r\n\r\n" if self._state == "head" else b"\r\n"
            cut = self._pending.find(line_end)
            if cut < 0:
                if len(self._pending) > MAX_HEAD:
                    yield "overlong", b""
                return
            line, self._pending = self._pending[: cut + len(line_end)], self._pending[cut + len(line_end) :]
            if self._state == "head":
                yield "head", line
                continue
            yield "body", line
            if self._chunk_line(line[: -len(line_end)]):
                self._state = "head"
                yield "end", b""

    def _chunk_line(self, line: bytes) -> bool:
        """A line of chunked framing; True when it ends the message."""
        if self._state == "chunk-crlf":
            self._state = "chunk-size"
        elif self._state == "chunk-size":
            try:
                self._left = int(line.split(b";")[0].strip() or b"x", 16)
            except ValueError:
                self._state = "close"  # not chunked after all: the rest of the connection is this body
                return False
            self._state = "chunk-data" if self._left else "trailer"
        elif self._state == "trailer" and not line:
            return True
        return False

    def _body(self, fields: dict[bytes, bytes], *, may_close: bool) -> bool:
        """Set up the body's framing from the head's fields; False when it has none (the message ended)."""
        if b"chunked" in fields.get(b"transfer-encoding", b""):
            self._state = "chunk-size"
        elif fields.get(b"content-length", b"").isdigit():
            self._left = int(fields[b"content-length"])
            self._state = "body"
            return self._left > 0
        elif may_close:
            self._state = "close"
        else:
            return False
        return True


def _parse_head(head: bytes) -> tuple[list[bytes], dict[bytes, bytes]]:
    lines = head.rstrip(b"\r\n").split(b"\r\n")
    fields = {}
    for raw in lines[1:]:
        name, _, value = raw.partition(b":")
        fields[name.strip().lower()] = value.strip().lower()
    return lines[0].split(b" "), fields


class AnswerEnd(_Framing):
    """Finds where an HTTP/1.1 answer ends in the bytes relayed to the agent (Content-Length, chunked, or the
    connection's close), so that a streamed answer whose first token comes minutes after its headers still
    counts as a call in flight. Bytes that are not HTTP end the wait at once (the safe reading: not in flight)."""

    def feed(self, data: bytes) -> bool:
        """Take the next bytes; True once the answer is complete (the bytes after it start the next one)."""
        for kind, value in self._events(data):
            if kind in ("end", "overlong"):
                return True
            if kind == "head":
                status, fields = _parse_head(value)
                if len(status) < 2 or not status[0].startswith(b"HTTP/"):
                    return True
                if status[1].startswith(b"1"):  # 100 Continue: the real answer follows
                    continue
                if status[1][:3] in (b"204", b"304") or not self._body(fields, may_close=True):
                    return True
        return False


class RequestGate(_Framing):
    """Passes a connection's requests while each is a call to a model API (:data:`MODEL_API_PATHS`); the first
    that is not closes the connection. ``feed`` returns the bytes to forward and, once refused, why."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: str | None = None

    def feed(self, data: bytes) -> tuple[bytes, str | None]:
        if self.refused is not None:
            return b"", self.refused
        out = bytearray()
        for kind, value in self._events(data):
            if kind == "overlong":
                self.refused = f"a request head over {MAX_HEAD} bytes"
            elif kind == "head":
                self.refused = _refusal(value)
                if self.refused is None:
                    _start, fields = _parse_head(value)
                    self._body(fields, may_close=False)
            if self.refused is not None:
                return bytes(out), self.refused
            out += value
        return bytes(out), None


def _refusal(head: bytes) -> str | None:
    """Why a request head is not a model-API call, or None."""
    start, _fields = _parse_head(head)
    if len(start) != 3 or not start[2].startswith(b"HTTP/1."):
        return "not an HTTP/1.x request"
    method, target = start[0].decode("latin-1"), start[1].decode("latin-1")
    path = urlsplit(target).path.rstrip("/")
    if method not in ("GET", "POST") or not path.endswith(MODEL_API_PATHS) or ".." in path:
        return f"{method} {path[:120]} is not a model API call"
    return None
