"""Trial directories are unique by construction, and the task's [agent] user reaches the agent's container."""

from __future__ import annotations

import itertools
from pathlib import Path

from lhtb.jobs.layout import trial_name
from lhtb.results.models import AgentSpec
from lhtb.tasks.loader import load_task
from lhtb.trial.lifecycle import TrialPlan, agent_container_spec

TRICKY = [
    "a",
    "a_",
    "_a",
    "a__b",
    "a_b",
    "a-b",
    "a b",
    "a/b",
    "a:b",
    "a~b",
    "b",
    "_b",
    "b__c",
    "c",
    "x" * 80,
    "x" * 81,
    "x" * 80 + "y",
    "-a",
    "a-",
    ".",
    "..",
    "café",
    "",
    "oracle",
    "terminus:openai/gpt-4o",
]


def test_plain_names_are_kept_so_existing_jobs_resume() -> None:
    assert trial_name("hello-world", AgentSpec(name="oracle"), 1) == "hello-world__oracle__1"
    assert trial_name("fix_the.parser-2", AgentSpec(name="nop"), 3) == "fix_the.parser-2__nop__3"


def test_trial_names_never_collide() -> None:
    names = {}
    for task, agent in itertools.product(TRICKY, TRICKY):
        if not agent:
            continue
        name = trial_name(task, AgentSpec(name=agent), 1)
        assert name not in names, f"{(task, agent)} and {names[name]} share {name}"
        assert "/" not in name and len(name) < 200
        names[name] = (task, agent)


def test_agent_user_is_the_agent_containers_user(make_task, tmp_path: Path) -> None:
    task = load_task(make_task("as-user"))
    plan = TrialPlan.new(
        task, tmp_path, job_name="job", trial_name="trial~0123456789ab", agent=AgentSpec(name="oracle"), attempt=1,
        agent_timeout_sec=60,
    )  # fmt: skip
    assert agent_container_spec(task, "image", plan).user is None
    task = load_task(make_task("as-user2"))
    text = (task.path / "task.toml").read_text().replace("timeout_sec = 60\n", 'timeout_sec = 60\nuser = "agent"\n', 1)
    (task.path / "task.toml").write_text(text)
    spec = agent_container_spec(load_task(task.path), "image", plan)
    assert spec.user == "agent"
    assert "~" not in spec.name  # Docker container names allow [A-Za-z0-9_.-] only
