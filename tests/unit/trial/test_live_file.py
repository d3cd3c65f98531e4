"""``live.json``: what a running trial says about itself, from the loop's own records."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from lhtb.results.models import PhaseRecord, TrialLive, Usage
from lhtb.trial.live import LiveWriter

NOW = datetime(2026, 12, 1, tzinfo=UTC)


class Clock:
    used = 95.5


@dataclass
class Loop:
    phases: list[PhaseRecord] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    activity: None = None

    def checkpoint_times(self) -> list[float]:
        return [30.0, 60.0]


class Agent:
    usage_so_far = Usage(input_tokens=100, output_tokens=10, episodes=2)


def test_a_running_phase_counts_its_usage_so_far_and_finished_phases_their_interim_reward(tmp_path: Path) -> None:
    done = PhaseRecord(index=0, started_at=NOW, finished_at=NOW, reward=0.4, agent_sec=50.0,
                       usage=Usage(input_tokens=1000, output_tokens=100, episodes=5))  # fmt: skip
    running = PhaseRecord(index=1, started_at=NOW)
    loop = Loop(phases=[done, running], usage=done.usage)
    writer = LiveWriter(tmp_path, "t", 600.0, NOW)
    writer.loop, writer.clock, writer.agent = loop, Clock(), Agent()  # type: ignore[assignment]
    writer.write("agent")
    live = TrialLive.model_validate_json((tmp_path / "live.json").read_text())
    assert (live.phase, live.agent_sec, live.timeout_sec) == ("agent", 95.5, 600.0)
    assert [(p.agent_sec, p.reward) for p in live.interim] == [(50.0, 0.4)]  # the running phase has none yet
    assert (live.input_tokens, live.output_tokens, live.episodes) == (1100, 110, 7)
    assert live.checkpoints == [30.0, 60.0]
    running.finished_at = NOW  # ended: its usage is in the loop's total now, never counted twice
    loop.usage = loop.usage.plus(Agent.usage_so_far)
    writer.write("verify")
    live = TrialLive.model_validate_json((tmp_path / "live.json").read_text())
    assert (live.input_tokens, live.episodes, live.phase) == (1100, 7, "verify")


def test_a_write_that_fails_never_disturbs_the_trial(tmp_path: Path) -> None:
    writer = LiveWriter(tmp_path / "missing" / "dir", "t", 60.0, NOW)
    (tmp_path / "missing").write_text("a file where the directory should be")
    writer.write("build")  # no exception
