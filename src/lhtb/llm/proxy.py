"""A translating model proxy on the host's loopback, for CLIs that do not speak OpenAI chat completions.

Codex speaks the Responses API (``/v1/responses``) and Claude Code the Anthropic Messages API (``/v1/messages``);
the local model (llama.cpp), vLLM and most gateways speak OpenAI chat completions. litellm's proxy server serves
both APIs over a chat-completions backend, so lhtb runs it rather than translating by hand: pinned
(``litellm[proxy]`` 1.100.5, the newest whose dependencies all resolve on this machine's mirror), in a venv of
its own under the agent cache (its dependencies would otherwise pin lhtb's), bound to 127.0.0.1 only, one per
trial, with a fresh master key. The CLI in the ``--network none`` container reaches it through the model
bridge (``lhtb.llm.bridge``) like any loopback model.

The proxy also measures: a callback in its process (``proxy_usage.py``) appends every call's tokens to a file
the trial owns, which lhtb reads to cross-check the figures the CLI reports about itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from lhtb.errors import AgentSetupError
from lhtb.fs import install_once
from lhtb.llm.local_server import poll_until_ok
from lhtb.results.models import Usage

PROXY_REQUIREMENT = "litellm[proxy]==1.100.5"
INSTALL_TIMEOUT_SEC = 1800.0
START_TIMEOUT_SEC = 300.0  # importing the proxy takes 15-20 s on an idle 2-core machine, minutes under load
_DONE = ".lhtb-complete"
_CALLBACK = Path(__file__).with_name("proxy_usage.py")
_RUN = "import sys; from litellm.proxy.proxy_cli import run_server; sys.exit(run_server())"


def proxy_cache() -> Path:
    return Path(os.environ.get("LHTB_AGENT_CACHE", Path.home() / ".cache" / "lhtb" / "agents")) / "proxy"


def ensure_proxy_venv() -> Path:
    """The proxy's Python (a venv of its own, installed on first use under a lock); raises AgentSetupError."""

    def build(partial: Path) -> None:
        try:
            subprocess.run([sys.executable, "-m", "venv", str(partial)], check=True, capture_output=True, text=True)
            pip = [str(partial / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            subprocess.run(
                [*pip, PROXY_REQUIREMENT], check=True, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SEC
            )
        except subprocess.CalledProcessError as exc:
            raise AgentSetupError(
                f"installing the model proxy ({PROXY_REQUIREMENT}) failed: {exc.stderr[-600:]}"
            ) from exc
        except subprocess.TimeoutExpired as exc:
            raise AgentSetupError(f"installing the model proxy took over {exc.timeout:.0f} s") from exc
        (partial / _DONE).write_text(PROXY_REQUIREMENT + "\n")

    # The venv's python finds its site-packages through pyvenv.cfg beside it, so the rename keeps it working.
    key = PROXY_REQUIREMENT.split("==")[-1]
    venv, _built = install_once(proxy_cache() / f"litellm-proxy-{key}", build, done=_DONE)
    return venv / "bin" / "python"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def proxy_config(
    backend_model: str, backend_api_base: str | None, backend_key_env: str | None, max_tokens: int | None = None
) -> str:
    """litellm's proxy config: every model name the CLI asks for (its main and its small model) goes to the
    backend, and each call is recorded by ``proxy_usage``. With ``backend_api_base`` the backend is an OpenAI
    chat-completions server, reached through litellm's chat-completions bridge; without, it is the provider
    ``backend_model`` names (``anthropic/...``, ``openai/...``), reached with the key in ``backend_key_env``."""
    route: dict[str, object] = {
        "model": backend_model,
        "api_key": f"os.environ/{backend_key_env}" if backend_key_env else "none",
    }
    if max_tokens is not None:  # the default for a call that does not say (Codex's Responses calls do not)
        route["max_tokens"] = max_tokens
    if backend_api_base:
        route["api_base"] = backend_api_base
        route["use_chat_completions_api"] = True  # an "openai/" backend would otherwise get /v1/responses as sent
    config = {
        "model_list": [{"model_name": "*", "litellm_params": route}],
        "litellm_settings": {"callbacks": "proxy_usage.recorder", "drop_params": True},
        "general_settings": {"master_key": "os.environ/LHTB_PROXY_MASTER_KEY"},
    }
    return json.dumps(config, indent=2) + "\n"  # YAML is a superset of JSON


class ModelProxy:
    """One proxy process: start, its URL and key for the CLI, the usage it measured, stop."""

    def __init__(self, backend_model: str, backend_api_base: str | None, max_tokens: int | None = None) -> None:
        self.backend_model = backend_model
        self.backend_api_base = backend_api_base
        self.max_tokens = max_tokens
        self.key = f"sk-lhtb-{secrets.token_hex(16)}"  # loopback only, one trial: no secret of any value
        self.port = 0
        self._directory = Path(tempfile.mkdtemp(prefix="lhtb-proxy-"))
        self.log_path = self._directory / "proxy.log"
        self.usage_file = self._directory / "usage.jsonl"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        python = await asyncio.to_thread(ensure_proxy_venv)
        wanted = _backend_key_env(self.backend_model)
        key_env = wanted if wanted in os.environ else None  # a local backend takes any key
        (self._directory / "config.yaml").write_text(
            proxy_config(self.backend_model, self.backend_api_base, key_env, self.max_tokens)
        )
        shutil.copyfile(_CALLBACK, self._directory / "proxy_usage.py")
        self.usage_file.touch()
        self.port = _free_port()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/root"),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # no price map fetched from the internet
            "LHTB_PROXY_MASTER_KEY": self.key,
            "LHTB_PROXY_USAGE_FILE": str(self.usage_file),
            "PYTHONUNBUFFERED": "1",
        }
        if key_env is not None:  # a real provider's key reaches the proxy, never the container
            env[key_env] = os.environ[key_env]
        argv = [str(python), "-c", _RUN, "--config", "config.yaml", "--host", "127.0.0.1", "--port", str(self.port)]
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                argv,
                cwd=self._directory,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        await asyncio.to_thread(self._wait_live)

    def _wait_live(self) -> None:
        process = self._process
        assert process is not None
        if poll_until_ok(f"{self.url}/health/liveliness", START_TIMEOUT_SEC, exited=lambda: process.poll() is not None):
            self._check_ours()
            return
        if process.poll() is not None:
            tail = self.log_path.read_text(errors="replace")[-800:]
            raise AgentSetupError(f"the model proxy exited {process.returncode} at start: {tail}")
        raise AgentSetupError(f"the model proxy on {self.url} did not answer within {START_TIMEOUT_SEC:.0f} s")

    def _check_ours(self) -> None:
        """The port was free when chosen, not reserved: the proxy that answers must be this one (it alone takes
        this trial's key), not another trial's that took the port meanwhile."""
        request = urllib.request.Request(f"{self.url}/v1/models", headers={"Authorization": f"Bearer {self.key}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                if answer.status == 200:
                    return
        except OSError as exc:
            raise AgentSetupError(f"the process answering on {self.url} is not this trial's proxy: {exc}") from exc
        raise AgentSetupError(f"the process answering on {self.url} is not this trial's proxy")

    def measured(self, since_line: int = 0) -> tuple[Usage, int]:
        """The usage of the calls recorded from line ``since_line`` on, and the line count now."""
        lines = self.usage_file.read_text(encoding="utf-8").splitlines() if self.usage_file.is_file() else []
        total = Usage()
        for line in lines[since_line:]:
            try:
                call = json.loads(line)
            except ValueError:
                continue
            total = total.plus(
                Usage(
                    input_tokens=call.get("input_tokens", 0),
                    cached_input_tokens=call.get("cached_input_tokens", 0),
                    output_tokens=call.get("output_tokens", 0),
                    cost_usd=call.get("cost_usd"),
                    episodes=1,
                )
            )
        return total.labelled("measured"), len(lines)

    async def stop(self) -> None:
        """Stop the process (its files stay until :meth:`close`)."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):  # it may have just exited
            os.killpg(process.pid, signal.SIGTERM)
        try:
            await asyncio.to_thread(process.wait, 20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await asyncio.to_thread(process.wait)

    async def close(self) -> None:
        await self.stop()
        shutil.rmtree(self._directory, ignore_errors=True)


def _die_with_parent() -> None:
    """In the proxy's process before it runs: the kernel ends it when lhtb's thread that started it ends (a
    killed job leaves no proxy listening on a loopback port)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _backend_key_env(backend_model: str) -> str:
    """The host variable holding the backend's key, by litellm's provider prefix (``openai/...``: OPENAI_API_KEY)."""
    provider = backend_model.split("/", 1)[0] if "/" in backend_model else "openai"
    return f"{provider.upper().replace('-', '_')}_API_KEY"
