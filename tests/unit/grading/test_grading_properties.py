"""Property tests: for any weights and scores, the reward is the weighted mean and the harness accepts it."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lhtb.grading import Scorecard
from lhtb.grading.kinds import score_banded, score_continuous
from lhtb.results.models import RewardFile
from lhtb.verifier.reward import parse_reward_dir

weights = st.floats(min_value=0.0, max_value=1e6, allow_nan=False)
scores = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
rows = st.lists(st.tuples(weights, scores), min_size=1, max_size=30).filter(lambda pairs: any(w > 0 for w, _ in pairs))
any_float = st.floats(allow_nan=True, allow_infinity=True)


@given(rows)
def test_reward_is_the_weighted_mean_and_validates(pairs: list[tuple[float, float]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        card = Scorecard(tmp)
        for index, (weight, score) in enumerate(pairs):
            card.add(f"s{index}", weight, score, kind="continuous")
        expected = math.fsum(w * s for w, s in pairs) / math.fsum(w for w, _ in pairs)
        assert 0.0 <= card.reward <= 1.0
        assert math.isclose(card.reward, expected, rel_tol=1e-12, abs_tol=1e-300)
        written = card.write()
        parsed = RewardFile.model_validate_json((Path(tmp) / "reward.json").read_text())
        assert parsed.reward == written
        assert parse_reward_dir(Path(tmp)).reward == written


@given(
    any_float,
    st.floats(-1e6, 1e6),
    st.floats(0, 1e3),
    st.floats(0, 1e3),
    st.booleans(),
)
def test_continuous_score_is_in_unit_interval(
    value: float, target: float, tolerance: float, extra: float, relative: bool
) -> None:
    if relative and target == 0:
        target = 1.0
    bound = tolerance + extra
    scored = score_continuous(value, target=target, tolerance=tolerance, bound=bound, relative=relative)
    assert 0.0 <= scored.score <= 1.0


band_points = st.lists(
    st.tuples(st.floats(-1e6, 1e6), scores), min_size=1, max_size=8, unique_by=lambda point: point[0]
)


@given(any_float, band_points)
def test_banded_score_is_in_unit_interval(value: float, points: list[tuple[float, float]]) -> None:
    bands = sorted(points)
    score = score_banded(value, bands=bands).score
    assert 0.0 <= score <= 1.0
    if not math.isnan(value):
        assert min(s for _, s in bands) <= score <= max(s for _, s in bands)
