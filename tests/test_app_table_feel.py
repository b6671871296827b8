"""The table's look and feel: felt and card back, sound, void aid, screen-reader text, and
the player's preferences kept across sessions; and the palettes' WCAG AA contrast."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from app_helpers import human_move, play_controller
from streamlit.testing.v1 import AppTest

from spades.app import prefs
from spades.app.play import TRICK_STAYS, GameController
from spades.app.prefs import TablePrefs
from spades.app.seats import HUMAN_SEAT
from spades.app.site import NAME_MAX
from spades.app.themes import (
    BLACK_SUIT,
    BLUE_SUIT,
    CARD_BACKS,
    CARD_FACE,
    FELTS,
    GREEN_SUIT,
    RED_SUIT,
    contrast_ratio,
)
from spades.engine.cards import LOOK, NUM_CARDS, card_name, card_str
from spades.engine.rules import Rules
from spades.engine.state import Phase
from spades.stats.ratings import RATER
from spades.store import Store
from spades.ui.cards import trick_html
from spades.ui.db import app_site
from spades.ui.faces import face_url
from spades.ui.identity import STATE_KEY, Identity
from spades.ui.sidebar import TRICK_STAY_LABELS
from spades.ui.table_html import announcement, seat_views, status

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "play.py")
AA_TEXT = 4.5
AA_GRAPHICS = 3.0


def _app() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    at.radio(key="speed").set_value("instant")
    for key in ("bot_N", "bot_E", "bot_W"):
        at.selectbox(key=key).set_value("random")
    at.button(key="new_game").click().run()
    assert not at.exception
    return at


def _html(at: AppTest) -> str:
    return "\n".join(element.proto.body for element in at.get("html"))


def _to_first_card(at: AppTest) -> None:
    while play_controller(at).match.hand.phase is not Phase.PLAYING:
        human_move(at)


# ------------------------------------------------------------------ contrast (WCAG AA)
@pytest.mark.parametrize("name", list(FELTS))
def test_text_on_every_felt_passes_wcag_aa(name: str) -> None:
    felt = FELTS[name]
    for cloth in felt.cloth:
        assert contrast_ratio(felt.text, cloth) >= AA_TEXT, (name, cloth)
    for badge in (felt.to_act, felt.winner):
        assert contrast_ratio(felt.badge_text, badge) >= AA_TEXT, (name, badge)


@pytest.mark.parametrize("name", list(FELTS))
def test_seat_rings_and_the_focus_ring_stand_out_on_every_felt(name: str) -> None:
    felt = FELTS[name]
    for cloth in felt.cloth:
        for ring in (felt.to_act, felt.winner, felt.focus):
            assert contrast_ratio(ring, cloth) >= AA_GRAPHICS, (name, ring, cloth)


def test_every_suit_colour_passes_wcag_aa_on_the_card_face() -> None:
    for colour in (RED_SUIT, BLACK_SUIT, BLUE_SUIT, GREEN_SUIT):
        assert contrast_ratio(colour, CARD_FACE) >= AA_TEXT, colour


def test_the_contrast_formula_matches_known_wcag_values() -> None:
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    with pytest.raises(ValueError, match="rrggbb"):
        contrast_ratio("red", "#ffffff")


def test_every_card_back_is_an_svg_made_here() -> None:
    for back in CARD_BACKS.values():
        assert back.svg.startswith("<svg") and "http" not in back.svg.replace(
            'xmlns="http://www.w3.org/2000/svg"', ""
        )
        assert back.css_url().startswith('url("data:image/svg+xml;base64,')


# --------------------------------------------------------------------- preferences
def _player(at: AppTest) -> str | None:
    """The player at this test browser (None until they needed one)."""
    if STATE_KEY not in at.session_state:
        return None
    identity: Identity = at.session_state[STATE_KEY]
    return identity.player_id


def _same_browser(at: AppTest, *, query: dict[str, str] | None = None) -> AppTest:
    """A new session in the browser of ``at``: its cookie brings back the same player."""
    again = AppTest.from_file(PAGE, default_timeout=30)
    for key, value in (query or {}).items():
        again.query_params[key] = value
    again.session_state[STATE_KEY] = at.session_state[STATE_KEY]
    again.run()
    return again


def test_preferences_are_kept_per_player_and_bad_values_read_as_defaults(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'prefs.db'}")
    ada, _ = store.new_player("Ada")
    bob, _ = store.new_player("Ada")
    prefs.save(store, ada, TablePrefs(felt="royal", back="gold", sound=True, volume=30))
    prefs.save(store, bob, TablePrefs(voids=True))
    assert prefs.load(store, ada) == TablePrefs("royal", "gold", True, 30, False)
    assert prefs.load(store, bob) == TablePrefs(voids=True)
    assert prefs.load(store, None) == TablePrefs()
    store.save_player_prefs(ada, {"felt": "plaid", "volume": 400, "sound": "yes"})
    assert prefs.load(store, ada) == TablePrefs()
    store.close()


def test_the_table_starts_green_with_linen_backs_and_no_sound() -> None:
    at = _app()
    assert at.selectbox(key="felt").value == "emerald"
    assert at.selectbox(key="back_design").value == "linen"
    assert at.toggle(key="sound_on").value is False
    assert at.slider(key="sound_volume").value == TablePrefs().volume
    assert FELTS["emerald"].cloth[0] in _html(at)
    _to_first_card(at)
    at.button(key=next(b.key for b in at.button if b.key.startswith("card_") and not b.disabled))
    at.run()
    assert not at.get("audio")


def test_felt_and_back_apply_at_once_and_are_remembered_for_the_player() -> None:
    at = _app()
    at.text_input(key="player_name").set_value("Ada").run()
    at.selectbox(key="felt").set_value("crimson").run()
    at.selectbox(key="back_design").set_value("victorian").run()
    page = _html(at)
    assert FELTS["crimson"].cloth[0] in page and FELTS["emerald"].cloth[0] not in page
    assert CARD_BACKS["victorian"].css_url() in page
    ada = _player(at)
    assert ada is not None
    assert app_site().table_prefs(ada) == TablePrefs(
        felt="crimson", back="victorian", speed="instant"
    )
    # The same browser later: Ada's table comes back.
    again = _same_browser(at)
    assert again.selectbox(key="felt").value == "crimson"
    assert again.selectbox(key="back_design").value == "victorian"


def test_the_bot_speed_is_kept_with_the_player_s_table() -> None:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert at.radio(key="speed").value == "normal"
    at.radio(key="speed").set_value("fast").run()
    ada = _player(at)
    assert ada is not None
    assert app_site().table_prefs(ada).speed == "fast"
    again = _same_browser(at)
    assert again.radio(key="speed").value == "fast"
    other = AppTest.from_file(PAGE, default_timeout=30)
    other.run()
    assert other.radio(key="speed").value == "normal", "another browser keeps its own"
    Store.default(app_site().url, rater=RATER).save_player_prefs(ada, {"speed": "warp"})
    assert app_site().table_prefs(ada).speed == "normal"


def test_the_comforts_are_off_by_default_and_kept_with_the_player() -> None:
    """A forced card played by itself, a trick that stays (a time or a tap) and a knock
    on the player's turn: each off until asked for, then kept with the player."""
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert at.toggle(key="auto_play").value is False
    assert at.toggle(key="turn_sound").value is False
    assert at.selectbox(key="trick_stay").value == "pace"
    assert set(TRICK_STAY_LABELS) == set(TRICK_STAYS)
    at.toggle(key="auto_play").set_value(True).run()
    at.toggle(key="turn_sound").set_value(True).run()
    at.selectbox(key="trick_stay").set_value("tap").run()
    ada = _player(at)
    assert ada is not None
    kept = app_site().table_prefs(ada)
    assert (kept.auto_play, kept.turn_sound, kept.trick_stay) == (True, True, "tap")
    controller = play_controller(at)
    assert controller.auto_play and controller.trick_stay == TRICK_STAYS["tap"]
    again = _same_browser(at)
    assert again.toggle(key="auto_play").value is True
    assert again.selectbox(key="trick_stay").value == "tap"
    Store.default(app_site().url, rater=RATER).save_player_prefs(
        ada, {"trick_stay": "forever", "auto_play": "yes"}
    )
    assert app_site().table_prefs(ada) == TablePrefs()


