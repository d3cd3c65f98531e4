"""parse_reward_dir: the lhtb.reward/1 schema, Harbor's flat reward.json and reward.txt, bad inputs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lhtb.errors import ErrorClass, VerifierError
from lhtb.grading import Scorecard
from lhtb.results.models import weighted_reward
from lhtb.verifier.reward import MAX_REWARD_FILE_BYTES, ParsedReward, parse_reward_dir


def lhtb_document(**overrides: object) -> dict:
    document: dict = {
        "schema": "lhtb.reward/1",
        "reward": 0.75,
        "subtasks": [
            {"name": "public", "weight": 1, "score": 1.0, "kind": "binary", "visibility": "public"},
            {"name": "hidden", "weight": 3, "score": 2 / 3, "kind": "fraction", "visibility": "hidden"},
        ],
    }
    document.update(overrides)
    return document


def write_json(directory: Path, document: object) -> Path:
    path = directory / "reward.json"
    path.write_text(json.dumps(document))
    return path


def expect_error(directory: Path, *fragments: str) -> VerifierError:
    with pytest.raises(VerifierError) as caught:
        parse_reward_dir(directory)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert caught.value.error_class is ErrorClass.VERIFIER_ERROR
    return caught.value


class TestLhtbSchema:
    def test_valid_file(self, tmp_path: Path) -> None:
        write_json(tmp_path, lhtb_document(metadata={"seed": 3}))
        parsed = parse_reward_dir(tmp_path)
        assert isinstance(parsed, ParsedReward)
        assert parsed.source == "lhtb.reward/1"
        assert parsed.reward == 0.75
        assert [(s.name, s.weight, s.visibility) for s in parsed.subtasks] == [
            ("public", 1.0, "public"),
            ("hidden", 3.0, "hidden"),
        ]

    def test_file_written_by_the_sdk(self, tmp_path: Path) -> None:
        card = Scorecard(tmp_path)
        card.binary("exists", 1, True, visibility="public")
        card.banded("speedup", 3, 3.0, bands=[(1, 0), (2, 0.5), (4, 1)])
        card.fraction("hidden_cases", 4, lambda: [True, False])
        reward = card.write()
        parsed = parse_reward_dir(tmp_path)
        assert parsed.reward == reward
        assert [s.name for s in parsed.subtasks] == ["exists", "speedup", "hidden_cases"]

    def test_result_is_frozen(self, tmp_path: Path) -> None:
        write_json(tmp_path, lhtb_document())
        parsed = parse_reward_dir(tmp_path)
        with pytest.raises(AttributeError):
            parsed.reward = 1.0  # type: ignore[misc]

    def test_score_out_of_range_names_the_field(self, tmp_path: Path) -> None:
        document = lhtb_document()
        document["subtasks"].append({"name": "third", "weight": 1, "score": 1.3})
        write_json(tmp_path, document)
        expect_error(tmp_path, "reward.json: subtasks.2.score: score must be in [0, 1], got 1.3")

    def test_reward_mismatch(self, tmp_path: Path) -> None:
        write_json(tmp_path, lhtb_document(reward=0.9))
        expect_error(tmp_path, "reward.json", "does not equal sum(w*s)/sum(w)")

    def test_duplicate_names(self, tmp_path: Path) -> None:
        document = lhtb_document()
        document["subtasks"][1]["name"] = "public"
        write_json(tmp_path, document)
        expect_error(tmp_path, "duplicate subtask names: public")

    @pytest.mark.parametrize(
        ("field", "value", "fragment"),
        [
            ("weight", -1, "subtasks.0.weight: weight must be >= 0"),
            ("weight", "1", "subtasks.0.weight: Input should be a valid number"),
            ("score", True, "subtasks.0.score: Input should be a valid number"),
            ("score", None, "subtasks.0.score"),
            ("kind", "vibes", "subtasks.0.kind"),
            ("visibility", "secret", "subtasks.0.visibility"),
            ("surprise", 1, "subtasks.0.surprise: Extra inputs are not permitted"),
        ],
    )
    def test_bad_subtask_fields(self, tmp_path: Path, field: str, value: object, fragment: str) -> None:
        document = lhtb_document()
        document["subtasks"][0][field] = value
        write_json(tmp_path, document)
        expect_error(tmp_path, "reward.json: ", fragment)

    def test_nan_score(self, tmp_path: Path) -> None:
        text = json.dumps(lhtb_document()).replace('"score": 1.0', '"score": NaN')
        (tmp_path / "reward.json").write_text(text)
        expect_error(tmp_path, "subtasks.0.score: score must be a finite number")

    def test_all_zero_weights(self, tmp_path: Path) -> None:
        document = lhtb_document(reward=0.0)
        for subtask in document["subtasks"]:
            subtask["weight"] = 0
        write_json(tmp_path, document)
        expect_error(tmp_path, "weights sum to 0")

    def test_no_subtasks(self, tmp_path: Path) -> None:
        write_json(tmp_path, lhtb_document(subtasks=[]))
        expect_error(tmp_path, "reward.json: subtasks")

    def test_missing_reward(self, tmp_path: Path) -> None:
        document = lhtb_document()
        del document["reward"]
        write_json(tmp_path, document)
        expect_error(tmp_path, "reward.json: reward: Field required")

    @pytest.mark.parametrize("schema", ["lhtb.reward/2", "", None, 1])
    def test_schema_mismatch(self, tmp_path: Path, schema: object) -> None:
        write_json(tmp_path, lhtb_document(schema=schema))
        expect_error(tmp_path, "reward.json: unsupported schema", "expected 'lhtb.reward/1'")


class TestHarborJson:
    def test_flat_reward(self, tmp_path: Path) -> None:
        write_json(tmp_path, {"reward": 0.4})
        parsed = parse_reward_dir(tmp_path)
        assert parsed.source == "harbor-json"
        assert parsed.reward == 0.4
        [subtask] = parsed.subtasks
        assert (subtask.name, subtask.weight, subtask.score) == ("reward", 1.0, 0.4)
        assert (subtask.kind, subtask.visibility) == ("continuous", "hidden")

    @pytest.mark.parametrize("reward", [0, 1])
    def test_integer_rewards(self, tmp_path: Path, reward: int) -> None:
        write_json(tmp_path, {"reward": reward})
        assert parse_reward_dir(tmp_path).reward == float(reward)

    def test_other_keys_beside_reward_are_kept_not_counted(self, tmp_path: Path) -> None:
        write_json(tmp_path, {"reward": 1.0, "accuracy": 0.5, "n_tests": 12})
        parsed = parse_reward_dir(tmp_path)
        assert parsed.reward == 1.0
        kept = {s.name: (s.weight, s.score) for s in parsed.subtasks}
        assert kept == {"reward": (1.0, 1.0), "accuracy": (0.0, 0.5)}  # a count is not a reward: noted instead
        assert "n_tests = 12" in parsed.subtasks[0].detail
        assert weighted_reward(parsed.subtasks) == parsed.reward

    def test_several_rewards_without_reward_key_average(self, tmp_path: Path) -> None:
        """Harbor's multi-key form: every key kept; the headline is their mean (each weight 1)."""
        write_json(tmp_path, {"correctness": 1.0, "style": 0.5, "speed": 0})
        parsed = parse_reward_dir(tmp_path)
        assert parsed.reward == pytest.approx(0.5)
        assert [(s.name, s.weight, s.score) for s in parsed.subtasks] == [
            ("correctness", 1.0, 1.0),
            ("style", 1.0, 0.5),
            ("speed", 1.0, 0.0),
        ]
        assert weighted_reward(parsed.subtasks) == pytest.approx(parsed.reward)

    @pytest.mark.parametrize(
        ("document", "fragment"),
        [
            ({"reward": 1.3}, "reward.json: reward must be in [0, 1], got 1.3"),
            ({"reward": -0.1}, "reward must be in [0, 1]"),
            ({"reward": True}, "reward.json: reward must be a number, got boolean"),
            ({"reward": "1"}, "reward must be a number, got string"),
            ({"reward": None}, "reward must be a number, got null"),
            ({"reward": [1]}, "reward must be a number, got array"),
            ({"reward": 10**400}, "reward must be finite, got an integer of 401 digits"),
            ({"reward": 1, "n": float("inf")}, "key 'n' must be finite"),
            ({"score": 1.5}, "key 'score' must be in [0, 1], got 1.5"),
            ({"a": 1, "b": "x"}, "key 'b' must be a number"),
            ({"reward": 1, "subtasks": []}, "key 'subtasks' must be a number"),
            ({"reward": 1, "passed": True}, "key 'passed' must be a number"),
            ({}, "reward.json: an empty object"),
        ],
    )
    def test_bad_flat_documents(self, tmp_path: Path, document: dict, fragment: str) -> None:
        write_json(tmp_path, document)
        expect_error(tmp_path, fragment)

    @pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
    def test_non_finite_flat_reward(self, tmp_path: Path, literal: str) -> None:
        (tmp_path / "reward.json").write_text(f'{{"reward": {literal}}}')
        expect_error(tmp_path, "reward.json: reward must be finite")


