"""AppTest checks of cutthroat on the Play page: the three- and four-seat tables, every
player's panel, bids up to 17, the per-player scoresheet and summary, the end of the match,
and a reload that resumes a three-handed game."""

from __future__ import annotations

import pytest
from app_helpers import bot_keys, button_keys, enabled, human_move, open_play, play_controller
from streamlit.testing.v1 import AppTest

from spades.app.play import GameController
from spades.app.prefs import TablePrefs
from spades.app.seats import HUMAN_SEAT, bot_seats
from spades.app.table_view import in_hand_order
from spades.engine.cards import bid_action, card_action, card_str
from spades.engine.rules import Rules
from spades.engine.state import Phase
from spades.store import Store
from spades.ui.cards import card_key
from spades.ui.points import points
from spades.ui.table_html import seat_views

THREE = "Cutthroat (3)"
FOUR = "Cutthroat (4)"

pytestmark = pytest.mark.apptest


def _app(
    rule_set: str, *, query: dict[str, str] | None = None, like: AppTest | None = None
) -> AppTest:
    """The Play page on a new game of ``rule_set`` played by Ada (or the game in ``query``,
    opened by the player of ``like``)."""
    return open_play(rule_set=rule_set, name="Ada", query=query, same_player_as=like)


def _table_html(at: AppTest) -> str:
    return "".join(
        h.proto.body for h in at.get("html") if h.proto.body.startswith('<div class="sp-table')
    )


def _panel_names(at: AppTest) -> list[str]:
    """The names heading the side panels and summaries ("Ada: bid 4 | won 2"), in order."""
    return [m.value.split(":")[0].strip("*") for m in at.markdown if " | won " in m.value]


def test_the_three_handed_table_seats_you_with_left_and_right() -> None:
    at = _app(THREE)
    controller = play_controller(at)
    assert controller.rules == Rules(players=3, partnerships=False)
    assert controller.players == ("Left", "Right", "Ada")
    assert sorted(bot_keys(at)) == ["bot_E", "bot_N"]
    labels = {box.key: box.label for box in at.selectbox if box.key in bot_keys(at)}
    assert labels == {"bot_N": "Left bot", "bot_E": "Right bot"}
    table = _table_html(at)
    assert "sp-north" not in table
    assert table.count('class="sp-seat') == 3
    for place, name in (("west", "Left"), ("east", "Right"), ("south", "Ada")):
        assert f'sp-{place}"' in table or f"sp-{place} " in table
        assert name in table
    # The player's own panel first, then the others in the order they play after them.
    assert _panel_names(at) == ["Ada", "Left", "Right"]


def test_three_players_bid_up_to_seventeen_with_seventeen_cards() -> None:
    at = _app(THREE)
    assert play_controller(at).match.hand.bids[HUMAN_SEAT] is None
    if "look" in enabled(at, "look"):
        at.button(key="look").click().run()
    assert len([b for b in at.button if b.key.startswith("card_")]) == 17
    bids = [b.key for b in at.button if b.key.startswith("bid_") and b.key != "bid_blind_nil"]
    assert bids == ["bid_nil", *(f"bid_{n}" for n in range(1, 18))]
    legal = set(play_controller(at).match.legal_actions())
    open_bids = set(enabled(at, "bid_")) - {"bid_blind_nil"}
    assert open_bids == {
        "bid_nil" if n == 0 else f"bid_{n}" for n in range(18) if bid_action(n) in legal
    }


def test_a_three_handed_hand_ends_in_a_summary_and_a_scoresheet_by_player() -> None:
    at = _app(THREE)
    for _ in range(200):
        if "next_hand" in button_keys(at):
            break
        human_move(at)
    assert "next_hand" in button_keys(at)
    controller = play_controller(at)
    (result,) = controller.match.results
    assert len(result.players) == 3 and not result.teams
    # The panels beside the table, then the summary's, one a player in seat order.
    assert _panel_names(at)[-3:] == ["Left", "Right", "Ada"]
    (sheet,) = (frame.value for frame in at.dataframe if "Hand" in frame.value.columns)
    assert list(sheet.columns[:2]) == ["Hand", "Dealer"]
    for name in ("Left", "Right", "Ada"):
        assert f"{name} score" in sheet.columns and f"{name} bags" in sheet.columns
    scores = dict(zip(("Left", "Right", "Ada"), controller.match.scores, strict=True))
    assert {name: sheet[f"{name} score"].iloc[-1] for name in scores} == {
        name: points(score) for name, score in scores.items()
    }
    at.button(key="next_hand").click().run()
    assert "next_hand" not in button_keys(at) and not at.exception


def test_the_four_handed_table_has_a_panel_for_every_player_and_no_partner() -> None:
    at = _app(FOUR)
    controller = play_controller(at)
    assert controller.rules == Rules(players=4, partnerships=False)
    assert sorted(bot_keys(at)) == ["bot_E", "bot_N", "bot_W"]
    assert all("partner" not in (box.help or "") for box in at.selectbox if box.key in bot_keys(at))
    assert _panel_names(at) == ["Ada", "West", "North", "East"]
    assert _table_html(at).count('class="sp-seat') == 4