def test_a_trick_that_waits_for_a_tap_goes_on_with_next_trick() -> None:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    at.selectbox(key="trick_stay").set_value("tap").run()
    controller = play_controller(at)
    for _ in range(60):
        if controller.waits_for_tap:
            break
        if controller.human_to_act:
            human_move(at)
        else:
            controller.run_bots()
            at.run()
    assert controller.waits_for_tap
    at.run()
    at.button(key="gather_trick").click().run()
    assert not at.exception and not controller.hold
    assert "gather_trick" not in {b.key for b in at.button}


def test_a_player_has_one_name_on_play_as_on_their_profile_and_at_tables() -> None:
    at = _app()
    at.selectbox(key="felt").set_value("royal").run()
    ada = _player(at)
    assert ada is not None
    # Named on the Profile page (the name shared tables show), Play greets them by it.
    app_site().rename_player(ada, "Ada Lovelace")
    again = _same_browser(at)
    assert again.text_input(key="player_name").value == "Ada Lovelace"
    # And a name typed on Play is the one the profile and the tables show.
    again.text_input(key="player_name").set_value("Ada L.").run()
    assert app_site().player_name(ada) == "Ada L."


def test_a_name_typed_on_play_is_tidied_as_at_a_shared_table_and_kept_whole() -> None:
    """A name pasted with an invisible character and a control character is cleaned, not
    refused, and a name as long as the field takes is shown and kept whole."""
    at = _app()
    at.text_input(key="player_name").set_value(" A\u200bda\x07Lovelace ").run()
    assert not at.error, [e.value for e in at.error]
    ada = _player(at)
    assert ada is not None and app_site().player_name(ada) == "Ada Lovelace"
    longest = "Augusta Ada King, Countess of Lovelace X"
    assert len(longest) == NAME_MAX
    at.text_input(key="player_name").set_value(longest).run()
    at.button(key="new_game").click().run()
    assert not at.error, [e.value for e in at.error]
    assert play_controller(at).players[HUMAN_SEAT] == longest
    assert app_site().player_name(ada) == longest


