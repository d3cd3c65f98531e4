"""The model layer every LLM agent uses: a Model protocol, litellm and scripted providers, retries, costs.

Importing this package is cheap; litellm is only imported when a LiteLLMModel makes its first call.
"""

from lhtb.llm.base import CallUsage, Message, Model, ModelReply
from lhtb.llm.errors import LlmAuthError, LlmContextWindowError, LlmTransientError
from lhtb.llm.retry import RetryingModel, RetryPolicy
from lhtb.llm.scripted import ScriptedModel

__all__ = [
    "CallUsage",
    "LlmAuthError",
    "LlmContextWindowError",
    "LlmTransientError",
    "Message",
    "Model",
    "ModelReply",
    "RetryPolicy",
    "RetryingModel",
    "ScriptedModel",
]


def build_model(model: str, kwargs: dict[str, str]) -> Model:
    """The model an agent spec names: ``scripted`` (kwargs["script"] = JSON file) or any litellm string."""
    from pathlib import Path

    from lhtb.llm.litellm_model import LiteLLMModel
    from lhtb.llm.pricing import price_from_kwargs
    from lhtb.llm.scripted import load_script

    if model == "scripted":
        scripted = load_script(Path(kwargs["script"]))
        if "context_window" in kwargs:
            scripted.context_window = int(kwargs["context_window"])
        return scripted
    temperature = kwargs.get("temperature")
    window = kwargs.get("context_window")
    inner = LiteLLMModel(
        model,
        api_base=kwargs.get("api_base"),
        api_key=kwargs.get("api_key"),
        temperature=None if temperature is None else float(temperature),
        context_window=None if window is None else int(window),
        price=price_from_kwargs(kwargs),
        request_timeout_sec=float(kwargs.get("request_timeout_sec", 600)),
    )
    return RetryingModel(inner, RetryPolicy(max_attempts=int(kwargs.get("max_attempts", 6))))
