"""AppTest checks of the Play page: bidding, play, summaries, the sidebar, undo, hint, reload."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from app_helpers import PAGE, button_keys, enabled, human_move, open_play, play_controller
from streamlit.testing.v1 import AppTest

from spades.app.play import READ_ONLY
from spades.app.seats import HUMAN_SEAT, player_names
from spades.app.table_view import finished_hands
from spades.bots.drive import play_match
from spades.engine.cards import BID_BASE, LOOK, card_str
from spades.engine.match import Match
from spades.engine.rules import NIL_PASSES, PRESETS, Preset, Rules, describe_options
from spades.engine.state import Phase
from spades.store import Store
from spades.ui.identity import STATE_KEY
from spades.ui.points import MINUS, points
from spades.ui.sidebar import CUSTOM
from spades.ui.table_html import scoresheet_rows

pytestmark = pytest.mark.apptest


def _pick(at: AppTest, rule_set: str) -> None:
    """Pick a preset, or Custom to draw the option widgets (``rule_<name>``)."""
    at.selectbox(key="preset").set_value(rule_set).run()
    assert not at.exception


def _rule_widget_keys(at: AppTest) -> set[str]:
    widgets = at.get("toggle") + at.get("number_input") + at.get("selectbox")
    return {key for w in widgets if (key := getattr(w, "key", None)) and key.startswith("rule_")}


def _to_first_card(at: AppTest) -> None:
    while play_controller(at).match.hand.phase is not Phase.PLAYING:
        human_move(at)


def test_bid_then_play_a_legal_card() -> None:
    at = open_play()
    if "look" in button_keys(at):
        at.button(key="look").click().run()
    bids = [k for k in enabled(at, "bid_") if k != "bid_blind_nil"]
    at.button(key=bids[0]).click().run()
    controller = play_controller(at)
    assert controller.match.hand.bids[HUMAN_SEAT] is not None
    cards = [b for b in at.button if b.key.startswith("card_")]
    assert len(cards) == 13
    playable = enabled(at, "card_")
    assert playable, "some card must be playable on our turn"
    at.button(key=playable[0]).click().run()
    assert not at.exception
    assert len([b for b in at.button if b.key.startswith("card_")]) == 12
    controller = play_controller(at)
    mine = [event.action for event in controller.match.events if event.seat == HUMAN_SEAT]
    assert "card_" + card_str(mine[-1]) == playable[0]


def test_exactly_the_legal_cards_are_enabled_and_the_others_say_why() -> None:
    at = open_play()
    _to_first_card(at)
    checked = 0
    while checked < 5 and not play_controller(at).match.is_over:
        controller = play_controller(at)
        hand = controller.match.hand
        if controller.human_to_act and hand.phase is Phase.PLAYING:
            legal = {"card_" + card_str(c) for c in hand.legal_actions()}
            assert set(enabled(at, "card_")) == legal
            for button in at.button:
                if button.key.startswith("card_") and button.disabled:
                    card = next(
                        c for c in hand.hand(HUMAN_SEAT) if "card_" + card_str(c) == button.key
                    )
                    reason = controller.why_not(card)
                    assert reason and reason in (button.help or "")
            checked += 1
        if "next_hand" in button_keys(at):
            at.button(key="next_hand").click().run()
        else:
            human_move(at)
    assert checked == 5


def test_only_legal_bids_are_enabled_under_a_minimum_team_bid() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    at.number_input(key="rule_min_team_bid").set_value(6)
    at.button(key="new_game").click().run()
    controller = play_controller(at)
    while not controller.human_to_act or controller.match.hand.phase is not Phase.BIDDING:
        human_move(at)
        controller = play_controller(at)
    if "look" in enabled(at, "look"):
        at.button(key="look").click().run()
    hand = play_controller(at).match.hand
    legal = set(hand.legal_actions())
    for n in range(14):
        key = "bid_nil" if n == 0 else f"bid_{n}"
        assert at.button(key=key).disabled == (BID_BASE + n not in legal)


def test_a_whole_hand_ends_in_the_summary_then_the_next_hand() -> None:
    at = open_play()
    # Without the mercy score no single hand can end the match.
    _pick(at, CUSTOM)
    at.toggle(key="rule_mercy_score_on").set_value(False)
    at.button(key="new_game").click().run()
    while "next_hand" not in button_keys(at):
        human_move(at)
    controller = play_controller(at)
    result = controller.match.results[0]
    text = " ".join(m.value for m in at.markdown)
    for team in result.teams:
        for line in team.lines:
            assert line.text in text
    assert points(result.teams[0].points, sign=True) in text
    at.button(key="next_hand").click().run()
    assert "next_hand" not in button_keys(at)
    assert play_controller(at).match.hand_number == 2
    assert at.dataframe, "the scoresheet lists the finished hand"


def test_a_whole_match_reaches_the_end_screen_and_a_rematch(database: str) -> None:
    at = open_play()
    _pick(at, CUSTOM)
    at.number_input(key="rule_target_score").set_value(150)
    at.button(key="new_game").click().run()
    for _ in range(2000):
        if play_controller(at).match.is_over:
            break
        if "next_hand" in button_keys(at):
            at.button(key="next_hand").click().run()
        else:
            human_move(at)
    controller = play_controller(at)
    assert controller.match.is_over
    # Even at the instant pace the match's last trick lies on the table, its winner marked,
    # for its moment before the end screen.
    last = controller.match.finished[-1].tricks[-1]
    assert controller.hold and not at.header  # no end screen yet
    trick = "".join(h.proto.body for h in at.get("html") if 'data-winner="true"' in h.proto.body)
    for seat, card in last.plays():
        assert f'data-card="{card_str(card)}" data-seat="{"NESW"[seat]}"' in trick
    controller.clock = lambda: math.inf  # the moment has passed
    at.run()
    assert not controller.hold
    assert at.header and ("win" in at.header[0].value or "shared" in at.header[0].value)
    assert "new_game" in button_keys(at)
    assert not enabled(at, "card_")
    # The winners' celebration rises once; a rematch keeps the bots and the house rules.
    assert bool(at.get("balloons")) == controller.human_won
    at.run()
    assert not at.get("balloons"), "once a match"
    at.button(key="rematch").click().run()
    again = play_controller(at)
    assert again is not controller and again.game_id != controller.game_id
    assert again.rules == controller.rules and again.rules.target_score == 150
    assert again.bot_levels == controller.bot_levels
    assert again.match.hand_number == 1 and not again.match.is_over
    info = Store(database).game_info(controller.game_id or "")
    assert info.status == "finished"
    assert info.hands_count == len(controller.match.finished)


def _non_default(name: str) -> dict[str, Any]:
    """A valid non-default setting for option ``name`` (with what it needs)."""
    values: dict[str, Any] = {
        "target_score": 300,
        "mercy_score": -500,
        "tie_policy": "draw",
        "nil_allowed": False,
        "blind_nil": False,
        "blind_nil_deficit": 50,
        "blind_nil_exchange": True,
        "nil_pass": 2,
        "nil_tricks_count_toward_bid": True,
        "min_team_bid": 4,
        "whiz": True,
        "suicide": True,
        "mirror": True,
        "ten_for_two_hundred": True,
        "boston_bonus": 100,
        "bag_limit": 5,
        "bag_penalty": 50,
        "jokers": True,
        "joker_ranking": "deuces",
        "no_spades_first_trick": True,
        "spades_lead_any_time": True,
    }
    change = {name: values[name]}
    if name in ("nil_allowed", "mirror"):
        change["blind_nil"] = False
    if name == "joker_ranking":
        change["jokers"] = True
    return change


@pytest.mark.parametrize("name", [option[0] for option in describe_options()])
def test_each_sidebar_rule_reaches_the_engine(name: str, database: str) -> None:
    at = open_play()
    _pick(at, CUSTOM)
    change = _non_default(name)
    for field, value in change.items():
        widget = at.get("toggle") + at.get("number_input") + at.get("selectbox")
        found = [w for w in widget if getattr(w, "key", None) == f"rule_{field}"]
        assert found, f"no sidebar widget for {field}"
        found[0].set_value(value)
    at.button(key="new_game").click().run()
    assert not at.exception
    human_move(at)
    controller = play_controller(at)
    assert controller.match.rules == Rules(**change)
    stored = Store(database).load(controller.game_id or "")
    assert stored.match.rules == Rules(**change)


def test_the_nil_pass_is_picked_from_its_list_of_sizes() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    size = at.selectbox(key="rule_nil_pass")
    assert list(size.options) == [str(count) for count in NIL_PASSES]
    size.set_value(4)
    at.button(key="new_game").click().run()
    assert play_controller(at).match.rules.nil_pass == 4


def test_the_mercy_score_can_be_turned_off() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    at.toggle(key="rule_mercy_score_on").set_value(False)
    at.button(key="new_game").click().run()
    assert play_controller(at).match.rules.mercy_score is None


def test_contradictory_rules_are_refused_with_the_reason() -> None:
    at = open_play()
    before = play_controller(at)
    _pick(at, CUSTOM)
    at.toggle(key="rule_whiz").set_value(True)
    at.toggle(key="rule_suicide").set_value(True).run()
    assert any("suicide" in e.value for e in at.sidebar.error)
    at.button(key="new_game").click().run()
    assert play_controller(at) is before
    assert any("house rules" in w.value for w in at.error)


def test_bot_levels_name_and_undo_setting_reach_the_next_game(database: str) -> None:
    at = open_play()
    at.selectbox(key="bot_E").set_value("basic")
    at.text_input(key="player_name").set_value("Ada")
    at.toggle(key="allow_undo").set_value(False)
    at.button(key="new_game").click().run()
    human_move(at)
    controller = play_controller(at)
    assert controller.bot_levels == {0: "random", 1: "basic", 3: "random"}
    assert controller.players[HUMAN_SEAT] == "Ada"
    assert "undo" not in button_keys(at)
    info = Store(database).game_info(controller.game_id or "")
    assert (info.level_e, info.player_s, info.undo_allowed) == ("basic", "Ada", False)


def test_undo_takes_back_the_last_card_and_marks_the_game(database: str) -> None:
    at = open_play()
    _to_first_card(at)
    before = list(play_controller(at).match.history)
    at.button(key=enabled(at, "card_")[0]).click().run()
    assert not at.button(key="undo").disabled
    at.button(key="undo").click().run()
    controller = play_controller(at)
    assert controller.match.history == before
    assert "undo used" in " ".join(c.value for c in at.caption)
    assert Store(database).game_info(controller.game_id or "").undo_used


def test_hint_names_a_legal_action_with_its_reason() -> None:
    at = open_play()
    _to_first_card(at)
    at.button(key="hint").click().run()
    controller = play_controller(at)
    hint = controller.current_hint()
    assert hint is not None and hint.action in controller.match.hand.legal_actions()
    (shown,) = (i.value for i in at.info)
    # The suggestion is said once, at the start of its reason.
    assert shown.replace("\\", "") == hint.reason


def test_reload_by_id_resumes_the_same_position() -> None:
    at = open_play()
    _to_first_card(at)
    at.button(key=enabled(at, "card_")[0]).click().run()
    first = play_controller(at)
    game_id = at.query_params["game"]
    assert game_id == first.game_id
    again = open_play(query={"game": game_id}, same_player_as=at)
    resumed = play_controller(again)
    assert resumed.game_id == game_id
    assert resumed.match.history == first.match.history
    assert sorted(enabled(again, "card_")) == sorted(enabled(at, "card_"))
    human_move(again)
    assert len(play_controller(again).match.history) > len(first.match.history)


@pytest.mark.parametrize(
    "value", ["'; drop table games; --", "[x](https://a.example)", "a" * 100_000]
)
def test_a_tampered_game_id_starts_a_new_game_without_echoing_it(value: str) -> None:
    at = open_play(query={"game": value})
    controller = play_controller(at)
    assert controller.game_id is None, "nothing is stored before the player moves"
    assert any("does not name a game" in w.value for w in at.warning)
    assert not any(value[:20] in w.value for w in at.warning)
    human_move(at)
    assert at.query_params["game"] == play_controller(at).game_id


def test_another_browser_may_watch_a_game_in_play_but_not_play_it(database: str) -> None:
    owner = open_play()
    _to_first_card(owner)
    game_id = owner.query_params["game"]
    stranger = open_play(query={"game": game_id})
    watching = play_controller(stranger)
    assert watching.read_only and watching.game_id == game_id
    assert not [b for b in stranger.button if b.key.startswith(("card_", "bid_"))]
    assert any("watching" in m.value for m in stranger.markdown)
    human_move(owner)
    stranger.run()
    assert play_controller(stranger).match.history == play_controller(owner).match.history
    assert Store(database).load(game_id).match.history == play_controller(owner).match.history
    assert play_controller(stranger).why_not(0) == READ_ONLY


def test_blind_nil_is_offered_before_the_cards_when_the_rules_allow_it() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    at.number_input(key="rule_blind_nil_deficit").set_value(0)
    at.button(key="new_game").click().run()
    assert play_controller(at).human_to_act
    assert not enabled(at, "card_") and not [b for b in at.button if b.key.startswith("card_")]
    assert "bid_blind_nil" in enabled(at, "bid_")
    at.button(key="look").click().run()
    assert "bid_blind_nil" not in button_keys(at)
    assert len([b for b in at.button if b.key.startswith("card_")]) == 13
    assert LOOK in play_controller(at).match.hand.history


def test_without_blind_nil_the_cards_show_at_once() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    at.toggle(key="rule_blind_nil").set_value(False)
    at.button(key="new_game").click().run()
    assert "bid_blind_nil" not in button_keys(at)
    assert len([b for b in at.button if b.key.startswith("card_")]) == 13


def test_the_last_trick_view_shows_the_previous_trick() -> None:
    at = open_play()
    _to_first_card(at)
    at.button(key=enabled(at, "card_")[0]).click().run()
    while not play_controller(at).match.hand.tricks:
        human_move(at)
    at.button(key="last_trick").click().run()
    winner = play_controller(at).players[play_controller(at).match.hand.tricks[-1].winner]
    assert any(f"won by {winner}" in c.value for c in at.caption)


def test_a_simulated_game_id_is_not_taken_over(database: str) -> None:
    store = Store(database)
    match = play_match(Rules(), 3, ["random"] * 4, max_hands=1)
    levels = {seat: "random" for seat in range(4)}
    game_id = store.save_match(
        match, players=("N", "E", "S", "W"), kind="simulated", bot_levels=levels
    )
    at = open_play(query={"game": game_id})
    assert play_controller(at).game_id != game_id
    assert any("played by bots only" in w.value for w in at.warning)


def test_a_stale_window_reopens_the_game_instead_of_forking_it(database: str) -> None:
    first = open_play()
    _to_first_card(first)
    game_id = first.query_params["game"]
    second = open_play(query={"game": game_id}, same_player_as=first)
    first.button(key=enabled(first, "card_")[0]).click().run()
    second.button(key=enabled(second, "card_")[0]).click().run()
    assert not second.exception
    assert play_controller(second).match.history == play_controller(first).match.history
    assert any("another window" in i.value for i in second.info)
    assert Store(database).load(game_id).match.history == play_controller(first).match.history


def test_the_bots_bid_one_at_a_time_at_a_paced_speed() -> None:
    at = open_play(speed="normal")
    controller = play_controller(at)
    controller.clock = lambda: 0.0  # time stands still unless the test moves the beat
    bot_bids = 0
    while controller.match.hand.phase is Phase.BIDDING:
        if controller.human_to_act:
            human_move(at)
            continue
        before = controller.ply
        at.run()
        assert controller.ply == before, "no bot moves before its beat"
        controller.ready_at = 0.0  # the beat has come, as the fragment's timer says
        at.run()
        assert controller.ply == before + 1
        bot_bids += 1
    # At most one bot bid in the first run of the page; the others came a beat apart.
    assert bot_bids >= 2


ROUTER = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (b"SQLite format 3\x00" + b"\x07" * 4000, "damaged"),
        (b"not a database at all " * 200, "damaged"),
        (b"", "empty"),
    ],
    ids=["damaged", "foreign", "empty"],
)
def test_a_broken_database_shows_a_plain_message_and_is_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: bytes, said: str
) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(fault)
    monkeypatch.setenv("SPADES_DB_URL", f"sqlite:///{broken}")
    at = AppTest.from_file(ROUTER, default_timeout=30)
    at.run()
    assert not at.exception
    shown = " ".join(e.value for e in at.error)
    assert said in shown and "Nothing" in shown
    for leak in (str(tmp_path), "broken.db", "sqlite", "SELECT", "Traceback"):
        assert leak not in shown
    assert "store_fault_retry" in button_keys(at)
    assert broken.read_bytes() == fault


def test_a_visit_without_a_move_stores_nothing(database: str) -> None:
    at = open_play()
    at.run()
    assert not Store(database).list_games()
    assert "game" not in at.query_params
    human_move(at)
    assert len(Store(database).list_games()) == 1


def test_new_game_asks_before_giving_up_a_game_in_progress(database: str) -> None:
    at = open_play()
    human_move(at)
    playing = play_controller(at)
    at.button(key="new_game").click().run()
    assert {"confirm_new_game", "keep_playing"} <= button_keys(at)
    assert play_controller(at) is playing
    at.button(key="keep_playing").click().run()
    assert "confirm_new_game" not in button_keys(at)
    assert play_controller(at) is playing
    at.button(key="new_game").click().run()
    at.button(key="confirm_new_game").click().run()
    assert play_controller(at) is not playing and play_controller(at).game_id is None
    info = Store(database).game_info(playing.game_id or "")
    assert info.status == "abandoned"
    assert info.actions_count == len(playing.match.history)


def test_a_new_game_before_any_move_is_not_asked_about() -> None:
    at = open_play()
    before = play_controller(at)
    at.button(key="new_game").click().run()
    assert "confirm_new_game" not in button_keys(at)
    assert play_controller(at) is not before


def test_the_players_unfinished_game_is_offered_on_their_next_visit(database: str) -> None:
    first = open_play()
    human_move(first)
    game_id = play_controller(first).game_id
    again = AppTest.from_file(PAGE, default_timeout=30)
    again.session_state[STATE_KEY] = first.session_state[STATE_KEY]
    again.run()
    assert play_controller(again).game_id is None
    again.button(key="continue_game").click().run()
    assert play_controller(again).game_id == game_id
    assert not play_controller(again).read_only
    assert "continue_game" not in button_keys(again)
    stranger = AppTest.from_file(PAGE, default_timeout=30)
    stranger.run()
    assert "continue_game" not in button_keys(stranger)


def test_rules_that_wait_for_the_next_game_offer_to_start_it() -> None:
    at = open_play()
    assert "new_game_with_rules" not in button_keys(at)
    _pick(at, "Casual")
    assert any("start with the next game" in c.value for c in at.sidebar.caption)
    at.button(key="new_game_with_rules").click().run()
    assert play_controller(at).rules == Rules(blind_nil=False, bag_limit=None)
    assert "new_game_with_rules" not in button_keys(at)
    _pick(at, CUSTOM)
    assert "new_game_with_rules" not in button_keys(at), "Custom starts from the game's own rules"
    at.toggle(key="rule_blind_nil").set_value(True).run()
    assert any("start with the next game" in c.value for c in at.sidebar.caption)
    at.button(key="new_game_with_rules").click().run()
    assert play_controller(at).rules == Rules(bag_limit=None)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.name)
def test_a_preset_reaches_the_engine(preset: Preset, database: str) -> None:
    at = open_play()
    _pick(at, preset.name)
    assert preset.description in " ".join(c.value for c in at.sidebar.caption)
    assert not _rule_widget_keys(at), "a preset's options are read-only text"
    at.button(key="new_game").click().run()
    assert not at.exception
    human_move(at)
    controller = play_controller(at)
    assert controller.rules == preset.rules
    assert Store(database).load(controller.game_id or "").match.rules == preset.rules
    assert at.selectbox(key="preset").value == preset.name


def test_custom_starts_from_the_preset_picked_before_and_reaches_the_engine() -> None:
    at = open_play()
    _pick(at, "Jokers")
    _pick(at, CUSTOM)
    assert at.toggle(key="rule_jokers").value is True
    assert at.number_input(key="rule_target_score").value == 500
    at.number_input(key="rule_target_score").set_value(300).run()
    assert at.selectbox(key="preset").value == CUSTOM
    at.button(key="new_game").click().run()
    assert play_controller(at).rules == Rules(jokers=True, target_score=300)


def test_a_preset_picked_after_custom_replaces_the_custom_options() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    at.number_input(key="rule_target_score").set_value(300).run()
    _pick(at, "Whiz")
    assert not _rule_widget_keys(at)
    at.button(key="new_game").click().run()
    assert play_controller(at).rules == Rules(whiz=True)
    _pick(at, CUSTOM)
    assert at.toggle(key="rule_whiz").value is True
    assert at.number_input(key="rule_target_score").value == 500


def test_the_tie_rule_reads_in_plain_words() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    tie = at.selectbox(key="rule_tie_policy")
    assert tie.options == ["play another hand", "share the game"]


def test_the_joker_rankings_read_as_the_trumps_from_the_top() -> None:
    at = open_play()
    _pick(at, CUSTOM)
    ranking = at.selectbox(key="rule_joker_ranking")
    assert ranking.options == [
        "Big Joker, Little Joker, A♠; jokers for the 2♣ and 2♦",
        "Big Joker, Little Joker, 2♦, 2♠, A♠; jokers for the 2♣ and 2♥",
        "Big Joker, Little Joker, A♠; jokers for the 2♣ and 2♥",
    ]


def test_scores_and_points_are_printed_with_one_minus_sign() -> None:
    """The scoresheet, the summaries and the panels print −100, never -100."""
    match = Match(Rules(), seed=4)
    while not any(side.points < 0 for hand in match.results for side in hand.sides):
        match.apply(match.legal_actions()[0])
    rows = scoresheet_rows(finished_hands(match), player_names(match.rules, "Ada"), HUMAN_SEAT)
    printed = [str(value) for row in rows for value in row.values()]
    assert any(value.startswith(MINUS) for value in printed)
    assert not any("-" in value for value in printed)