def test_two_browsers_with_the_same_name_keep_their_own_tables() -> None:
    ada = _app()
    ada.text_input(key="player_name").set_value("You").run()
    ada.selectbox(key="felt").set_value("royal").run()
    other = _app()
    other.text_input(key="player_name").set_value("You").run()
    assert other.selectbox(key="felt").value == "emerald"
    other.slider(key="sound_volume").set_value(0).run()
    assert _player(other) != _player(ada)
    again = _same_browser(ada)
    assert again.selectbox(key="felt").value == "royal"
    assert again.slider(key="sound_volume").value == TablePrefs().volume


def test_a_reopened_game_brings_back_its_players_name_and_table() -> None:
    at = _app()
    at.text_input(key="player_name").set_value("Ada").run()
    at.selectbox(key="felt").set_value("royal").run()
    at.button(key="new_game").click().run()
    _to_first_card(at)
    game_id = at.query_params["game"]
    again = _same_browser(at, query={"game": game_id})
    assert again.text_input(key="player_name").value == "Ada"
    assert again.selectbox(key="felt").value == "royal"


def test_the_four_colour_deck_is_off_at_first_and_kept_with_the_player() -> None:
    at = _app()
    assert at.toggle(key="four_colour").value is False
    assert face_url("AD") in _html(at) and face_url("AD", four_colour=True) not in _html(at)
    at.toggle(key="four_colour").set_value(True).run()
    page = _html(at)
    assert face_url("AD", four_colour=True) in page and face_url("AD") not in page
    assert f"--sp-diamonds: {BLUE_SUIT};" in page and f"--sp-clubs: {GREEN_SUIT};" in page
    ada = _player(at)
    assert ada is not None
    assert app_site().table_prefs(ada) == TablePrefs(four_colour=True, speed="instant")
    # A hint that names a card draws its suit in the deck's colour.
    _to_first_card(at)
    marked = ""
    while not marked and not play_controller(at).match.hand.is_over:
        at.button(key="hint").click().run()
        marked = next((info.body for info in at.info if ":color[" in info.body), "")
        human_move(at)
    assert marked, "some hint of the hand names a card"
    assert not set(re.sub(r":color\[.\]\{[^}]*\}", "", marked)) & set("♣♦♥♠"), marked
    # The same browser later: the four-colour deck comes back; another starts without it.
    again = _same_browser(at)
    assert again.toggle(key="four_colour").value is True
    assert face_url("AD", four_colour=True) in _html(again)
    other = AppTest.from_file(PAGE, default_timeout=30)
    other.run()
    assert other.toggle(key="four_colour").value is False


