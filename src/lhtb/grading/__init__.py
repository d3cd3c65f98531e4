"""The task-author SDK: score a task's subtasks inside the verifier container and write ``reward.json``.

Standard library only, so any ``python3`` can import it. See docs/grading.md::

    from lhtb.grading import Scorecard, stress

    card = Scorecard()
    card.binary("output_exists", 1, lambda: Path("/app/out.csv").exists(), visibility="public")
    card.write()
"""

from lhtb.grading import kinds, stress
from lhtb.grading.errors import GradingError
from lhtb.grading.record import KINDS, REWARD_SCHEMA, VISIBILITIES, ScoredSubtask
from lhtb.grading.scorecard import Scorecard

__all__ = [
    "KINDS",
    "REWARD_SCHEMA",
    "VISIBILITIES",
    "GradingError",
    "Scorecard",
    "ScoredSubtask",
    "kinds",
    "stress",
]
