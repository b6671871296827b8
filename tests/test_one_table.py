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
from spades.app.table_view import TableView
from spades.app.tables import Owner, TableRefusal, TableService
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
        service=TableService(play_store),
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
            assert _seen(shared) == _seen(controller.view())
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


def _play_game(service: TableService, owner: str, seed: int = 4) -> GameController:
    """A new Play game of ``owner`` (Ann) against random bots at the normal pace."""
    controller = GameController.new(
        Rules(),
        seed=seed,
        player_name="Ann",
        bot_levels=BOTS,
        undo_allowed=True,
        service=service,
        owner=owner,
    )
    controller.set_pace("normal")
    return controller


def _first_move(controller: GameController) -> None:
    """Let the bots act up to the human's first move, and make it."""
    while not controller.human_to_act:
        assert controller.step()
    legal = controller.match.legal_actions()
    assert controller.act(LOOK if LOOK in legal else legal[0], controller.ply)


def test_a_play_game_is_a_private_table_that_only_its_page_moves(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'play.db'}", rater=RATER)
    ahead = timedelta()
    service = TableService(store, now=lambda: utc_now() + ahead)
    ann = store.new_player("Ann")[0]
    controller = _play_game(service, ann)
    assert controller.table is None, "nothing is stored before the player moves"
    _first_move(controller)
    assert controller.table is not None and controller.game_id is not None
    table_id, version = controller.table
    info = service.view(table_id, None).table
    assert info.solo and not info.public and info.game_id == controller.game_id
    assert [seat.kind for seat in info.seats] == ["bot", "bot", "human", "bot"]
    assert not store.game_info(controller.game_id).at_table
    assert store.unfinished_game(ann) == controller.game_id
    # No clock moves it and no sweep closes it, however long its player is away.
    ahead = timedelta(days=2)
    assert not service.advance(table_id) and service.sweep() == 0
    assert service.version(table_id) == version
    # Its bots move when its page asks, and only there; nobody else acts at it.
    while not controller.bots_to_act:
        legal = controller.match.legal_actions()
        assert controller.act(legal[0], controller.ply)
    assert controller.step() and controller.table[1] > version
    with pytest.raises(TableRefusal, match="do not hold a seat"):
        service.step(table_id, Owner(store.new_player("Eve")[0]), controller.table[1])
    with pytest.raises(TableRefusal, match="do not hold a seat"):
        service.step(table_id, "a-token", controller.table[1])
    # It takes none of the player's five open tables.
    for _ in range(5):
        service.create(ann, "Ann", Rules())
    store.close()


def test_a_play_game_stored_before_its_table_gets_one_when_its_owner_opens_it(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'play.db'}", rater=RATER)
    ann, eve = store.new_player("Ann")[0], store.new_player("Eve")[0]
    match = Match(Rules(), seed=9)
    game_id = store.new_game(
        rules=match.rules,
        seed=9,
        players=("North", "East", "Ann", "West"),
        kind="human",
        bot_levels=BOTS,
        undo_allowed=True,
        owner=ann,
    )
    while match.current_player != HUMAN_SEAT or match.ply == 0:
        action = match.legal_actions()[0]
        store.append_action(game_id, action, after=match.history)
        match.apply(action)
    service = TableService(store)
    watcher = GameController.resume(service, game_id, viewer=eve)
    assert watcher.read_only and watcher.table is None
    controller = GameController.resume(service, game_id, viewer=ann)
    assert controller.table is not None and controller.match.history == match.history
    assert controller.act(controller.match.legal_actions()[0], controller.ply)
    assert store.load(game_id).match.history == controller.match.history
    # Opened again (another window, a reload): the same table.
    again = GameController.resume(service, game_id, viewer=ann)
    assert again.table == controller.table
    store.close()


def test_a_shared_table_s_bots_keep_the_table_s_pace(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}", rater=RATER)
    service = TableService(store)
    creator = store.new_player("Ann")[0]
    table_id, token = service.create(creator, "Ann", Rules())
    service.start(table_id, token, seed=3)
    version = service.version(table_id)
    with pytest.raises(TableRefusal, match="table's own pace"):
        service.step(table_id, token, version)
    with pytest.raises(TableRefusal, match="do not hold a seat"):
        service.act(table_id, Owner(creator), 0, version)
    store.close()


def test_a_private_table_s_moves_are_no_news(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'play.db'}", rater=RATER)
    heard: list[tuple[str, int]] = []
    stop = store.news.listen(lambda table_id, version: heard.append((table_id, version)))
    controller = _play_game(TableService(store), store.new_player("Ann")[0])
    _first_move(controller)
    while controller.bots_to_act and controller.step():
        pass
    assert controller.table is not None and controller.table[1] > 0 and heard == []
    stop()
    store.close()


def test_a_watcher_reads_a_play_game_and_a_shared_table_s_at_their_tables(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'play.db'}", rater=RATER)
    service = TableService(store)
    ann, eve = store.new_player("Ann")[0], store.new_player("Eve")[0]
    controller = _play_game(service, ann)
    _first_move(controller)
    assert controller.table is not None and controller.game_id is not None
    watcher = GameController.resume(service, controller.game_id, viewer=eve)
    assert watcher.read_only and watcher.table == controller.table
    assert watcher.match is controller.match, "the server's one kept match, read by both"
    if controller.bots_to_act:
        assert controller.step()
    else:
        assert controller.act(controller.match.legal_actions()[0], controller.ply)
    assert not watcher.in_step_with_store()
    again = GameController.resume(service, controller.game_id, viewer=eve)
    assert again.match.history == controller.match.history
    # A shared table's game, watched from the Play page, is read at its table too.
    table_id, token = service.create(ann, "Ann", Rules())
    game_id = service.start(table_id, token, seed=5)
    seen = GameController.resume(service, game_id, viewer=ann)
    assert seen.read_only and seen.table is not None and seen.table[0] == table_id
    assert seen.in_step_with_store()
    store.close()
