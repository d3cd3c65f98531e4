"""Copied into every task exported for Harbor (tests/_lhtb/harbor_reward.py) and run there by the wrapper test.sh.

Standard library only: it runs inside the task's container, beside the vendored grading SDK. Harbor accepts a
``reward.json`` of finite numbers only, while lhtb's scorecard (``lhtb.reward/1``) nests its subtasks: this writes
``{"reward": R}``, R recomputed from the subtasks as lhtb's harness does (sum(w*s)/sum(w), clamped to [0, 1]). One
key only: Harbor's metrics average every key over all trials, so per-subtask keys would be averaged across tasks
that do not have them; the scorecard itself stays beside it (lhtb/reward.json). With no scorecard it writes
nothing, so Harbor records a verifier error just as lhtb would.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import sys
import tempfile


def headline(document: dict) -> dict:
    subtasks = document.get("subtasks") or []
    weights = math.fsum(float(s["weight"]) for s in subtasks)
    if weights > 0:
        reward = math.fsum(float(s["weight"]) * float(s["score"]) for s in subtasks) / weights
    else:
        reward = float(document["reward"])
    return {"reward": min(1.0, max(0.0, reward))}


def write_atomic(path: str, text: str) -> None:
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".reward-")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, path)


def main(argv: list) -> int:
    if argv[1:] == ["--new-seed"]:
        print(secrets.randbits(63))  # a fresh verify seed per trial, as lhtb draws one
        return 0
    source, target = argv[1], argv[2]
    if not os.path.isfile(source):
        print(f"harbor_reward: {source} was not written (the verifier failed); no reward", file=sys.stderr)
        return 1
    with open(source, encoding="utf-8") as stream:
        flat = headline(json.load(stream))
    write_atomic(target, json.dumps(flat, indent=2, allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
