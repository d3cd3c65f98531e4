"""The pure scoring functions in lhtb.grading.kinds: every kind at and around its edges."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from lhtb.grading import GradingError
from lhtb.grading.kinds import (
    as_flag,
    as_number,
    score_banded,
    score_binary,
    score_continuous,
    score_episode_returns,
    score_episodes,
    score_fraction,
    validate_bands,
    validate_continuous,
)

SPEEDUP_BANDS = [(1, 0.0), (2, 0.5), (4, 1.0)]


def continuous(value: object, **overrides: object) -> float:
    params: dict = {"target": 10.0, "tolerance": 1.0, "bound": 3.0, "relative": False, **overrides}
    return score_continuous(value, **params).score


class TestBinary:
    def test_true_and_false(self) -> None:
        assert score_binary(True) == (1.0, "passed")
        assert score_binary(False) == (0.0, "failed")

    def test_zero_and_one_count_as_flags(self) -> None:
        assert score_binary(1).score == 1.0
        assert score_binary(0.0).score == 0.0

    @pytest.mark.parametrize("value", [None, "yes", "False", 2, 0.5, [True]])
    def test_non_flags_are_type_errors(self, value: object) -> None:
        with pytest.raises(TypeError, match="must be a bool"):
            score_binary(value)


class TestContinuous:
    def test_inside_tolerance_is_full_score(self) -> None:
        assert continuous(10.0) == 1.0
        assert continuous(10.5) == 1.0

    def test_exactly_at_tolerance_is_full_score(self) -> None:
        assert continuous(11.0) == 1.0
        assert continuous(9.0) == 1.0

    def test_linear_between_tolerance_and_bound(self) -> None:
        assert continuous(12.0) == pytest.approx(0.5)
        assert continuous(7.5) == pytest.approx(0.25)

    def test_exactly_at_bound_and_beyond_is_zero(self) -> None:
        assert continuous(13.0) == 0.0
        assert continuous(7.0) == 0.0
        assert continuous(1e9) == 0.0

    def test_relative_mode_divides_by_abs_target(self) -> None:
        # error = |11 - 10| / 10 = 0.1 -> exactly at tolerance
        assert continuous(11.0, relative=True, tolerance=0.1, bound=0.3) == 1.0
        # error = 0.2 -> halfway between 0.1 and 0.3
        assert continuous(12.0, relative=True, tolerance=0.1, bound=0.3) == pytest.approx(0.5)
        assert continuous(-12.0, target=-10.0, relative=True, tolerance=0.1, bound=0.3) == pytest.approx(0.5)
        assert continuous(13.0, relative=True, tolerance=0.1, bound=0.3) == 0.0

    def test_relative_with_target_zero_is_an_author_error(self) -> None:
        with pytest.raises(GradingError, match="target 0"):
            score_continuous(0.0, target=0.0, tolerance=0.1, bound=1.0, relative=True)

    def test_absolute_with_target_zero_is_fine(self) -> None:
        assert continuous(0.05, target=0.0, tolerance=0.1, bound=1.0) == 1.0

    def test_tolerance_equal_to_bound_is_a_step(self) -> None:
        assert continuous(11.0, tolerance=1.0, bound=1.0) == 1.0
        assert continuous(11.000001, tolerance=1.0, bound=1.0) == 0.0

    @pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
    def test_non_finite_value_scores_zero(self, value: float) -> None:
        scored = score_continuous(value, target=10.0, tolerance=1.0, bound=3.0)
        assert scored.score == 0.0
        assert "value is" in scored.note

    def test_int_and_fraction_values_work(self) -> None:
        assert continuous(12) == pytest.approx(0.5)
        assert continuous(Fraction(12)) == pytest.approx(0.5)

    @pytest.mark.parametrize("value", [None, "12", True, [12]])
    def test_non_numbers_are_type_errors(self, value: object) -> None:
        with pytest.raises(TypeError, match="must be a number"):
            continuous(value)

    def test_note_shows_the_numbers(self) -> None:
        note = score_continuous(12.0, target=10.0, tolerance=1.0, bound=3.0).note
        assert "value=12" in note and "error=2" in note and "bound 3" in note

    @pytest.mark.parametrize(
        ("params", "message"),
        [
            ({"tolerance": 2.0, "bound": 1.0}, "must not exceed bound"),
            ({"tolerance": -0.1}, "tolerance must be >= 0"),
            ({"target": math.nan}, "target must be finite"),
            ({"bound": math.inf}, "bound must be finite"),
            ({"target": "10"}, "target must be a number"),
        ],
    )
    def test_bad_parameters(self, params: dict, message: str) -> None:
        full = {"target": 10.0, "tolerance": 1.0, "bound": 3.0, "relative": False, **params}
        with pytest.raises(GradingError, match=message):
            validate_continuous(full["target"], full["tolerance"], full["bound"], full["relative"])
        with pytest.raises(GradingError, match=message):
            score_continuous(10.0, **full)


class TestBanded:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [(1, 0.0), (1.5, 0.25), (2, 0.5), (3, 0.75), (4, 1.0)],
    )
    def test_interpolates_between_points(self, value: float, expected: float) -> None:
        assert score_banded(value, bands=SPEEDUP_BANDS).score == pytest.approx(expected)

    @pytest.mark.parametrize(("value", "expected"), [(0.2, 0.0), (-5, 0.0), (100, 1.0), (math.inf, 1.0)])
    def test_clamps_outside_the_points(self, value: float, expected: float) -> None:
        assert score_banded(value, bands=SPEEDUP_BANDS).score == expected

    def test_nan_scores_zero(self) -> None:
        assert score_banded(math.nan, bands=SPEEDUP_BANDS) == (0.0, "value is nan")

    def test_single_band_is_constant(self) -> None:
        for value in (-10, 5, 10):
            assert score_banded(value, bands=[(5, 0.7)]).score == 0.7

    def test_decreasing_scores_are_allowed(self) -> None:
        # e.g. a memory budget: lower is better
        assert score_banded(150, bands=[(100, 1.0), (200, 0.0)]).score == pytest.approx(0.5)

    @pytest.mark.parametrize(
        ("bands", "message"),
        [
            ([], "at least one"),
            ([(2, 0.5), (1, 0.0)], "strictly increasing"),
            ([(1, 0.0), (1, 0.5)], "strictly increasing"),
            ([(1, 0.0), (2, 1.5)], r"band score must be in \[0, 1\]"),
            ([(1, -0.1)], r"band score must be in \[0, 1\]"),
            ([(1, 0.0, 3)], r"\(x, score\) pair"),
            ([(math.nan, 0.5)], "band x must be finite"),
            ("12", "list of"),
            (None, "list of"),
        ],
    )
    def test_bad_bands(self, bands: object, message: str) -> None:
        with pytest.raises(GradingError, match=message):
            validate_bands(bands)

    def test_validate_returns_float_points(self) -> None:
        assert validate_bands([(1, 0), [2, 1]]) == [(1.0, 0.0), (2.0, 1.0)]


class TestFractionAndEpisodes:
    def test_fraction_counts_passed_cases(self) -> None:
        assert score_fraction([True, False, True, True]) == (0.75, "3/4 cases passed")

    def test_fraction_accepts_generators(self) -> None:
        assert score_fraction(x > 1 for x in range(4)).score == 0.5

    def test_empty_cases_score_zero(self) -> None:
        assert score_fraction([]) == (0.0, "no cases")

    def test_non_bool_case_is_type_error(self) -> None:
        with pytest.raises(TypeError, match=r"cases\[1\]"):
            score_fraction([True, "no"])

    def test_string_is_not_a_case_list(self) -> None:
        with pytest.raises(TypeError, match="iterable of bools"):
            score_fraction("TTF")

    def test_episodes(self) -> None:
        assert score_episodes([True, False]) == (0.5, "1/2 episodes succeeded")
        assert score_episodes([]) == (0.0, "no episodes")

    def test_episode_returns_normalizes_and_clamps(self) -> None:
        # (0 -> 0.0) (5 -> 0.5) (20 -> clamped 1.0) (-3 -> clamped 0.0): mean 1.5 / 4
        assert score_episode_returns([0, 5, 20, -3], low=0, high=10).score == pytest.approx(0.375)

    def test_episode_returns_non_finite_counts_zero(self) -> None:
        assert score_episode_returns([10, math.nan, math.inf], low=0, high=10).score == pytest.approx(1 / 3)

    def test_episode_returns_empty(self) -> None:
        assert score_episode_returns([], low=0, high=1) == (0.0, "no episodes")

    @pytest.mark.parametrize(("low", "high"), [(1, 1), (2, 1), (0, math.inf)])
    def test_episode_returns_bad_range(self, low: float, high: float) -> None:
        with pytest.raises(GradingError):
            score_episode_returns([1], low=low, high=high)


class TestCoercion:
    def test_as_number(self) -> None:
        assert as_number(3) == 3.0
        assert as_number(Fraction(1, 4)) == 0.25
        assert as_number(-(10**400)) == -math.inf
        with pytest.raises(TypeError):
            as_number(False)

    def test_as_flag(self) -> None:
        assert as_flag(1.0) is True
        with pytest.raises(TypeError):
            as_flag(math.nan)