def test_a_three_handed_match_ends_with_its_winner_named(database: str) -> None:
    at = _app(THREE)
    at.selectbox(key="preset").set_value("Custom").run()
    at.number_input(key="rule_target_score").set_value(100)
    at.button(key="new_game").click().run()
    for _ in range(3000):
        controller = play_controller(at)
        if controller.match.is_over:
            break
        if "next_hand" in button_keys(at):
            at.button(key="next_hand").click().run()
        else:
            human_move(at)
    controller = play_controller(at)
    assert controller.match.is_over and controller.rules.players == 3
    controller.clock = lambda: float("inf")
    at.run()
    winner = controller.match.winner
    heading = at.header[0].value
    if winner is None:
        assert heading == "A shared game"
    elif winner == HUMAN_SEAT:
        assert "You win" in heading
    else:
        assert heading.startswith(controller.players[winner])
    assert "seat " not in at.markdown[0].value
    info = Store(database).game_info(controller.game_id or "")
    assert info.status == "finished"


def test_a_reload_resumes_a_three_handed_game() -> None:
    at = _app(THREE)
    while play_controller(at).match.hand.phase is not Phase.PLAYING:
        human_move(at)
    at.button(key=enabled(at, "card_")[0]).click().run()
    first = play_controller(at)
    game_id = at.query_params["game"]
    again = _app(THREE, query={"game": game_id}, like=at)
    resumed = play_controller(again)
    assert resumed.game_id == game_id and resumed.rules.players == 3
    assert resumed.match.history == first.match.history
    assert set(resumed.bot_levels) == {0, 1}
    assert sorted(enabled(again, "card_")) == sorted(enabled(at, "card_"))
    played = [card_str(c) for _, c in resumed.observation().trick]
    assert all(f'data-card="{code}"' in _table_html(again) for code in played)


def _bot_game(rules: Rules, seed: int) -> GameController:
    controller = GameController.new(
        rules,
        seed=seed,
        player_name="Ada",
        bot_levels=dict.fromkeys(bot_seats(rules), "random"),
        undo_allowed=False,
    )
    controller.set_pace("instant")
    return controller


def _first_legal(controller: GameController) -> None:
    """The player's move: the first legal action (the cards come before the bids)."""
    controller.act(min(controller.match.legal_actions()), controller.ply)


def test_the_54_card_deck_deals_the_jokers_as_buttons_and_plays_them() -> None:
    rules = Rules(players=3, partnerships=False, jokers_added=True)
    played = set()
    for seed in range(40):
        controller = _bot_game(rules, seed)
        hand = controller.observation().hand
        assert hand is not None and len(hand) == 18
        jokers = {c for c in hand if c >= 52}
        if not jokers:
            continue
        # The jokers show as cards of their own, keyed by the contract's names, first.
        assert in_hand_order(hand)[: len(jokers)] == sorted(jokers, reverse=True)
        assert {card_key(c) for c in jokers} <= {"card_BJ", "card_LJ"}
        while not controller.match.finished:
            if controller.human_to_act:
                legal = set(controller.match.legal_actions())
                joker = next((c for c in jokers if card_action(c) in legal), None)
                if joker is not None:
                    assert controller.view().card_why_not[joker] is None
                    assert controller.act(card_action(joker), controller.ply)
                    played.add(joker)
                else:
                    _first_legal(controller)
            else:
                controller.run_bots()
        if len(played) == 2:
            break
    assert played == {52, 53}


def test_a_player_knocked_out_shows_out_and_the_two_others_play_on() -> None:
    rules = Rules(players=3, partnerships=False, mercy_score=-10)
    for seed in range(60):
        controller = _bot_game(rules, seed)
        while not controller.match.is_over and not controller.match.out:
            if controller.show_summary:
                controller.next_hand()
            elif controller.human_to_act:
                _first_legal(controller)
            else:
                controller.run_bots()
        out = controller.match.out
        if controller.match.is_over or HUMAN_SEAT in out:
            continue
        controller.next_hand()
        view = controller.view()
        (gone,) = out
        seats = seat_views(view, TablePrefs())
        assert seats[gone].bid == "out" and seats[gone].held == 0
        names = [side.name for side in view.sides if side.bid == "out"]
        assert names == [controller.players[gone]]
        assert view.obs.current_player != gone
        return
    pytest.fail("no seed knocked out a bot while the player stayed in")


def test_a_hint_at_the_three_handed_table_names_a_legal_move_with_its_reason() -> None:
    at = _app(THREE)
    for _ in range(3):
        controller = play_controller(at)
        at.button(key="hint").click().run()
        advice = play_controller(at).current_hint()
        assert advice is not None and advice.action in controller.match.legal_actions()
        (shown,) = (i.value for i in at.info)
        assert shown.replace("\\", "") == advice.reason
        human_move(at)
