"""Which agent processes count as live services (and so keep running while a sibling grades them), and the
seeds of live verifications. The sibling itself runs in real containers: tests/integration/test_live_service_grading.py."""

from __future__ import annotations

import asyncio

from lhtb.environments.base import ExecResult
from lhtb.llm.bridge import FORWARDER_NAME
from lhtb.verifier.grader import live_seed
from lhtb.verifier.sibling import live_service_pids


class Listing:
    """An agent container whose process listing is fixed: what the listener script would print."""

    def __init__(self, stdout: str) -> None:
        self.stdout = stdout

    async def exec(self, command: str, **_: object) -> ExecResult:
        return ExecResult(exit_code=0, stdout=self.stdout, stderr="", timed_out=False, duration_sec=0.0)


TABLE = """\
P 1 0
P 7 1
P 20 7
P 21 20
P 22 21
P 30 1
P 40 1
P 41 40
L 20 python3 server.py
L 20 python3 server.py
L 40 python3 /opt/lhtb/bridge/{forwarder} 4000 /opt/lhtb/bridge/model.sock
L 1 docker-init
L  broken line
"""


def test_a_listener_and_its_descendants_are_the_live_service() -> None:
    listing = Listing(TABLE.format(forwarder=FORWARDER_NAME))
    # the server (20) and its workers (21, 22); not lhtb's model forwarder (40), init, or its shell parent (7)
    assert asyncio.run(live_service_pids(listing)) == ["20", "21", "22"]  # type: ignore[arg-type]
    assert asyncio.run(live_service_pids(Listing("P 1 0\nP 9 1\n"))) == []  # type: ignore[arg-type]


def test_only_the_final_live_verification_uses_the_trials_seed() -> None:
    assert live_seed(1234, "final") == 1234
    interim, checkpoint = live_seed(1234, "interim-1"), live_seed(1234, "checkpoint-1")
    assert len({1234, interim, checkpoint}) == 3
    assert interim == live_seed(1234, "interim-1") and 0 <= interim < 2**63  # reproducible, a verify seed
    assert live_seed(None, "interim-1") is None  # no seed: the task's default cases, as everywhere
