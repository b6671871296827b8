"""A monkey at the Play page: hundreds of random clicks on enabled buttons, through several
short matches (to 150).

Whatever is clicked, the page never raises, the enabled cards and bids are exactly the
engine's legal actions, the store holds exactly the match's actions, and every finished
hand keeps the engine's invariants (13 tricks, each card once, the points add up).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from spades.app.play import GameController
from spades.app.table_view import finished_hands
from spades.engine.cards import (
    BID_BASE,
    BLIND_NIL,
    EXCHANGE_BASE,
    FULL_DECK,
    NUM_CARDS,
    card_str,
    cards_mask,
)
from spades.store import Store

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "play.py")
CLICKS = 400
SEED = 20261130

pytestmark = pytest.mark.apptest


def _expected_enabled(controller: GameController) -> set[str]:
    """The card and bid keys the engine allows the human now."""
    if not controller.human_to_act:
        return set()
    hand = controller.match.hand
    keys = set()
    for action in hand.legal_actions():
        if action < NUM_CARDS:
            keys.add(f"card_{_code(controller, action)}")
        elif action == BID_BASE:
            keys.add("bid_nil")
        elif action < BLIND_NIL:
            keys.add(f"bid_{action - BID_BASE}")
        elif action == BLIND_NIL:
            keys.add("bid_blind_nil")
        elif action >= EXCHANGE_BASE:
            keys.add(f"card_{_code(controller, action - EXCHANGE_BASE)}")
    return keys


def _code(controller: GameController, card: int) -> str:
    return card_str(card, jokers=controller.rules.joker_deck)


def _check_finished_hands(controller: GameController, seen: int) -> int:
    match = controller.match
    for hand, result in zip(match.finished[seen:], match.results[seen:], strict=True):
        assert sum(hand.tricks_won) == 13
        played = [c for trick in hand.tricks for c in trick.cards]
        assert len(played) == len(set(played))
        if hand.claimed_by is None:
            assert len(hand.tricks) == 13 and cards_mask(played) == FULL_DECK
        assert result.teams[0].tricks + result.teams[1].tricks == 13
    totals = [sum(r.teams[t].points for r in match.results) for t in (0, 1)]
    assert tuple(totals) == match.scores
    shown = finished_hands(match)
    assert [hand.result for hand in shown] == match.results
    assert [hand.score for hand in shown] == match.score_history()
    return len(match.finished)


def test_random_clicks_never_break_the_page_or_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'monkey.db'}"
    monkeypatch.setenv("SPADES_DB_URL", url)
    rng = random.Random(SEED)
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    at.radio(key="speed").set_value("instant")
    for key in ("bot_N", "bot_E", "bot_W"):
        at.selectbox(key=key).set_value("random")
    # Blind nil and the card exchange come up with these rules, and short matches.
    at.selectbox(key="preset").set_value("Custom").run()
    at.number_input(key="rule_blind_nil_deficit").set_value(0)
    at.toggle(key="rule_blind_nil_exchange").set_value(True)
    at.number_input(key="rule_target_score").set_value(150)
    at.button(key="new_game").click().run()
    store = Store(url)
    finished = 0
    seen_hands = 0
    game_id = None
    try:
        for click in range(CLICKS):
            assert not at.exception, at.exception
            controller = at.session_state["play_controller"]
            assert isinstance(controller, GameController)
            if controller.game_id != game_id:
                game_id, seen_hands = controller.game_id, 0
            enabled = [b for b in at.button if b.key and not b.disabled]
            shown = {b.key for b in enabled if b.key.startswith(("card_", "bid_"))}
            assert shown == _expected_enabled(controller)
            assert ("claim" in {b.key for b in at.button}) == controller.can_claim()
            assert controller.in_step_with_store()
            seen_hands = _check_finished_hands(controller, seen_hands)
            if click % 250 == 0 and controller.game_id:
                assert store.load(controller.game_id).match.history == controller.match.history
            # A new game now and then mid-match, and always once a match is over.
            restart = controller.match.is_over or rng.random() < 0.005
            choices = [b for b in enabled if (b.key == "new_game") == restart]
            pick = rng.choice(choices)
            finished += controller.match.is_over
            pick.click().run()
    finally:
        store.close()
    assert not at.exception
    assert finished >= 3, "the monkey should get through several matches"
