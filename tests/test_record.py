"""Game records: a match round-trips through JSON, and anything corrupt, truncated,
oversized or tampered is refused with a RecordError that says what and where."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from engine_helpers import random_rules
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine.cards import BLIND_NIL, CLAIM, NUM_ACTIONS
from spades.engine.match import Match
from spades.engine.record import (
    MAX_ACTIONS,
    MAX_BYTES,
    MAX_TEXT,
    GameRecord,
    RecordError,
    dumps,
    from_json_dict,
    loads,
    to_json_dict,
)
from spades.engine.rules import Rules


def random_match(seed: int, steps: int, rules: Rules | None = None) -> Match:
    rng = random.Random(seed)
    match = Match(rules or random_rules(rng), seed=seed)
    for _ in range(steps):
        if match.is_over:
            break
        hand = match.hand
        if hand.can_claim() and rng.random() < 0.5:
            match.apply(CLAIM)
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 400),
    names=st.lists(st.text(max_size=12), min_size=4, max_size=4),
    meta=st.dictionaries(st.text(max_size=8), st.text(max_size=20), max_size=4),
)
def test_record_round_trips_through_json(
    seed: int, steps: int, names: list[str], meta: dict[str, str]
) -> None:
    match = random_match(seed, steps)
    players = (names[0], names[1], names[2], names[3])
    record = GameRecord.of(match, players=players, meta=meta)
    text = dumps(record)
    loaded = loads(text)
    assert loaded.record == record
    assert loaded.match.history == match.history
    assert (loaded.match.scores, loaded.match.bags) == (match.scores, match.bags)
    assert len(loaded.match.finished) == len(match.finished)
    assert loaded.match.is_over == match.is_over
    assert loaded.match.winner == match.winner
    assert dumps(loaded.record) == text
    assert loads(text.encode()).record == record


def test_a_finished_match_round_trips() -> None:
    match = random_match(3, 10_000, Rules())
    assert match.is_over
    loaded = loads(dumps(GameRecord.of(match)))
    assert (loaded.match.winner, loaded.match.scores) == (match.winner, match.scores)


@pytest.mark.parametrize(
    "rules",
    [Rules(mirror=True, blind_nil=False), Rules(nil_pass=4, blind_nil=False)],
    ids=["mirror", "nil_pass"],
)
def test_the_house_variants_round_trip(rules: Rules) -> None:
    match = random_match(7, 400, rules)
    loaded = loads(dumps(GameRecord.of(match)))
    assert loaded.match.rules == rules
    assert loaded.match.history == match.history
    assert (loaded.match.scores, loaded.match.bags) == (match.scores, match.bags)


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    match = random_match(5, 80, Rules(jokers=True))
    assert len(match.finished) == 1 and not match.is_over
    return to_json_dict(GameRecord.of(match, meta={"note": "a game"}))


def refused(data: Any, where: str) -> str:
    with pytest.raises(RecordError) as err:
        if isinstance(data, (str, bytes)):
            loads(data)
        else:
            loads(json.dumps(data))
    message = str(err.value)
    assert message.startswith(where), message
    return message


def changed(good: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(good))
    change(data)
    return data


def test_the_fixture_record_itself_loads(good: dict[str, Any]) -> None:
    assert from_json_dict(good).match.history == good["actions"]


@pytest.mark.parametrize(
    "text", ["", "{", "{not json}", "[1, 2", "nul", '{"format": "spades-game",}', b"\xff\xfe"]
)
def test_corrupt_json_is_refused(text: str | bytes) -> None:
    refused(text, "record: not valid JSON")


def test_truncated_record_is_refused(good: dict[str, Any]) -> None:
    text = json.dumps(good)
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 1):
        refused(text[:cut], "record: not valid JSON")


def test_oversized_record_is_refused() -> None:
    refused(" " * (MAX_BYTES + 1), "record: larger than")
    refused(b" " * (MAX_BYTES + 1), "record: larger than")
    refused("é" * (MAX_BYTES // 2 + 1), "record: larger than")


#: Python's own words, which a refusal never repeats: a person reads the field named.
PYTHON_WORDS = ("recursion", "digits", "codec", "Expecting", "char ", "int_max_str_digits")


def _in_plain_words(message: str) -> None:
    assert not [word for word in PYTHON_WORDS if word in message], message


def test_deeply_nested_json_is_refused_in_plain_words() -> None:
    _in_plain_words(refused("[" * 200_000 + "]" * 200_000, "record: lists or objects nested"))


def test_a_number_too_long_to_read_is_refused_in_plain_words(good: dict[str, Any]) -> None:
    text = json.dumps(good).replace('"seed":', '"seed": 1' + "0" * 5000 + ', "x":', 1)
    _in_plain_words(refused(text, "record: a number far too long"))


def test_text_that_is_not_utf8_is_refused_in_plain_words() -> None:
    _in_plain_words(refused(b'{"format": "\xff"}', "record: not UTF-8 text"))


def test_bad_json_is_refused_with_where_it_went_wrong() -> None:
    said = refused('{"format": }', "record: not valid JSON")
    assert "line 1, column 12" in said
    _in_plain_words(said)


def test_a_record_that_is_not_an_object_is_refused() -> None:
    refused([], "record: expected dict, found list")


def test_wrong_format_is_refused(good: dict[str, Any]) -> None:
    refused(changed(good, lambda d: d.update(format="chess-game")), "format: expected")


@pytest.mark.parametrize("version", [0, 2, 99])
def test_wrong_version_is_refused(good: dict[str, Any], version: int) -> None:
    message = refused(changed(good, lambda d: d.update(version=version)), "version: ")
    assert f"not {version}" in message


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("version", "1", "version: expected int, found str"),
        ("version", True, "version: expected int, found bool"),
        ("seed", "5", "seed: expected int, found str"),
        ("seed", 1.5, "seed: expected int, found float"),
        ("seed", 2**64, "seed: out of range"),
        ("rules", [], "rules: expected dict, found list"),
        ("players", "NESW", "players: expected list, found str"),
        ("players", ["a", "b", "c"], "players: expected 4 names, found 3"),
        ("players", ["a", "b", 3, "d"], "players[2]: expected str, found int"),
        ("players", ["a", "x" * (MAX_TEXT + 1), "c", "d"], "players[1]: longer than"),
        ("meta", [], "meta: expected dict, found list"),
        ("meta", {"k": 5}, "meta['k']: expected str, found int"),
        ("meta", {str(i): "" for i in range(51)}, "meta: more than 50 entries"),
        ("actions", {}, "actions: expected list, found dict"),
        ("actions", [53, "54"], "actions[1]: expected int, found str"),
        ("actions", [53, None], "actions[1]: expected int, found NoneType"),
        ("actions", [53, True], "actions[1]: expected int, found bool"),
        ("actions", [NUM_ACTIONS], f"actions[0]: {NUM_ACTIONS} is not an action"),
        ("actions", [-1], "actions[0]: -1 is not an action"),
        ("summary", [], "summary: expected dict, found list"),
    ],
)
def test_wrong_types_and_sizes_are_refused_naming_where(
    good: dict[str, Any], field: str, value: Any, where: str
) -> None:
    refused(changed(good, lambda d: d.update({field: value})), where)


def test_too_many_actions_are_refused(good: dict[str, Any]) -> None:
    refused(changed(good, lambda d: d.update(actions=[52] * (MAX_ACTIONS + 1))), "actions: more")


@pytest.mark.parametrize(
    ("rules", "where"),
    [
        ({"target_score": "500"}, "rules.target_score: "),
        ({"target_score": 0}, "rules.target_score: "),
        ({"suicide": True, "whiz": True}, "rules.suicide: "),
        ({"house_special": 1}, "rules.house_special: not a rule option"),
    ],
)
def test_bad_rules_are_refused_naming_the_option(
    good: dict[str, Any], rules: dict[str, Any], where: str
) -> None:
    refused(changed(good, lambda d: d.update(rules=rules)), where)


@pytest.mark.parametrize("field", ["format", "version", "rules", "seed", "actions", "summary"])
def test_missing_fields_are_refused(good: dict[str, Any], field: str) -> None:
    refused(changed(good, lambda d: d.pop(field)), f"record: missing field '{field}'")


def test_unknown_fields_are_refused(good: dict[str, Any]) -> None:
    refused(changed(good, lambda d: d.update(cheat=True)), "record: unknown field 'cheat'")


def test_a_tampered_illegal_action_is_refused_with_its_place(good: dict[str, Any]) -> None:
    rules = Rules.from_dict(good["rules"])
    match = Match(rules, seed=good["seed"])
    index = 0
    while match.hand.phase.name != "PLAYING" or len(match.hand.trick) != 1:
        match.apply(good["actions"][index])
        index += 1
    seat = match.hand.current_player
    assert seat is not None
    bad = next(c for c in range(52) if c not in match.hand.hand(seat) and c not in match.hand.trick)
    label = match.hand.deck.label(bad)

    def tamper(d: dict[str, Any]) -> None:
        d["actions"][index] = bad

    message = refused(changed(good, tamper), f"actions[{index}] (hand 1, play {label}): ")
    assert message.endswith(f"You do not hold the {label}")


def test_a_tampered_bid_is_refused(good: dict[str, Any]) -> None:
    def tamper(d: dict[str, Any]) -> None:
        d["actions"][0] = BLIND_NIL

    refused(changed(good, tamper), "actions[0] (hand 1, bid blind nil): Blind nil needs")


def test_actions_after_the_end_of_the_match_are_refused() -> None:
    match = random_match(3, 10_000, Rules())
    data = to_json_dict(GameRecord.of(match))
    data["actions"].append(52)
    refused(data, f"actions[{len(match.history)}]: the match was already over")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("hands", 99),
        ("scores", [500, 0]),
        ("bags", [9, 9]),
        ("over", True),
        ("winner", 1),
    ],
)
def test_a_tampered_summary_is_refused(good: dict[str, Any], key: str, value: Any) -> None:
    message = refused(
        changed(good, lambda d: d["summary"].update({key: value})), f"summary.{key}: "
    )
    assert "replaying the actions gives" in message


@pytest.mark.parametrize(
    ("key", "value"),
    [("over", 0), ("hands", True), ("hands", 1.0), ("winner", "null"), ("scores", "floats")],
)
def test_a_summary_with_wrong_types_is_refused(good: dict[str, Any], key: str, value: Any) -> None:
    if value == "floats":
        value = [float(s) for s in good["summary"]["scores"]]
    elif value == "null":
        value = "None"
    assert type(value) is not type(good["summary"][key]) or key == "scores"

    def tamper(d: dict[str, Any]) -> None:
        d["summary"][key] = value

    refused(changed(good, tamper), f"summary.{key}: ")


def test_a_summary_with_an_unknown_or_missing_entry_is_refused(good: dict[str, Any]) -> None:
    refused(changed(good, lambda d: d["summary"].update(hints=3)), "summary: unknown entry")
    refused(changed(good, lambda d: d["summary"].pop("bags")), "summary.bags: ")
