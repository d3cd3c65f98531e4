"""``lhtb tasks init``: a new task that already passes the structural gates and shows every convention."""

from __future__ import annotations

import re
from pathlib import Path

from lhtb.errors import ConfigError
from lhtb.qa.static import CANARY, CANARY_LINE

_FILES = {
    "task.toml": """{canary}
version = "1.0"
artifacts = ["/app"]

[task]
name = "{name}"
description = "One line: what the agent must achieve."

[metadata]
author_name = "you"
author_email = "you@example.invalid"
difficulty = "hard"
category = "{category}"
tags = []
expert_time_estimate_min = 120
junior_time_estimate_min = 480

[agent]
timeout_sec = 7200
continue_until_timeout = true

[verifier]
timeout_sec = 300
environment_mode = "separate"  # grade a copy of the artifacts in a fresh container (Harbor's default: shared)

[environment]
build_timeout_sec = 600
cpus = 1
memory_mb = 2048
allow_internet = false  # no network (Harbor's default: public)
workdir = "/app"  # (Harbor's default: the image's WORKDIR)

[qa]
shortcut_ceiling = 0.3  # no scripted shortcut in tests/shortcuts/ may score more
""",
    "instruction.md": """<!-- lhtb-canary GUID {guid} -->
# {name}

The only spec the agent gets: what to build or fix, where, the exact input and output formats, and how the
work is judged in general terms (never the hidden cases).
""",
    "environment/Dockerfile": """{canary}
FROM lhtb/python:bookworm
WORKDIR /app
COPY generate.py /opt/generate.py
RUN python3 /opt/generate.py /app && rm /opt/generate.py
""",
    "environment/generate.py": """{canary}
\"\"\"Build-time asset generator: deterministic (fixed seed), so every build yields the same project.\"\"\"

import random
import sys
from pathlib import Path

rng = random.Random(1234)
app = Path(sys.argv[1])
app.mkdir(parents=True, exist_ok=True)
(app / "numbers.txt").write_text("\\n".join(str(rng.randint(1, 100)) for _ in range(10)) + "\\n")
""",
    "tests/test.sh": """#!/bin/bash
{canary}
exec python3 /tests/grade.py
""",
    "tests/grade.py": """{canary}
\"\"\"Hidden verifier: public checks carry little weight, hidden seeded stress cases most of it.\"\"\"

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner

SEED = stress.seed_from_env(4242)  # the harness sets a fresh seed for every trial
card = Scorecard()
runner = AgentRunner("/app", timeout_sec=5)


def solves(numbers: list[int]) -> bool:
    run = runner.run(["python3", "/app/solution.py", *map(str, numbers)])
    return run.ok and run.stdout.strip() == str(sum(numbers))


card.binary("public_example", 1, lambda: solves([1, 2, 3]), visibility="public")
FAMILIES = {{"small": (5, 100), "large": (500, 1000), "negative": (20, -50), "empty": (0, 1), "huge": (50, 10**12)}}
for family, (size, scale) in FAMILIES.items():
    rng = stress.rng(SEED, family)
    cases = [[rng.randint(-abs(scale), abs(scale)) for _ in range(size)] for _ in range(10)]
    card.fraction(f"hidden_{{family}}", 2, lambda cases=cases: [solves(c) for c in cases])
card.write()
""",
    "solution/solve.sh": """#!/bin/bash
{canary}
cat > /app/solution.py <<'EOF'
import sys
print(sum(int(x) for x in sys.argv[1:]))
EOF
""",
    "baseline/solve.sh": """#!/bin/bash
{canary}
cat > /app/solution.py <<'EOF'
import sys
print(sum(int(x) for x in sys.argv[1:6]))
EOF
""",
    "tests/shortcuts/public-only.sh": """#!/bin/bash
{canary}
# shortcut: answers the public example by heart and nothing else
cat > /app/solution.py <<'EOF'
import sys
print(6 if sys.argv[1:] == ["1", "2", "3"] else 0)
EOF
""",
    "tests/shortcuts/first-number.sh": """#!/bin/bash
{canary}
# shortcut: prints the first number instead of adding them up
cat > /app/solution.py <<'EOF'
import sys
print(sys.argv[1] if len(sys.argv) > 1 else 0)
EOF
""",
    "tests/shortcuts/count.sh": """#!/bin/bash
{canary}
# shortcut: prints how many numbers there are
cat > /app/solution.py <<'EOF'
import sys
print(len(sys.argv) - 1)
EOF
""",
}


def scaffold(name: str, directory: Path, category: str) -> Path:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{1,62}", name):
        raise ConfigError(f"task name {name!r}: use lowercase letters, digits and dashes")
    root = directory / name
    if root.exists():
        raise ConfigError(f"{root} already exists")
    for relative, template in _FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(canary=CANARY_LINE, guid=CANARY, name=name, category=category))
        if path.suffix == ".sh":
            path.chmod(0o755)
    return root
