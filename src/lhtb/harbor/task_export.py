"""Write lhtb tasks as Harbor tasks that stock Harbor runs unchanged and grades as lhtb does.

What changes in the copy, and why (docs/harbor.md):
- ``[task] name`` becomes ``org/name``: Harbor requires an organisation.
- Every choice where lhtb's default differs from Harbor's is written out (separate verification, workdir,
  limits, build timeout, artifacts), so Harbor runs the task as lhtb would rather than with its own defaults;
  keys already present are kept as written. A task without network gets ``environment/docker-compose.yaml``
  putting its containers on no network (see NO_NETWORK_COMPOSE).
- The grading SDK (``lhtb.grading``, standard library only) is vendored into ``tests/_lhtb/``; the task's
  ``test.sh`` becomes ``tests/lhtb-test.sh`` behind a wrapper that sets what lhtb's verifier sets (the SDK on
  the path, a trusted Python environment, a fresh verify seed, the workdir) and turns the scorecard into the
  flat ``reward.json`` Harbor accepts (reward first, then each subtask's score).
Everything else is copied as it is, comments in ``task.toml`` included.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tomllib
from pathlib import Path

import tomlkit
import yaml
from tomlkit.items import Table

import lhtb
from lhtb.environments.images import dockerfile_workdir, read_dockerfile
from lhtb.errors import ConfigError
from lhtb.fs import write_text_atomic
from lhtb.harbor import reward_shim
from lhtb.tasks.loader import Task
from lhtb.verifier.separate import TRUSTED_PYTHON_ENV

VENDOR_DIR = "_lhtb"  # under tests/: the SDK (lhtb/grading) and the reward converter
TASK_TEST = "lhtb-test.sh"  # the task's own test.sh, run by the wrapper
REWARD_SHIM = "harbor_reward.py"
OUTPUT_SUBDIR = "lhtb"  # under /logs/verifier: the lhtb scorecard, kept beside Harbor's flat reward.json
ORG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
# Harbor's Docker environment enforces network_mode = "no-network" only through its egress-control sidecar,
# which needs images from a registry; a Compose override with no network works on every Docker host, and the
# separate verifier (a fresh copy of the same environment) gets it too.
NO_NETWORK_COMPOSE = """# Written by `lhtb tasks export --harbor`: the task's containers have no network, as in lhtb.
services:
  main:
    network_mode: none
"""
_SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")

_WRAPPER = """#!/bin/bash
# Written by `lhtb tasks export --harbor`: runs this task's lhtb verifier ({task_test}) as lhtb does, with the
# grading SDK vendored in {vendor}/, then writes Harbor's flat reward.json from the lhtb scorecard.
set -u
vendor=/tests/{vendor_dir}
scorecard=/logs/verifier/{output_subdir}
mkdir -p "$scorecard"
seed="${{LHTB_VERIFY_SEED:-$(python3 "$vendor/{shim}" --new-seed)}}"
echo "$seed" > "$scorecard/verify-seed"
cd {workdir} || exit 1
env {python_env} PYTHONPATH="$vendor" LHTB_VERIFIER_OUTPUT_DIR="$scorecard" LHTB_VERIFY_SEED="$seed" \\
  bash /tests/{task_test}
status=$?
# A Harbor-style test that wrote /logs/verifier/reward.{{txt,json}} itself has no scorecard: its file stands.
if [ -e "$scorecard/reward.json" ] || ! ls /logs/verifier/reward.txt /logs/verifier/reward.json >/dev/null 2>&1
then
  python3 "$vendor/{shim}" "$scorecard/reward.json" /logs/verifier/reward.json || exit 1
fi
exit $status
"""


INTERNAL_NETWORK = "lhtb-sandbox"


def internal_network_compose(path: Path) -> str:
    """The task's Compose file with every service, ``main`` too, on one internal network: they reach each other
    by name and nothing else, as lhtb runs a task with sidecars and no network."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    services = document["services"]
    services.setdefault("main", {})
    for name in services:
        services[name] = {**(services[name] or {}), "networks": [INTERNAL_NETWORK]}
    document["networks"] = {INTERNAL_NETWORK: {"internal": True}}
    header = "# Written by `lhtb tasks export --harbor`: the task's services share an internal network, as in lhtb.\n"
    return header + yaml.safe_dump(document, sort_keys=False)


def harbor_name(task: Task, org: str) -> str:
    """``org/name``; a name already in that form is kept."""
    return task.name if "/" in task.name else f"{org}/{task.name}"


def _table(doc: tomlkit.TOMLDocument, key: str) -> Table:
    if key not in doc:
        doc.add(key, tomlkit.table())
    section = doc[key]
    assert isinstance(section, Table)
    return section


def _set_default(section: Table, key: str, value: object) -> None:
    if key not in section:
        section[key] = value


