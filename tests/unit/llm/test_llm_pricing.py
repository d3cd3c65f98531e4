"""Usage and cost: provider tokens as reported, price table overrides, unknown price is None (not 0)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from types import SimpleNamespace

import pytest

from lhtb.llm.base import CallUsage
from lhtb.llm.litellm_model import LiteLLMModel, usage_from_response
from lhtb.llm.pricing import Price, litellm_price, price_from_kwargs, with_cost
from lhtb.llm.scripted import ScriptedModel, ScriptExhaustedError, load_script


def test_price_counts_cached_tokens_at_the_cached_rate() -> None:
    price = Price(input=2.0, output=10.0, cached_input=0.5)
    # 1000 input of which 400 cached, 100 output
    assert price.cost(1000, 400, 100) == pytest.approx((600 * 2 + 400 * 0.5 + 100 * 10) / 1e6)


def test_price_table_from_agent_kwargs() -> None:
    assert price_from_kwargs({}) is None
    price = price_from_kwargs({"price_input_per_mtok": "1", "price_output_per_mtok": "4"})
    assert price == Price(input=1.0, output=4.0, cached_input=None)


def test_unknown_price_is_recorded_as_unknown() -> None:
    assert with_cost(CallUsage(10, 0, 5), None).cost_usd is None
    assert with_cost(CallUsage(10, 0, 5), Price(0, 0)).cost_usd == 0.0


def test_usage_from_openai_and_anthropic_shaped_responses() -> None:
    openai_like = SimpleNamespace(
        usage=SimpleNamespace(
            prompt_tokens=120, completion_tokens=30, prompt_tokens_details=SimpleNamespace(cached_tokens=100)
        )
    )
    assert usage_from_response(openai_like) == CallUsage(120, 100, 30)
    anthropic_like = SimpleNamespace(
        usage=SimpleNamespace(
            prompt_tokens=50, completion_tokens=5, prompt_tokens_details=None, cache_read_input_tokens=20
        )
    )
    assert usage_from_response(anthropic_like) == CallUsage(50, 20, 5)
    assert usage_from_response(SimpleNamespace()) == CallUsage()


def test_litellm_is_imported_lazily() -> None:
    """Building a model and the agent must not import litellm (seconds): only the first call does."""
    code = (
        "import sys\n"
        "from lhtb.agents.registry import create_agent\n"
        "from lhtb.results.models import AgentSpec\n"
        "create_agent(AgentSpec(name='terminus', model='openai/m', kwargs={'api_base': 'http://127.0.0.1:1/v1'}))\n"
        "assert 'litellm' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    model = LiteLLMModel("openai/x", api_base="http://127.0.0.1:1/v1", context_window=4096)
    assert model.context_window == 4096
    assert model.api_key  # local servers get a placeholder key


@pytest.mark.slow
def test_litellm_cost_map_is_read_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    price = litellm_price("gpt-4o")
    assert price is not None and price.input > 0 and price.output > price.input
    assert litellm_price("openai/not-a-real-model-lhtb") is None
    import os

    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"


def test_scripted_model_replays_and_raises(tmp_path) -> None:
    script = tmp_path / "script.json"
    script.write_text('[{"commands": []}, "plain text"]')
    model = load_script(script)
    first = asyncio.run(model.complete([{"role": "user", "content": "x" * 400}]))
    assert first.content == '{"commands": []}'
    assert first.usage.input_tokens == 100 and first.usage.cost_usd is None
    assert asyncio.run(model.complete([])).content == "plain text"
    with pytest.raises(ScriptExhaustedError):
        asyncio.run(model.complete([]))
    assert len(model.calls) == 3
    priced = ScriptedModel(["ok"], price_per_mtok=1.0)
    assert asyncio.run(priced.complete([{"role": "user", "content": "abcd"}])).usage.cost_usd == pytest.approx(2e-6)