def test_sound_on_plays_a_wav_clip_after_a_card_and_the_mute_is_remembered() -> None:
    at = _app()
    at.toggle(key="sound_on").set_value(True).run()
    at.slider(key="sound_volume").set_value(40).run()
    player = _player(at)
    assert player is not None
    assert app_site().table_prefs(player) == TablePrefs(sound=True, volume=40, speed="instant")
    _to_first_card(at)
    card = next(b.key for b in at.button if b.key.startswith("card_") and not b.disabled)
    at.button(key=card).click().run()
    audio = at.get("audio")
    assert len(audio) == 1
    assert audio[0].proto.autoplay
    at.toggle(key="sound_on").set_value(False).run()
    assert not at.get("audio")
    assert app_site().table_prefs(player).sound is False


def test_the_void_aid_marks_the_suits_each_other_seat_has_shown_out_of() -> None:
    at = _app()
    _to_first_card(at)
    assert 'class="sp-voids' not in _html(at)
    at.toggle(key="show_voids").set_value(True).run()
    controller = play_controller(at)
    while not controller.match.finished and not any(
        controller.match.hand.observation(HUMAN_SEAT).known_voids()[seat] for seat in (0, 1, 3)
    ):
        human_move(at)
    voids = controller.view().obs.known_voids()
    page = _html(at)
    assert page.count('class="sp-voids') == 3, "each other seat shows its voids"
    for seat in (0, 1, 3):
        for suit, name in enumerate(("clubs", "diamonds", "hearts", "spades")):
            if voids[seat] >> suit & 1:
                assert name in page


def test_each_card_and_bid_gets_a_spoken_name_and_the_table_is_announced() -> None:
    at = _app()
    while not play_controller(at).human_to_act:
        at.run()
    if "look" in [b.key for b in at.button]:
        at.button(key="look").click().run()
    page = _html(at)
    labels = json.loads(
        re.search(r'data-labels="([^"]*)"', page).group(1).replace("&quot;", '"')  # type: ignore[union-attr]
    )
    controller = play_controller(at)
    for card in controller.match.hand.hand(HUMAN_SEAT):
        key = next(
            k for k in labels if k.startswith("card_") and card_name(card).capitalize() in labels[k]
        )
        assert labels[key].endswith("not playable: Cards are played after the bidding")
    bids = [k for k in labels if k.startswith("bid_")]
    assert "bid_nil" in bids and "bid_13" in bids
    assert all(labels[k].startswith("Bid ") for k in bids)
    assert 'role="status" aria-live="polite"' in page
    assert "score 0" in page
    _to_first_card(at)
    while not play_controller(at).human_to_act:
        at.run()
    page = _html(at)
    hand = play_controller(at).match.hand
    legal = [a for a in hand.legal_actions() if a < NUM_CARDS]
    assert f"{card_name(legal[0]).capitalize()}, playable" in page