def harbor_toml(task: Task, org: str) -> str:
    """The task's ``task.toml`` with a Harbor name and lhtb's effective choices written out."""
    config = task.config
    text = (task.path / "task.toml").read_text(encoding="utf-8")
    from_image = config.environment.workdir_from_image  # then Harbor's rule is lhtb's: nothing to write out
    # lhtb's separate verifier gets the workdir when no artifact is declared; Harbor's would get nothing.
    dockerfile = task.environment_dir / "Dockerfile"
    workdir = dockerfile_workdir(read_dockerfile(dockerfile)) if from_image and dockerfile.exists() else None
    workdir = workdir or (None if from_image else config.environment.workdir)
    if "artifacts" not in tomllib.loads(text) and workdir is not None:  # a top-level key: before every table
        text = f"artifacts = {json.dumps([workdir])}  # lhtb's default: the workdir\n" + text
    doc = tomlkit.parse(text)
    _table(doc, "task")["name"] = harbor_name(task, org)
    env = config.environment
    environment = _table(doc, "environment")
    # Enforced by the Compose file instead (Harbor would refuse the task without its egress sidecar): no network
    # for main alone (NO_NETWORK_COMPOSE), an internal network for main and its sidecars (INTERNAL_NETWORK).
    if env.effective_network == "none":
        for key in ("allow_internet", "network_mode"):
            if key in environment:
                del environment[key]
    for key, value in (
        *((("workdir", env.workdir),) if not from_image else ()),
        ("cpus", env.cpus),
        ("memory_mb", env.memory_mb),
        ("build_timeout_sec", env.build_timeout_sec),
    ):
        _set_default(environment, key, value)
    verifier = _table(doc, "verifier")
    _set_default(verifier, "environment_mode", config.verifier.mode)
    _set_default(verifier, "timeout_sec", config.verifier.timeout_sec)
    _set_default(_table(doc, "agent"), "timeout_sec", config.agent.timeout_sec)
    return tomlkit.dumps(doc)


def wrapper_script(task: Task) -> str:
    python_env = " ".join(
        f"{key}={shlex.quote(value)}" for key, value in TRUSTED_PYTHON_ENV.items() if key != "PYTHONPATH"
    )
    return _WRAPPER.format(
        task_test=TASK_TEST,
        vendor=f"tests/{VENDOR_DIR}",
        vendor_dir=VENDOR_DIR,
        output_subdir=OUTPUT_SUBDIR,
        shim=REWARD_SHIM,
        workdir=shlex.quote(task.config.environment.workdir),
        python_env=python_env,
    )


def _vendor_sdk(tests: Path) -> None:
    package = Path(lhtb.__file__).resolve().parent
    vendor = tests / VENDOR_DIR
    shutil.copytree(package / "grading", vendor / "lhtb" / "grading", ignore=_SKIPPED)
    shutil.copy2(package / "__init__.py", vendor / "lhtb" / "__init__.py")
    shutil.copy2(Path(reward_shim.__file__), vendor / REWARD_SHIM)


def export_task(task: Task, out_dir: Path, *, org: str = "lhtb") -> Path:
    """Write ``task`` as a Harbor task under ``out_dir/<directory name>``; an existing copy is replaced whole."""
    if not ORG_PATTERN.match(org):
        raise ConfigError(f"--org {org!r}: use lowercase letters, digits, '.', '_' or '-'")
    dest = out_dir / task.path.name
    staging = out_dir / f".{task.path.name}.export"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(task.path, staging, ignore=_SKIPPED)
    tests = staging / "tests"
    # A multi-step task's steps may have their own test.sh: each is wrapped the same way (Harbor lays the step's
    # tests/ over the task's, so the step's lhtb-test.sh is the one its wrapper runs).
    step_tests = [staging / "steps" / step.name / "tests" for step in task.steps]
    wrapped = [d for d in (tests, *step_tests) if (d / "test.sh").is_file()]
    for directory in (tests, *step_tests):
        if (directory / VENDOR_DIR).exists() or (directory / TASK_TEST).exists():
            shutil.rmtree(staging)
            raise ConfigError(f"{directory}: already holds {VENDOR_DIR}/ or {TASK_TEST} (exported twice?)")
    for directory in wrapped:
        (directory / "test.sh").rename(directory / TASK_TEST)
        write_text_atomic(directory / "test.sh", wrapper_script(task))
        (directory / "test.sh").chmod(0o755)
    _vendor_sdk(tests)
    write_text_atomic(staging / "task.toml", harbor_toml(task, org))
    compose = staging / "environment" / "docker-compose.yaml"
    if task.config.environment.effective_network == "none" and task.compose is None and not compose.exists():
        write_text_atomic(compose, NO_NETWORK_COMPOSE)
    elif task.config.environment.effective_network == "none" and task.compose is not None:
        copied = staging / task.compose.path.relative_to(task.path)
        write_text_atomic(copied, internal_network_compose(task.compose.path))
    if dest.exists():
        shutil.rmtree(dest)
    staging.rename(dest)
    return dest
