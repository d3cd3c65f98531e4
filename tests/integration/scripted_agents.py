"""Scripted agents for long-horizon tests: each phase runs a fixed shell script in the task container.

Named on the command line / in AgentSpec as ``scripted_agents:ClassName`` (tests/integration is on sys.path).
"""

from __future__ import annotations

import time

from lhtb.agents.base import AgentContext
from lhtb.results.models import AgentOutcome, AgentSpec, Usage

RECEIVED: dict[str, list[str]] = {}  # agent class name → messages received on resume/restart


class _Scripted:
    name = "scripted"
    scripts: list[str] = []

    def __init__(self, spec: AgentSpec) -> None:
        self.spec = spec
        self.phase = 0
        self.usage_so_far = Usage()
        RECEIVED[type(self).__name__] = []

    async def setup(self, context: AgentContext) -> None:
        return None

    async def _step(self, context: AgentContext) -> AgentOutcome:
        script = self.scripts[min(self.phase, len(self.scripts) - 1)]
        self.phase += 1
        self.usage_so_far = self.usage_so_far.plus(Usage(input_tokens=10, output_tokens=5, episodes=1))
        await context.environment.exec(script, timeout_sec=context.timeout_sec)
        return AgentOutcome(stop_reason="completed", usage=Usage(input_tokens=10, output_tokens=5, episodes=1))

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        if self.phase:
            RECEIVED[type(self).__name__].append(instruction)
        return await self._step(context)


class _Resumable(_Scripted):
    async def resume(self, context: AgentContext, message: str) -> AgentOutcome:
        RECEIVED[type(self).__name__].append(message)
        return await self._step(context)


class FixOnRejection(_Resumable):
    """Writes a wrong answer and stops; after the rejection, fixes it."""

    scripts = ["echo wrong > /app/out.txt", "echo hello > /app/out.txt"]


class FixOnRestart(_Scripted):
    """The same, for an agent that cannot resume: it is restarted with instruction + rejection."""

    scripts = ["echo wrong > /app/out.txt", "echo hello > /app/out.txt"]


class GivesUp(_Resumable):
    """Looks around briefly and stops, every time."""

    scripts = ["sleep 0.5"]


POLLER = r"""
cat > /tmp/poll.sh <<'EOS'
while true; do
  find / -xdev \( -path /proc -o -path /sys \) -prune -o \( -name 'test.sh' -o -name 'reward.txt' -o -name 'reward.json' \
       -o -path '/tests' -o -name '.lhtb-*' -o -path '/logs/verifier*' \) -print 2>/dev/null >> /app/found.log
  sleep 0.05
done
EOS
setsid nohup bash /tmp/poll.sh >/dev/null 2>&1 < /dev/null &
"""


class PollsForGrader(_Resumable):
    """Starts a detached poller that records any grader file it ever sees, then finishes the work later."""

    scripts = [POLLER + "sleep 0.5", "sleep 1.5; echo hello > /app/out.txt; sleep 0.5"]


CHEATS = r"""
mkdir -p /logs/verifier /app/sub
for d in /logs/verifier /app /tmp /; do echo 1 > $d/reward.txt; echo '{"reward": 1.0}' > $d/reward.json; done
cat > /app/conftest.py <<'EOS'
import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
EOS
printf '[pytest]\naddopts = -p no:python\n' > /app/pytest.ini
printf 'import sys\nsys.exit(0)\n' > /app/pytest.py
printf 'import os\nos._exit(0)\n' > /app/sitecustomize.py
cp /app/sitecustomize.py /app/usercustomize.py
echo 'import os; os._exit(0)' > /app/evil.pth
mkdir -p /app/__pycache__ /app/.pytest_cache
"""


class PlantsEverything(_Resumable):
    """Does no real work; plants reward files and pytest/python hooks."""

    scripts = [CHEATS]


class PlantsAndWorks(_Resumable):
    """Does the real work and plants the same hooks: must still get exactly what the work deserves."""

    scripts = [CHEATS + "echo hello > /app/out.txt"]


class Improves(_Resumable):
    """Adds one unit of progress every 0.6 s for 5 units."""

    scripts = ["for i in 1 2 3 4 5; do echo x >> /app/progress; sleep 0.6; done; sleep 0.5"]


class Crashes(_Resumable):
    """Writes the right answer, then its own code raises: an agent error, graded on what it left."""

    scripts = ["echo hello > /app/out.txt"]

    async def run(self, context: AgentContext, instruction: str) -> AgentOutcome:
        await self._step(context)
        raise KeyError("bug in the agent")


class BusyUntilTimeout(_Scripted):
    """Works (burns CPU) until its time runs out."""

    scripts = ["while :; do :; done"]


class HangsAfterWork(_Scripted):
    """Works for two seconds, then blocks on a command that never returns."""

    scripts = ["timeout 2 sh -c 'while :; do :; done'; sleep 1000"]


class TimesItsResumes(_Resumable):
    """Sets how long the next grading takes (``/app/delay.txt``, read by the task's test.sh) and measures on its
    own side how long each interim verification kept it waiting."""

    scripts = [f"echo {delay} > /app/delay.txt; sleep 1.2" for delay in ("0", "4", "1", "20", "0", "0")]

    def __init__(self, spec: AgentSpec) -> None:
        super().__init__(spec)
        self.stopped_at: float | None = None
        GAPS.clear()

    async def _step(self, context: AgentContext) -> AgentOutcome:
        outcome = await super()._step(context)
        self.stopped_at = time.monotonic()
        return outcome

    async def resume(self, context: AgentContext, message: str) -> AgentOutcome:
        assert self.stopped_at is not None
        GAPS.append(time.monotonic() - self.stopped_at)
        return await super().resume(context, message)


GAPS: list[float] = []  # TimesItsResumes: seconds between the end of a phase and the next resume
