"""The translating proxy's config and its measured usage (the process itself runs in the integration tests)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from lhtb.agents.registry import create_agent
from lhtb.errors import ConfigError
from lhtb.llm.proxy import ModelProxy, proxy_config
from lhtb.results.models import AgentSpec


def test_a_chat_completions_backend_is_reached_through_the_bridge_for_every_model_name() -> None:
    config = json.loads(proxy_config("openai/qwen2.5-coder-0.5b", "http://127.0.0.1:8089/v1", None))
    (route,) = config["model_list"]
    assert route["model_name"] == "*"  # the CLI's main and small models alike
    assert route["litellm_params"] == {
        "model": "openai/qwen2.5-coder-0.5b",
        "api_key": "none",
        "api_base": "http://127.0.0.1:8089/v1",
        "use_chat_completions_api": True,
    }
    assert config["litellm_settings"]["callbacks"] == "proxy_usage.recorder"
    assert config["general_settings"]["master_key"] == "os.environ/LHTB_PROXY_MASTER_KEY"  # never in the file


def test_a_cap_on_replies_is_the_default_for_calls_that_do_not_set_one() -> None:
    params = json.loads(proxy_config("openai/q", "http://127.0.0.1:1/v1", None, max_tokens=512))["model_list"][0]
    assert params["litellm_params"]["max_tokens"] == 512
    claude = create_agent(AgentSpec(name="claude-code", model="openai/q", kwargs={"max_output_tokens": "300"}))
    assert claude.run_env()["CLAUDE_CODE_MAX_OUTPUT_TOKENS"] == "300"  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="max_output_tokens='lots'"):
        create_agent(AgentSpec(name="codex", model="openai/q", kwargs={"max_output_tokens": "lots"}))


def test_a_provider_backend_takes_its_key_from_the_host_environment() -> None:
    config = json.loads(proxy_config("anthropic/claude-sonnet-4-5", None, "ANTHROPIC_API_KEY"))
    params = config["model_list"][0]["litellm_params"]
    assert params == {"model": "anthropic/claude-sonnet-4-5", "api_key": "os.environ/ANTHROPIC_API_KEY"}


def test_measured_usage_is_read_from_the_line_a_run_started_at(tmp_path: Path) -> None:
    proxy = ModelProxy("openai/m", "http://127.0.0.1:1/v1")
    calls = [
        {"input_tokens": 100, "cached_input_tokens": 40, "output_tokens": 7, "cost_usd": None},
        {"input_tokens": 50, "cached_input_tokens": 0, "output_tokens": 3, "cost_usd": None},
        "not json",
    ]
    proxy.usage_file.write_text("\n".join(c if isinstance(c, str) else json.dumps(c) for c in calls) + "\n")
    everything, lines = proxy.measured()
    assert (everything.input_tokens, everything.cached_input_tokens, everything.output_tokens) == (150, 40, 10)
    assert everything.episodes == 2 and everything.cost_usd is None and everything.source == "measured"
    later, _ = proxy.measured(since_line=1)
    assert (later.input_tokens, later.episodes, lines) == (50, 1, 3)
    asyncio.run(proxy.close())  # never started: removes its directory
    assert not proxy.usage_file.parent.exists()


def test_proxy_choice_per_agent() -> None:
    local = {"api_base": "http://127.0.0.1:8089/v1"}
    assert create_agent(AgentSpec(name="codex", model="openai/q", kwargs=local)).use_proxy  # type: ignore[attr-defined]
    off = create_agent(AgentSpec(name="codex", model="openai/q", kwargs=local | {"proxy": "off"}))
    assert not off.use_proxy  # type: ignore[attr-defined]
    on = create_agent(AgentSpec(name="claude-code", model="anthropic/claude-x", kwargs={"proxy": "on"}))
    assert on.use_proxy  # type: ignore[attr-defined]
    mini = create_agent(AgentSpec(name="mini-swe-agent", model="openai/q", kwargs=local))
    assert not mini.use_proxy  # type: ignore[attr-defined]  # speaks chat completions itself
    with pytest.raises(ConfigError, match="proxy='sometimes'"):
        create_agent(AgentSpec(name="codex", model="openai/q", kwargs={"proxy": "sometimes"}))
