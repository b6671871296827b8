"""The table under each ranking of the jokers deck: the jokers wear their faces, the 2♦
of the ranking "deuces" sits with the spades in the hand, and the middle of the table
says which cards rank above the A♠."""

from __future__ import annotations

import pytest
from engine_helpers import cards

from spades.app.table_view import in_hand_order, observed_view
from spades.engine.cards import LITTLE_JOKER, JokerRanking, parse_card
from spades.engine.rules import Rules
from spades.engine.state import HandState
from spades.ui.cards import button_label, card_html, card_key
from spades.ui.table_html import center_html

TWO_OF_HEARTS = parse_card("2H")


def test_the_little_joker_that_replaces_the_two_of_hearts_wears_the_joker_s_face() -> None:
    for ranking in ("deuces", "ace_no_2h"):
        assert "sp-f-LJ" in card_html(TWO_OF_HEARTS, jokers=ranking)
        assert button_label(TWO_OF_HEARTS, jokers=ranking) == "LJ★"
        assert card_key(TWO_OF_HEARTS, jokers=ranking) == "card_LJ"
        assert "sp-f-2D" in card_html(LITTLE_JOKER, jokers=ranking)
    assert "sp-f-2H" in card_html(TWO_OF_HEARTS, jokers="ace")


@pytest.mark.parametrize(
    ("ranking", "hand", "order"),
    [
        ("deuces", "3D 2S AS BJ 2D AH LJ KC", "BJ LJ 2D 2S AS AH KC 3D"),
        ("ace_no_2h", "3D 2S AS BJ 2D AH LJ KC", "BJ LJ AS 2S AH KC 3D 2D"),
        ("ace", "3D 2S AS BJ 2H AH LJ KC", "BJ LJ AS 2S AH 2H KC 3D"),
    ],
)
def test_a_hand_sorts_its_trumps_first_in_their_ranking(
    ranking: JokerRanking, hand: str, order: str
) -> None:
    sorted_hand = in_hand_order(cards(hand, jokers=ranking), jokers=ranking)
    assert sorted_hand == cards(order, jokers=ranking)


@pytest.mark.parametrize(
    ("rules", "marker"),
    [
        (Rules(), None),
        (Rules(jokers=True), "Jokers rank above the A♠"),
        (Rules(jokers=True, joker_ranking="ace_no_2h"), "Jokers rank above the A♠"),
        (
            Rules(jokers=True, joker_ranking="deuces"),
            "Jokers, 2♦ and 2♠ rank above the A♠",
        ),
    ],
)
def test_the_middle_of_the_table_names_the_cards_above_the_ace(
    rules: Rules, marker: str | None
) -> None:
    state = HandState.deal(rules, dealer=0, seed=1)
    view = observed_view(state.observation(2), ("N", "E", "S", "W"), lambda _: None, ply=0)
    middle = center_html(view)
    if marker is None:
        assert "rank above" not in middle
    else:
        assert f"<div class='sp-marker'>{marker}</div>" in middle
