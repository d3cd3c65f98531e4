"""Terminal round trip of the terminus agent: from sending ``echo hi`` to having its output, per turn.

A scripted model answers every turn with ``echo hi`` (so model time is ~0), the agent runs in a real
container with tmux, and each turn is timed two ways:

- **round trip**: the terminal step alone (send-keys, wait for the prompt via ``tmux wait-for``, capture, in one
  ``docker exec``), checked to contain ``hi``;
- **turn**: from one model call to the next (parse, terminal step, new-output diff, trajectory and cast
  written atomically).

    .venv/bin/python bench/terminal_roundtrip.py --turns 50

Target: median round trip <= 0.1 s. A benchmark, not a test: exit code 0 unless something crashed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from lhtb.agents.base import AgentContext
from lhtb.agents.terminus import TerminusAgent, TerminusConfig
from lhtb.agents.terminus.parsing import Command
from lhtb.agents.terminus.tmux import StepResult, TmuxSession
from lhtb.environments.base import ContainerSpec, Environment, unique_name
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.images import PYTHON_IMAGE
from lhtb.llm import ScriptedModel

TARGET_SEC = 0.1
ECHO_TURN = json.dumps(
    {"analysis": "", "plan": "", "commands": [{"keystrokes": "echo hi\n", "duration": 5}], "task_complete": False}
)


class TimedSession(TmuxSession):
    """Times each step that sends commands and checks the command's output arrived."""

    round_trips: list[float] = []

    async def step(self, commands: list[Command]) -> StepResult:
        started = time.perf_counter()
        result = await super().step(commands)
        if commands:
            TimedSession.round_trips.append(time.perf_counter() - started)
            if not result.screen_history.endswith("hi\nroot@sandbox:/app#") or not all(result.finished):
                raise RuntimeError(f"echo hi did not complete: {result.screen_history[-200:]!r}")
        return result


def _timed_terminal(environment: Environment, width: int, height: int) -> TmuxSession:
    return TimedSession(environment, width=width, height=height)


def _stats(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(samples):.3f} | {p90:.3f} | {ordered[0]:.3f} | {ordered[-1]:.3f}"


async def bench(turns: int) -> tuple[list[float], list[float]]:
    environment = DockerEnvironment(
        ContainerSpec(
            image=PYTHON_IMAGE, name=unique_name("bench-roundtrip", "agent"), job="bench", trial="rt", role="agent"
        )
    )
    call_times: list[float] = []

    def echo(_messages: Any) -> str:
        call_times.append(time.perf_counter())
        return ECHO_TURN

    model = ScriptedModel([echo] * (turns + 1))
    agent = TerminusAgent(model, TerminusConfig(max_episodes=turns + 1), terminal_factory=_timed_terminal)
    await environment.start()
    try:
        with tempfile.TemporaryDirectory() as logs:
            task = SimpleNamespace(config=SimpleNamespace(environment=SimpleNamespace(workdir="/app")))
            context = AgentContext(task, environment, Path(logs), 600)  # type: ignore[arg-type]
            await agent.setup(context)
            await agent.run(context, "benchmark")
    finally:
        await environment.stop()
    turn_times = [b - a for a, b in itertools.pairwise(call_times)]
    return TimedSession.round_trips[:turns], turn_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=50)
    args = parser.parse_args()
    round_trips, turn_times = asyncio.run(bench(args.turns))
    print(f"{len(round_trips)} turns of `echo hi` (seconds)\n")
    print("| series | median | p90 | min | max |\n|---|---|---|---|---|")
    print(f"| round trip (send → output) | {_stats(round_trips)} |")
    print(f"| full agent turn | {_stats(turn_times)} |")
    verdict = "PASS" if statistics.median(round_trips) <= TARGET_SEC else "FAIL"
    print(f"\nmedian round trip {statistics.median(round_trips):.3f} s vs target {TARGET_SEC} s: {verdict}")


if __name__ == "__main__":
    main()