def test_a_trick_taken_by_a_trump_is_highlighted_and_gathered_to_its_winner() -> None:
    """Every held trick slides to its winner; only a spade beating another led suit shines."""
    now = [0.0]
    controller = GameController.new(
        Rules(mercy_score=None),
        seed=11,
        player_name="Ada",
        bot_levels={0: "random", 1: "random", 3: "random"},
        undo_allowed=False,
        clock=lambda: now[0],
    )
    controller.set_pace("fast")
    seen = {True: 0, False: 0}
    slid = 0
    while not controller.match.finished:
        now[0] += 1
        if controller.hold:
            trick = controller.held_trick
            assert trick is not None
            views = seat_views(controller.view(), TablePrefs())
            winning = dict(trick.plays())[trick.winner]
            trumped = winning // 13 == 3 and trick.cards[0] // 13 != 3
            assert [v.trumped for v in views] == [trumped and s == trick.winner for s in range(4)]
            assert [v.winner for v in views] == [s == trick.winner for s in range(4)]
            assert not any(v.fresh for v in views), "a finished trick does not slide in again"
            page = trick_html(views, center="", gather_to=trick.winner)
            direction = ("north", "east", "south", "west")[trick.winner]
            assert f"sp-table sp-to-{direction}" in page
            assert ("sp-trumped" in page) == trumped
            # Every card of the held trick names itself and its seat; only the winner's wins.
            for seat, card in trick.plays():
                letter = "NESW"[seat]
                winner = ' data-winner="true"' if seat == trick.winner else ""
                assert f'data-card="{card_str(card)}" data-seat="{letter}"{winner}>' in page
            assert page.count('data-winner="true"') == 1
            spoken = announcement(controller.view())
            said = (
                "You win"
                if trick.winner == HUMAN_SEAT
                else f"{controller.players[trick.winner]} wins"
            )
            assert f"{said} the trick" in spoken
            seen[trumped] += 1
            controller.drawn()
            controller.tick()
        elif controller.human_to_act:
            legal = controller.match.hand.legal_actions()
            controller.act(LOOK if LOOK in legal else legal[-1], controller.ply)
            trick = controller.match.hand.observation(HUMAN_SEAT).trick
            if trick and not controller.hold:
                views = seat_views(controller.view(), TablePrefs())
                # The browser drew the player's card as it was clicked (spades.ui.quick).
                assert not any(v.fresh for v in views), "your own card does not slide in again"
        else:
            controller.drawn()
            controller.tick()
            trick = controller.match.hand.observation(HUMAN_SEAT).trick
            if trick and not controller.hold and trick[-1][0] != HUMAN_SEAT:
                views = seat_views(controller.view(), TablePrefs())
                fresh = [card_str(v.card) for v in views if v.fresh and v.card is not None]
                assert fresh == [card_str(trick[-1][1])], "a bot's card just played slides in"
                slid += 1
    assert seen[True] and seen[False], seen
    assert slid


def test_at_the_instant_pace_every_finished_trick_is_shown_whole_with_its_winner() -> None:
    """The bots play on at once, and the trick they finish lies over the table (with its
    winner marked) until the player's next click; the last one is there behind the summary."""
    controller = GameController.new(
        Rules(mercy_score=None),
        seed=7,
        player_name="Ada",
        bot_levels={0: "random", 1: "random", 3: "random"},
        undo_allowed=False,
    )
    controller.set_pace("instant")
    controller.run_bots()
    shown: list[tuple[int, ...]] = []
    while not controller.match.finished:
        flash = controller.flash
        if flash is not None:
            page = trick_html(seat_views(controller.view(), TablePrefs()), center="")
            assert "sp-table sp-flashing" in page
            for seat, card in flash.plays():
                winner = ' data-winner="true"' if seat == flash.winner else ""
                placed = f'data-card="{card_str(card)}" data-seat="{"NESW"[seat]}"{winner}>'
                assert f'class="sp-flash" {placed}' in page
            assert page.count('data-winner="true"') == 1
            assert f"{controller.players[flash.winner]} won the last trick" in announcement(
                controller.view()
            )
            shown.append(flash.cards)
        legal = controller.match.hand.legal_actions()
        assert controller.act(LOOK if LOOK in legal else legal[-1], controller.ply)
    finished = controller.match.finished[0]
    assert controller.show_summary and controller.flash == finished.tricks[-1]
    shown.append(controller.flash.cards)
    # Each trick shown once, in order: none skipped, none shown twice.
    assert shown == [trick.cards for trick in finished.tricks]
    controller.next_hand()
    assert controller.flash is None


def test_when_your_card_takes_the_trick_the_status_line_says_you_win_it() -> None:
    """ "You win the trick." for the player's own trick, a bot's name for a bot's."""
    now = [0.0]
    controller = GameController.new(
        Rules(),
        seed=3,
        player_name="Ada",
        bot_levels={0: "random", 1: "random", 3: "random"},
        undo_allowed=False,
        clock=lambda: now[0],
    )
    controller.set_pace("fast")
    said: dict[bool, str] = {}
    while len(said) < 2:
        now[0] += 1
        trick = controller.held_trick
        if trick is not None:
            said[trick.winner == HUMAN_SEAT] = status(controller.view())
            if trick.winner != HUMAN_SEAT:
                assert said[False] == f"{controller.players[trick.winner]} wins the trick."
        if controller.human_to_act and trick is None:
            legal = controller.match.hand.legal_actions()
            controller.act(LOOK if LOOK in legal else legal[0], controller.ply)
        else:
            controller.drawn()
            controller.tick()
    assert said[True] == "You win the trick."
