"""Play and a shared table are one table: the same seed, rules and moves give the same
events, the same seat's view and the same stored game, and each seat is told only what it
may know of the moves."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from spades.app.play import GameController
from spades.app.seat_events import seat_events
from spades.app.seats import HUMAN_SEAT
from spades.app.table_view import TableView, table_view
from spades.app.tables import TableRefusal, TableService
from spades.engine.cards import EXCHANGE_BASE, LOOK, card_str
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store
from spades.store.rows import utc_now

BOTS = {0: "random", 1: "random", 3: "random"}


def _seen(view: TableView) -> tuple[object, ...]:
    """What a seat's view shows of the table, its names and the page's own answers aside."""
    return (view.obs, view.why_not, view.card_why_not, view.sides, view.can_claim)


@pytest.mark.parametrize("rules", [Rules(), Rules(nil_pass=2)], ids=["standard", "nil pass"])
def test_play_and_a_shared_table_give_the_same_events_views_and_stored_game(
    tmp_path: Path, rules: Rules
) -> None:
    play_store = Store(f"sqlite:///{tmp_path / 'play.db'}", rater=RATER)
    table_store = Store(f"sqlite:///{tmp_path / 'tables.db'}", rater=RATER)
    controller = GameController.new(
        rules,
        seed=21,
        player_name="Ann",
        bot_levels=BOTS,
        undo_allowed=True,
        store=play_store,
        owner=play_store.new_player("Ann")[0],
    )
    controller.set_pace("normal")
    # The same people at the table: Ann at South, and where Play has each bot a person
    # with its name, so that every word of the two views can be the same.
    service = TableService(table_store)
    table_id, ann = service.create(table_store.new_player("Ann")[0], "One table", rules)
    tokens = {HUMAN_SEAT: ann}
    for seat in BOTS:
        name = controller.players[seat]
        tokens[seat] = service.join(table_id, seat, table_store.new_player(name)[0], name)
    service.start(table_id, ann, seed=21)
    while controller.ply < 120 and not controller.is_over:
        before = controller.ply
        if controller.summary_for is not None:
            controller.next_hand()
        if controller.human_to_act:
            legal = controller.match.hand.legal_actions()
            move = LOOK if LOOK in legal else legal[len(legal) // 2]
            assert controller.act(move, controller.ply)
        else:
            controller.hold = False
            assert controller.step()
        # Each move made at Play is made at the table by the seat that made it.
        for event, action in zip(
            controller.events(before), controller.history[before:], strict=True
        ):
            service.act(table_id, tokens[event.seat], action, service.version(table_id))
        shared = service.view(table_id, ann).drawn
        assert shared is not None
        if controller.summary_for is None and not controller.hold:
            assert _seen(shared) == _seen(table_view(controller))
        for seat, token in tokens.items():
            assert service.events(table_id, token, before) == seat_events(
                controller.match, seat, before
            )
    assert controller.match.finished, "the moves reach past the end of a hand"
    assert service.events(table_id, ann, 0) == controller.events(0)
    game_id = service.view(table_id, ann).table.game_id
    assert controller.game_id is not None and game_id is not None
    played, shared_game = play_store.load(controller.game_id), table_store.load(game_id)
    assert (played.record.rules, played.record.seed, played.record.actions) == (
        shared_game.record.rules,
        shared_game.record.seed,
        shared_game.record.actions,
    )
    play_store.close()
    table_store.close()


def test_a_card_passed_to_a_partner_is_told_only_to_the_seat_that_passed_it() -> None:
    rules = Rules(nil_pass=2)
    for seed in range(200):
        match = Match(rules, seed=seed)
        while match.hand.phase.name == "BIDDING":
            legal = match.legal_actions()
            match.apply(legal[0] if match.hand.current_player == 0 else legal[-1])
        if match.hand.phase.name == "EXCHANGE":
            break
    else:
        raise AssertionError("no seed led to an exchange")
    ply = match.ply
    passer = match.current_player
    action = match.legal_actions()[0]
    match.apply(action)
    passed = card_str(action - EXCHANGE_BASE)
    for seat in (*rules.seats, None):
        (told,) = seat_events(match, seat, ply)
        assert told.kind == "pass" and told.seat == passer
        assert told.card == (passed if seat == passer else None)


def test_a_page_asking_for_moves_it_cannot_have_is_refused(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}", rater=RATER)
    service = TableService(store)
    table_id, token = service.create(store.new_player("Ann")[0], "Ask", Rules())
    service.start(table_id, token, seed=1)
    for since in (-1, 10_000, True):
        with pytest.raises(TableRefusal, match="Since must be a move count"):
            service.events(table_id, token, since)  # type: ignore[arg-type]
    store.close()


class Clock:
    """The tables' clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = utc_now()

    def __call__(self) -> datetime:
        return self.now


def test_the_bots_make_the_same_moves_at_play_and_at_a_shared_table(tmp_path: Path) -> None:
    rules = Rules()
    levels = dict.fromkeys(BOTS, "random")
    controller = GameController.new(
        rules, seed=8, player_name="Ann", bot_levels=levels, undo_allowed=False
    )
    controller.set_pace("normal")
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}", rater=RATER)
    clock = Clock()
    service = TableService(store, now=clock)
    table_id, ann = service.create(store.new_player("Ann")[0], "Bots", rules, bot_level="random")
    service.start(table_id, ann, seed=8)
    while controller.ply < 40:
        if controller.human_to_act:
            legal = controller.match.hand.legal_actions()
            move = LOOK if LOOK in legal else legal[0]
            view = service.view(table_id, ann)
            service.act(table_id, ann, move, view.table.version)
            assert controller.act(move, controller.ply)
        else:
            controller.hold = False
            assert controller.step()
            clock.now += timedelta(seconds=1)
            assert service.advance(table_id)
        assert service.events(table_id, ann, 0) == controller.events(0)
    store.close()
