"""Runs inside the model proxy's own process (litellm's proxy server), not in lhtb: a callback that appends one
JSON line per model call it relayed (tokens, cost when priced) to ``$LHTB_PROXY_USAGE_FILE``.

The proxy is on the host, beyond the agent's reach, so these figures are measured, not self-reported: lhtb
reads them back (``lhtb.llm.proxy.ModelProxy.measured``) to cross-check what the CLI says it used.
Stdlib and litellm only: the proxy's venv has no lhtb.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from litellm.integrations.custom_logger import CustomLogger


def _count(usage: Any, name: str) -> int:
    value = getattr(usage, name, None) if not isinstance(usage, dict) else usage.get(name)
    return int(value) if isinstance(value, (int, float)) and value >= 0 else 0


def _cached(usage: Any) -> int:
    details = getattr(usage, "prompt_tokens_details", None) if not isinstance(usage, dict) else None
    if isinstance(usage, dict):
        details = usage.get("prompt_tokens_details")
    return _count(details, "cached_tokens") if details is not None else 0


class UsageRecorder(CustomLogger):
    """One line per successful call: what the backend answered it used."""

    def _record(self, kwargs: dict[str, Any], response_obj: Any, ok: bool) -> None:
        usage = getattr(response_obj, "usage", None)
        if usage is None and isinstance(response_obj, dict):
            usage = response_obj.get("usage")
        cost = kwargs.get("response_cost")
        line = {
            "at": time.time(),
            "ok": ok,
            "call_type": str(kwargs.get("call_type") or ""),
            "model": str(kwargs.get("model") or ""),
            "input_tokens": _count(usage, "prompt_tokens"),
            "cached_input_tokens": _cached(usage),
            "output_tokens": _count(usage, "completion_tokens"),
            "cost_usd": cost if isinstance(cost, (int, float)) and cost > 0 else None,
        }
        with open(os.environ["LHTB_PROXY_USAGE_FILE"], "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")

    async def async_log_success_event(self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any) -> None:
        self._record(kwargs, response_obj, True)

    async def async_log_failure_event(self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any) -> None:
        self._record(kwargs, response_obj, False)


recorder = UsageRecorder()
