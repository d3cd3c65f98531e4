"""A scripted OpenAI chat-completions server on 127.0.0.1 for tests of agents that call a model over HTTP.

Deterministic and offline: a request whose last message is a user turn is answered with one shell tool call
(the next command of the script, in whichever shell tool the client offers: Codex's ``exec_command``, Claude
Code's ``Bash``, a generic ``shell``), a request answering a tool call with "done". Streaming and plain answers
both carry usage (100 prompt and 7 completion tokens per call), so a test can check every count end to end.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {"prompt_tokens": 100, "completion_tokens": 7, "total_tokens": 107}


def _tool_call(tools: list[dict[str, Any]], command: str) -> dict[str, Any] | None:
    names = [t.get("function", {}).get("name") for t in tools]
    for name, arguments in (
        ("exec_command", {"cmd": command}),
        ("Bash", {"command": command, "description": "run the step"}),
        ("shell", {"command": ["bash", "-lc", command]}),
    ):
        if name in names:
            return {"id": f"call_{abs(hash(command)) % 10**8}", "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)}}  # fmt: skip
    return None


class ScriptedChat:
    def __init__(self, commands: list[str]) -> None:
        self.commands = list(commands)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def answer(self, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        with self._lock:
            self.requests.append(body)
            messages = body.get("messages") or [{}]
            call = None
            if body.get("tools") and messages[-1].get("role") != "tool" and self.commands:
                call = _tool_call(body["tools"], self.commands[0])
                if call is not None:
                    self.commands.pop(0)
        if call is not None:
            return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        return {"role": "assistant", "content": "done"}, "stop"


def _handler(script: ScriptedChat) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
            message, finish = script.answer(body)
            head = {"id": "scripted", "created": 1, "model": str(body.get("model") or "scripted")}
            if body.get("stream"):
                delta = dict(message)
                if delta.get("tool_calls"):
                    delta["tool_calls"] = [dict(delta["tool_calls"][0], index=0)]
                chunks = [
                    {**head, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]},
                    {**head, "object": "chat.completion.chunk",
                     "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                    {**head, "object": "chat.completion.chunk", "choices": [], "usage": USAGE},
                ]  # fmt: skip
                data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
                kind = "text/event-stream"
            else:
                choice = {"index": 0, "message": message, "finish_reason": finish}
                data = json.dumps({**head, "object": "chat.completion", "choices": [choice], "usage": USAGE}).encode()
                kind = "application/json"
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_args: object) -> None:
            pass

    return Handler


@contextmanager
def scripted_chat_server(commands: list[str]) -> Iterator[tuple[str, ScriptedChat]]:
    """``(api_base, script)``: the server's ``http://127.0.0.1:PORT/v1`` and its record of requests."""
    script = ScriptedChat(commands)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    server.daemon_threads = True  # a connection the client keeps open must not hold the test at the end
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", script
    finally:
        server.shutdown()
        server.server_close()
