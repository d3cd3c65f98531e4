"""HTTP/1.1 framing for the model bridge: where each message on a relayed connection starts and ends.

The bridge reads it twice. Answers: a call is in flight until its answer ends (:class:`AnswerEnd`), however long
a streamed answer takes. Requests: only calls to the model API pass (:class:`RequestGate`), so a process in the
agent's container can use the model it was given and nothing else the server behind the bridge offers (the
translating proxy's admin and pass-through routes, a model server's slot files).

The gate must see requests exactly as the server will: where a lenient server and a lenient gate disagree on
where one request ends, a second request can hide in the first one's body (request smuggling). So the gate is
strict and refuses, never guesses: lines end in CRLF, no folded or malformed header lines, at most one
Content-Length or Transfer-Encoding and never both, Transfer-Encoding only ``chunked``, chunk sizes in plain
hex followed by CRLF-terminated data, a target in origin form that is one of the model API's paths exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

MAX_HEAD = 65536
MAX_BODY = 64 * 1024**2  # a request body: a million-token prompt is a few MB; the proxy holds a body in memory
MAX_CONNECTIONS = 64  # per bridge: a client holding connections open cannot exhaust the harness's descriptors

# The model APIs' paths after the base URL's own path (OpenAI clients append /chat/completions to ".../v1",
# Anthropic's append /v1/messages to the server's root).
MODEL_API_SUFFIXES = (
    "/chat/completions",
    "/completions",
    "/embeddings",
    "/models",
    "/responses",
    "/v1/messages",
    "/v1/messages/count_tokens",
    "/v1/models",
)
_TOKEN = re.compile(rb"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_HEX = re.compile(rb"^[0-9A-Fa-f]{1,16}$")


class FramingError(ValueError):
    """Bytes that are not HTTP/1.1 as the gate accepts it; the message says what was wrong."""


def model_api_paths(base_path: str) -> frozenset[str]:
    """The exact request paths a client with a base URL whose path is ``base_path`` calls for its model."""
    prefix = base_path.rstrip("/")
    return frozenset(prefix + suffix for suffix in MODEL_API_SUFFIXES)


class _Framing:
    """Messages one after another: a head, then a body. Yields ``("head", bytes)`` for each complete head,
    ``("body", bytes)`` for the body's bytes (chunk framing included) and ``("end", b"")`` when a message ends;
    with ``strict``, framing it cannot be sure of raises :class:`FramingError`."""

    def __init__(self, *, strict: bool) -> None:
        self._strict = strict
        self._pending = bytearray()
        self._scanned = 0  # bytes of _pending already searched for the end of a line (no rescans: linear time)
        self._state = "head"  # head, body, chunk-size, chunk-data, chunk-crlf, trailer, close
        self._left = 0
        self._body_size = 0  # of the current message, chunks summed (strict: at most MAX_BODY)

    def _events(self, data: bytes) -> Iterator[tuple[str, bytes]]:
        self._pending += data
        while self._pending:
            if self._state == "close":
                taken = bytes(self._pending)
                self._pending.clear()
                yield "body", taken
                return
            if self._state in ("body", "chunk-data"):
                taken = bytes(self._pending[: self._left])
                del self._pending[: len(taken)]
                self._scanned = 0
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
            cut = self._pending.find(line_end, max(self._scanned - len(line_end) + 1, 0))
            if cut < 0:
                self._scanned = len(self._pending)
                if len(self._pending) > MAX_HEAD:
                    yield "overlong", b""
                return
            line = bytes(self._pending[: cut + len(line_end)])
            del self._pending[: cut + len(line_end)]
            self._scanned = 0
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
            if line and self._strict:
                raise FramingError("chunk data not followed by CRLF")
            self._state = "chunk-size"
        elif self._state == "chunk-size":
            size = line.split(b";")[0]
            if self._strict and not _HEX.match(size):
                raise FramingError("a chunk size that is not plain hex")
            try:
                self._left = int(size.strip() or b"x", 16)
            except ValueError:
                self._state = "close"  # an answer that is not chunked after all: the rest is its body
                return False
            self._body_size += self._left
            if self._strict and self._body_size > MAX_BODY:
                raise FramingError(f"a request body over {MAX_BODY} bytes")
            self._state = "chunk-data" if self._left else "trailer"
        elif self._state == "trailer" and not line:
            return True
        return False

    def _body(self, fields: dict[bytes, list[bytes]], *, may_close: bool) -> bool:
        """Set up the body's framing from the head's fields; False when it has none (the message ended)."""
        encoding, length = fields.get(b"transfer-encoding", []), fields.get(b"content-length", [])
        if self._strict and (len(encoding) > 1 or len(length) > 1 or (encoding and length)):
            raise FramingError("Content-Length and Transfer-Encoding ambiguous")
        if self._strict and encoding and encoding[0] != b"chunked":
            raise FramingError("a Transfer-Encoding other than chunked")
        if self._strict and length and not length[0].isdigit():
            raise FramingError("a Content-Length that is not a number")
        if self._strict and length and int(length[0]) > MAX_BODY:
            raise FramingError(f"a request body over {MAX_BODY} bytes")
        self._body_size = 0
        if encoding and b"chunked" in encoding[-1]:
            self._state = "chunk-size"
        elif length and length[-1].isdigit():
            self._left = int(length[-1])
            self._state = "body"
            return self._left > 0
        elif may_close:
            self._state = "close"
        else:
            return False
        return True


def _parse_head(head: bytes, *, strict: bool) -> tuple[list[bytes], dict[bytes, list[bytes]]]:
    text = head[:-4] if head.endswith(b"\r\n\r\n") else head
    if strict and not text.count(b"\n") == text.count(b"\r") == text.count(b"\r\n"):
        raise FramingError("a line that does not end in CRLF")
    lines = text.split(b"\r\n")
    fields: dict[bytes, list[bytes]] = {}
    for raw in lines[1:]:
        name, colon, value = raw.partition(b":")
        if strict and (not colon or not _TOKEN.match(name)):
            raise FramingError("a malformed or folded header line")
        fields.setdefault(name.strip().lower(), []).append(value.strip().lower())
    return lines[0].split(b" "), fields


class AnswerEnd(_Framing):
    """Finds where an HTTP/1.1 answer ends in the bytes relayed to the agent (Content-Length, chunked, or the
    connection's close), so that a streamed answer whose first token comes minutes after its headers still
    counts as a call in flight. Bytes that are not HTTP end the wait at once (the safe reading: not in flight)."""

    def __init__(self) -> None:
        super().__init__(strict=False)

    def feed(self, data: bytes) -> bool:
        """Take the next bytes; True once the answer is complete (the bytes after it start the next one)."""
        for kind, value in self._events(data):
            if kind in ("end", "overlong"):
                return True
            if kind == "head":
                status, fields = _parse_head(value, strict=False)
                if len(status) < 2 or not status[0].startswith(b"HTTP/"):
                    return True
                if status[1].startswith(b"1"):  # 100 Continue: the real answer follows
                    continue
                if status[1][:3] in (b"204", b"304") or not self._body(fields, may_close=True):
                    return True
        return False


class RequestGate(_Framing):
    """Passes a connection's requests while each is a call to one of ``allowed`` paths; the first that is not, or
    that is framed in any way the gate cannot be sure of, closes the connection. ``feed`` returns the bytes to
    forward and, once refused, why."""

    def __init__(self, allowed: frozenset[str]) -> None:
        super().__init__(strict=True)
        self.allowed = allowed
        self.refused: str | None = None

    def feed(self, data: bytes) -> tuple[bytes, str | None]:
        if self.refused is not None:
            return b"", self.refused
        out = bytearray()
        try:
            for kind, value in self._events(data):
                if kind == "overlong":
                    raise FramingError(f"a request head over {MAX_HEAD} bytes")
                if kind == "head":
                    start, fields = _parse_head(value, strict=True)
                    self._check_target(start)
                    self._body(fields, may_close=False)
                out += value
        except FramingError as exc:
            self.refused = str(exc)
        return bytes(out), self.refused

    def _check_target(self, start: list[bytes]) -> None:
        if len(start) != 3 or start[2] not in (b"HTTP/1.1", b"HTTP/1.0"):
            raise FramingError("not an HTTP/1.x request line")
        method, target = start[0].decode("latin-1"), start[1].decode("latin-1")
        path = target.split("?", 1)[0]
        if method not in ("GET", "POST") or not path.startswith("/") or path not in self.allowed:
            raise FramingError(f"{method} {path[:120]} is not a model API call")