class TestMalformedJson:
    @pytest.mark.parametrize(
        ("text", "fragment"),
        [
            ("", "reward.json: file is empty"),
            ("  \n\t", "reward.json: file is empty"),
            ("{reward: 1}", "reward.json: invalid JSON"),
            ('{"reward": 1', "reward.json: invalid JSON"),
            ("[0.5]", "reward.json: expected a JSON object, got array"),
            ("0.5", "reward.json: expected a JSON object, got number"),
            ('"0.5"', "expected a JSON object, got string"),
            ("[" * 100_000 + "]" * 100_000, "reward.json: invalid JSON"),
        ],
    )
    def test_bad_text(self, tmp_path: Path, text: str, fragment: str) -> None:
        (tmp_path / "reward.json").write_text(text)
        expect_error(tmp_path, fragment)

    def test_not_utf8(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").write_bytes(b'{"reward": 1, "x": "\xff"}')
        expect_error(tmp_path, "reward.json: not UTF-8")

    def test_utf8_bom_is_accepted(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").write_bytes(b'\xef\xbb\xbf{"reward": 0.5}')
        assert parse_reward_dir(tmp_path).reward == 0.5

    def test_huge_file_is_refused(self, tmp_path: Path) -> None:
        padding = " " * MAX_REWARD_FILE_BYTES
        (tmp_path / "reward.json").write_text('{"reward": 1}' + padding)
        expect_error(tmp_path, "reward.json: larger than the 5 MB limit")

    def test_file_just_under_the_limit_is_read(self, tmp_path: Path) -> None:
        body = '{"reward": 1}'
        (tmp_path / "reward.json").write_text(body + " " * (MAX_REWARD_FILE_BYTES - len(body)))
        assert parse_reward_dir(tmp_path).reward == 1.0

    def test_directory_instead_of_file(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").mkdir()
        expect_error(tmp_path, "reward.json: is not a regular file")

    def test_symlink_is_refused(self, tmp_path: Path) -> None:
        target = tmp_path / "elsewhere.json"
        target.write_text('{"reward": 1}')
        (tmp_path / "reward.json").symlink_to(target)
        expect_error(tmp_path, "reward.json: is a symlink")

    def test_dangling_symlink_is_refused_not_skipped(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").symlink_to(tmp_path / "missing.json")
        (tmp_path / "reward.txt").write_text("1")
        expect_error(tmp_path, "reward.json: is a symlink")

    @pytest.mark.skipif(os.geteuid() == 0, reason="root reads files regardless of permissions")
    def test_unreadable_file(self, tmp_path: Path) -> None:
        path = write_json(tmp_path, {"reward": 1})
        path.chmod(0)
        expect_error(tmp_path, "reward.json: cannot be read")


class TestHarborTxt:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [("1", 1.0), ("0", 0.0), ("0.25\n", 0.25), (" .5 ", 0.5), ("1e-1", 0.1), ("+1.0", 1.0), ("1.", 1.0)],
    )
    def test_single_number(self, tmp_path: Path, text: str, expected: float) -> None:
        (tmp_path / "reward.txt").write_text(text)
        parsed = parse_reward_dir(tmp_path)
        assert parsed.source == "harbor-txt"
        assert parsed.reward == expected
        [subtask] = parsed.subtasks
        assert (subtask.name, subtask.weight, subtask.kind, subtask.visibility) == (
            "reward",
            1.0,
            "continuous",
            "hidden",
        )

    @pytest.mark.parametrize(
        ("text", "fragment"),
        [
            ("", "reward.txt: file is empty"),
            ("\n\n", "reward.txt: file is empty"),
            ("nan", "reward.txt: expected a single finite number in [0, 1], got 'nan'"),
            ("inf", "expected a single finite number"),
            ("-Infinity", "expected a single finite number"),
            ("true", "expected a single finite number"),
            ("1_0", "expected a single finite number"),
            ("0.5 0.5", "expected a single finite number"),
            ("0.5\n1", "expected a single finite number"),
            ("reward: 1", "expected a single finite number"),
            ("1.5", "reward.txt: reward must be in [0, 1], got 1.5"),
            ("-0.01", "reward must be in [0, 1]"),
            ("1e400", "reward.txt: reward must be finite"),
        ],
    )
    def test_bad_text(self, tmp_path: Path, text: str, fragment: str) -> None:
        (tmp_path / "reward.txt").write_text(text)
        expect_error(tmp_path, fragment)

    def test_long_garbage_is_shortened_in_the_message(self, tmp_path: Path) -> None:
        (tmp_path / "reward.txt").write_text("x" * 10_000)
        error = expect_error(tmp_path, "reward.txt: expected a single finite number")
        assert len(str(error)) < 200


class TestPrecedence:
    def test_missing_files(self, tmp_path: Path) -> None:
        expect_error(tmp_path, str(tmp_path), "neither reward.json nor reward.txt")

    def test_missing_directory(self, tmp_path: Path) -> None:
        expect_error(tmp_path / "never_created", "neither reward.json nor reward.txt")

    def test_reward_json_wins_over_reward_txt(self, tmp_path: Path) -> None:
        write_json(tmp_path, {"reward": 0.25})
        (tmp_path / "reward.txt").write_text("1")
        parsed = parse_reward_dir(tmp_path)
        assert (parsed.reward, parsed.source) == (0.25, "harbor-json")

    def test_bad_reward_json_is_not_rescued_by_reward_txt(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").write_text("")
        (tmp_path / "reward.txt").write_text("1")
        expect_error(tmp_path, "reward.json: file is empty")
