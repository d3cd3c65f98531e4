"""Scorecard: check methods, contained check failures, author mistakes, and the reward.json it writes."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from lhtb.grading import GradingError, Scorecard
from lhtb.grading.report import format_scorecard
from lhtb.results.models import RewardFile


@pytest.fixture
def card(tmp_path: Path) -> Scorecard:
    return Scorecard(tmp_path / "verifier")


def by_name(card: Scorecard, name: str):
    return next(s for s in card.subtasks if s.name == name)


def fill_example(card: Scorecard) -> None:
    card.binary("output_exists", 1, True, visibility="public")
    card.continuous("rmse", 3, 0.15, target=0.1, tolerance=0.02, bound=0.2)
    card.banded("speedup", 2, 3.0, bands=[(1, 0), (2, 0.5), (4, 1)])
    card.fraction("stress_cases", 4, [True, False, True, True])
    card.episode_returns("returns", 1, [0, 5, 20], low=0, high=10)


class TestChecks:
    def test_each_kind_records_a_subtask(self, card: Scorecard) -> None:
        fill_example(card)
        card.episodes("episodes", 1, [True, False, False, True])
        scores = {s.name: s.score for s in card.subtasks}
        assert scores == pytest.approx(
            {
                "output_exists": 1.0,
                "rmse": 5 / 6,
                "speedup": 0.75,
                "stress_cases": 0.75,
                "returns": 0.5,
                "episodes": 0.5,
            }
        )
        kinds = {s.name: s.kind for s in card.subtasks}
        assert kinds["returns"] == "episodes"
        assert kinds["episodes"] == "episodes"
        assert by_name(card, "output_exists").visibility == "public"
        assert by_name(card, "rmse").visibility == "hidden"

    def test_check_methods_return_the_score(self, card: Scorecard) -> None:
        assert card.binary("a", 1, False) == 0.0
        assert card.banded("b", 1, 2, bands=[(1, 0), (3, 1)]) == 0.5

    def test_reward_is_weighted_mean(self, card: Scorecard) -> None:
        fill_example(card)
        expected = (1 * 1 + 3 * (5 / 6) + 2 * 0.75 + 4 * 0.75 + 1 * 0.5) / 11
        assert card.reward == pytest.approx(expected)

    def test_zero_weight_subtask_is_recorded_but_does_not_count(self, card: Scorecard) -> None:
        card.binary("counted", 1, True)
        card.binary("informational", 0, False)
        assert card.reward == 1.0
        assert len(card.subtasks) == 2

    def test_callable_values_are_evaluated(self, card: Scorecard) -> None:
        assert card.continuous("c", 1, lambda: 10.0, target=10, tolerance=0, bound=1) == 1.0
        assert card.fraction("f", 1, lambda: (x % 2 == 0 for x in range(4))) == 0.5

    def test_author_detail_comes_before_the_note(self, card: Scorecard) -> None:
        card.fraction("f", 1, [True, False], detail="hidden csv variants")
        assert by_name(card, "f").detail == "hidden csv variants; 1/2 cases passed"

    def test_add_records_a_raw_score(self, card: Scorecard) -> None:
        assert card.add("judged", 2, 0.4, kind="continuous", visibility="public", detail="by rubric") == 0.4
        subtask = by_name(card, "judged")
        assert (subtask.kind, subtask.visibility, subtask.detail) == ("continuous", "public", "by rubric")

    def test_add_accepts_a_callable(self, card: Scorecard) -> None:
        assert card.add("judged", 1, lambda: 0.25, kind="fraction") == 0.25


class TestContainedFailures:
    def test_raising_callable_scores_zero_and_grading_goes_on(self, card: Scorecard) -> None:
        def parse_output() -> float:
            raise FileNotFoundError("/app/out.csv")

        assert card.continuous("rmse", 2, parse_output, target=0, tolerance=0.1, bound=1) == 0.0
        card.binary("next", 1, True)
        rmse = by_name(card, "rmse")
        assert rmse.score == 0.0
        assert rmse.detail == "error: FileNotFoundError: /app/out.csv"
        assert card.reward == pytest.approx(1 / 3)

    def test_error_keeps_the_author_detail(self, card: Scorecard) -> None:
        card.binary("b", 1, lambda: 1 / 0, detail="checks totals")
        assert by_name(card, "b").detail == "checks totals; error: ZeroDivisionError: division by zero"

    def test_exception_without_message(self, card: Scorecard) -> None:
        def fails() -> bool:
            raise AssertionError

        card.binary("b", 1, fails)
        assert by_name(card, "b").detail == "error: AssertionError"

    def test_long_error_message_is_truncated(self, card: Scorecard) -> None:
        card.binary("b", 1, lambda: (_ for _ in ()).throw(ValueError("x" * 5000)))
        assert len(by_name(card, "b").detail) < 600

    def test_wrong_value_type_scores_zero(self, card: Scorecard) -> None:
        card.continuous("c", 1, "3.2", target=3, tolerance=0.1, bound=1)
        card.binary("b", 1, lambda: None)
        assert by_name(card, "c").detail.startswith("error: TypeError: value must be a number")
        assert by_name(card, "b").detail.startswith("error: TypeError: passed must be a bool")

    def test_failure_while_iterating_cases_scores_zero(self, card: Scorecard) -> None:
        def cases():
            yield True
            raise RuntimeError("case 2 crashed")

        card.fraction("f", 1, cases())
        assert by_name(card, "f").detail == "error: RuntimeError: case 2 crashed"

    def test_grading_error_inside_a_check_is_not_contained(self, card: Scorecard) -> None:
        def misuse() -> float:
            raise GradingError("author bug")

        with pytest.raises(GradingError, match="subtask 'x': author bug"):
            card.continuous("x", 1, misuse, target=0, tolerance=0, bound=1)
        assert card.subtasks == ()

    def test_keyboard_interrupt_propagates(self, card: Scorecard) -> None:
        def interrupted() -> bool:
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            card.binary("b", 1, interrupted)


class TestAuthorMistakes:
    @pytest.mark.parametrize("weight", [-1, math.nan, math.inf, "2", True, None])
    def test_bad_weight(self, card: Scorecard, weight: object) -> None:
        with pytest.raises(GradingError, match="subtask 'w': weight"):
            card.binary("w", weight, True)  # type: ignore[arg-type]

    def test_duplicate_name(self, card: Scorecard) -> None:
        card.binary("same", 1, True)
        with pytest.raises(GradingError, match="subtask 'same': duplicate"):
            card.fraction("same", 1, [True])

    @pytest.mark.parametrize("name", ["", "   ", None, 3])
    def test_bad_name(self, card: Scorecard, name: object) -> None:
        with pytest.raises(GradingError, match="name must be a non-empty string"):
            card.binary(name, 1, True)  # type: ignore[arg-type]

    def test_bad_visibility(self, card: Scorecard) -> None:
        with pytest.raises(GradingError, match="subtask 'v': visibility must be"):
            card.binary("v", 1, True, visibility="secret")

    def test_bad_kind_in_add(self, card: Scorecard) -> None:
        with pytest.raises(GradingError, match="subtask 'k': kind must be one of"):
            card.add("k", 1, 0.5, kind="graded")

    @pytest.mark.parametrize("score", [1.3, -0.1, math.nan, "0.5", None])
    def test_raw_score_outside_unit_interval(self, card: Scorecard, score: object) -> None:
        with pytest.raises(GradingError, match="subtask 'raw': score"):
            card.add("raw", 1, score, kind="binary")  # type: ignore[arg-type]

    def test_bad_bands_name_the_subtask(self, card: Scorecard) -> None:
        with pytest.raises(GradingError, match="subtask 'speed': bands must be sorted"):
            card.banded("speed", 1, 2.0, bands=[(4, 1), (1, 0)])

    def test_tolerance_over_bound(self, card: Scorecard) -> None:
        with pytest.raises(GradingError, match="subtask 'c': tolerance"):
            card.continuous("c", 1, 1.0, target=1, tolerance=2, bound=1)

    def test_parameters_are_checked_before_the_value_is_computed(self, card: Scorecard) -> None:
        calls = []
        with pytest.raises(GradingError):
            card.banded("b", 1, lambda: calls.append(1), bands=[])
        assert calls == []

    def test_failed_check_leaves_no_subtask(self, card: Scorecard) -> None:
        with pytest.raises(GradingError):
            card.binary("x", -1, True)
        card.binary("x", 1, True)  # the name is still free
        assert [s.name for s in card.subtasks] == ["x"]

    def test_reward_without_subtasks(self, card: Scorecard) -> None:
        with pytest.raises(GradingError, match="no subtasks"):
            _ = card.reward
        with pytest.raises(GradingError, match="no subtasks"):
            card.write()
        assert not card.output_dir.exists()

    def test_all_zero_weights(self, card: Scorecard) -> None:
        card.binary("a", 0, True)
        card.binary("b", 0.0, False)
        with pytest.raises(GradingError, match="weight 0"):
            card.write()
        assert not (card.output_dir / "reward.json").exists()

    def test_unserializable_metadata(self, card: Scorecard) -> None:
        card.binary("a", 1, True)
        card.metadata["seed"] = object()
        with pytest.raises(GradingError, match="metadata"):
            card.write()
        assert not (card.output_dir / "reward.json").exists()


class TestDecorator:
    def test_check_grades_the_function_now(self, card: Scorecard) -> None:
        @card.check("exists", weight=2, visibility="public")
        def exists() -> bool:
            return True

        @card.check("close", kind="continuous", target=1.0, tolerance=0.1, bound=0.5, relative=True)
        def close() -> float:
            return 1.3

        @card.check("returns", kind="episode_returns", low=0, high=4)
        def returns() -> list[float]:
            return [1, 3]

        assert exists() is True  # returned unchanged
        assert by_name(card, "exists").weight == 2.0
        assert by_name(card, "exists").visibility == "public"
        assert by_name(card, "close").score == pytest.approx(0.5)
        assert by_name(card, "returns").kind == "episodes"
        assert by_name(card, "returns").score == pytest.approx(0.5)

    def test_check_contains_a_raising_function(self, card: Scorecard) -> None:
        @card.check("boom")
        def boom() -> bool:
            raise ValueError("bad csv")

        assert by_name(card, "boom").detail == "error: ValueError: bad csv"

    def test_unknown_kind(self, card: Scorecard) -> None:
        with pytest.raises(GradingError, match="subtask 'x': kind must be one of"):
            card.check("x", kind="vibes")


class TestWrite:
    def test_written_file_validates_as_reward_file(self, card: Scorecard) -> None:
        fill_example(card)
        card.metadata["seed"] = 7
        reward = card.write()
        text = (card.output_dir / "reward.json").read_text()
        parsed = RewardFile.model_validate_json(text)
        assert parsed.reward == reward == card.reward
        assert [s.name for s in parsed.subtasks] == [s.name for s in card.subtasks]
        assert parsed.metadata == {"seed": 7}
        assert json.loads(text)["schema"] == "lhtb.reward/1"

    def test_write_with_contained_error_still_validates(self, card: Scorecard) -> None:
        card.binary("ok", 1, True)
        card.continuous("broken", 1, lambda: {}["missing"], target=0, tolerance=0, bound=1)
        card.write()
        parsed = RewardFile.model_validate_json((card.output_dir / "reward.json").read_text())
        assert parsed.reward == 0.5
        assert parsed.subtasks[1].detail == "error: KeyError: 'missing'"

    def test_write_leaves_no_temp_files_and_is_world_readable(self, card: Scorecard) -> None:
        card.binary("ok", 1, True)
        card.write()
        card.write()  # rewriting replaces the file
        assert [p.name for p in card.output_dir.iterdir()] == ["reward.json"]
        assert (card.output_dir / "reward.json").stat().st_mode & 0o044 == 0o044

    def test_write_prints_the_scorecard(self, card: Scorecard, capsys: pytest.CaptureFixture[str]) -> None:
        fill_example(card)
        card.write()
        out = capsys.readouterr().out
        assert "rmse" in out and "stress_cases" in out
        assert f"reward = {card.reward:.4f}" in out
        assert "hidden 91%" in out

    def test_no_file_before_write(self, card: Scorecard) -> None:
        fill_example(card)
        assert not card.output_dir.exists()

    def test_output_dir_from_environment(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("LHTB_VERIFIER_OUTPUT_DIR", str(tmp_path / "from_env"))
        card = Scorecard()
        card.binary("ok", 1, True)
        card.write()
        assert (tmp_path / "from_env" / "reward.json").is_file()

    def test_default_output_dir(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("LHTB_VERIFIER_OUTPUT_DIR", raising=False)
        assert Scorecard().output_dir == Path("/logs/verifier")

    def test_explicit_dir_beats_environment(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("LHTB_VERIFIER_OUTPUT_DIR", "/nonexistent")
        assert Scorecard(os.fspath(tmp_path)).output_dir == tmp_path


def test_report_truncates_long_details(card: Scorecard) -> None:
    card.binary("a", 1, True, detail="word " * 100)
    table = format_scorecard(card.subtasks, card.reward)
    assert all(len(line) < 160 for line in table.splitlines())
    assert "..." in table
