"""The Play page's game controller without a page: pacing, stale clicks, undo, saving."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from spades.app import moves
from spades.app.moves import hand_card_action
from spades.app.play import READ_ONLY, TRICK_HOLD, GameController
from spades.app.seats import HUMAN_SEAT
from spades.app.table_view import TableView, finished_hands, trump_taker
from spades.app.tables import PACES, TableService
from spades.bots import LIVE_SECONDS, Bot, live_bot
from spades.bots.expert import ExpertBot
from spades.engine.cards import BID_BASE, BLIND_NIL, CLAIM, EXCHANGE_BASE, LOOK, parse_card
from spades.engine.deck import Trick
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase
from spades.stats.ratings import RATER
from spades.store import Store, StoreUnavailable
from spades.store.tables import Tables

LEVELS = {0: "random", 1: "random", 3: "random"}


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    db = Store(f"sqlite:///{tmp_path / 'games.db'}", rater=RATER)
    yield db
    db.close()


def _game(
    store: Store | None, *, pace: str = "instant", seed: int = 5, undo: bool = True
) -> tuple[GameController, FakeClock]:
    clock = FakeClock()
    controller = GameController.new(
        Rules(),
        seed=seed,
        player_name="Ada",
        bot_levels=LEVELS,
        undo_allowed=undo,
        service=TableService(store) if store is not None else None,
        owner=store.new_player("Ada")[0] if store is not None else None,
        clock=clock,
    )
    controller.set_pace(pace)
    if pace == "instant":
        controller.run_bots()
    return controller, clock


def _human_move(controller: GameController) -> int:
    """A legal action for the human now: look first, then the first legal one."""
    legal = controller.match.hand.legal_actions()
    return LOOK if LOOK in legal else legal[0]


def _to_first_play(controller: GameController) -> None:
    while controller.match.hand.phase is not Phase.PLAYING or not controller.human_to_act:
        if controller.human_to_act:
            assert controller.act(_human_move(controller), controller.ply)
        else:
            controller.run_bots()


def _paced_beat(controller: GameController) -> bool:
    """What the page does on each beat: draw the table as it stands, then tick."""
    controller.drawn()
    return controller.tick()


def test_an_expert_at_the_table_answers_within_the_live_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[Bot] = []

    def recorded(name: str, *, seed: int | None = None) -> Bot:
        made.append(live_bot(name, seed=seed))
        return made[-1]

    monkeypatch.setattr(moves, "live_bot", recorded)
    controller = GameController.new(
        Rules(),
        seed=5,
        player_name="Ada",
        bot_levels={0: "random", 1: "expert", 3: "standard"},
        undo_allowed=False,
    )
    controller.set_pace("normal")
    for _ in range(8):  # the bidding comes round to East within a round
        if controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            assert controller.step()
    experts = [bot for bot in made if isinstance(bot, ExpertBot)]
    assert experts and all(bot.max_seconds == LIVE_SECONDS for bot in experts)


def test_bots_act_one_at_a_time_at_the_chosen_pace() -> None:
    controller, clock = _game(None, pace="normal")
    while not controller.human_to_act:
        controller.drawn()
        clock.now += PACES["normal"]
        before = controller.ply
        assert controller.tick()
        assert controller.ply == before + 1
    assert controller.act(_human_move(controller), controller.ply)
    moved = controller.ply
    # Too early: the human's move stays alone on the table for a beat.
    assert not _paced_beat(controller)
    assert controller.ply == moved
    clock.now += PACES["normal"]
    controller.tick()
    assert controller.ply in (moved, moved + 1)


def test_a_move_not_drawn_yet_is_not_moved_on_however_late_the_beat() -> None:
    """A page run that comes late (a loaded server) must still show each move for a beat
    from when it is drawn, not skip it because its time since the move has passed."""
    controller, clock = _game(None, pace="fast")
    _paced_beat(controller)
    while not controller.bots_to_act:
        assert controller.act(_human_move(controller), controller.ply)
        _paced_beat(controller)
    clock.now += 10 * PACES["fast"]
    moved = controller.ply
    assert controller.tick()
    assert controller.ply == moved + 1
    clock.now += 10 * PACES["fast"]
    assert not controller.tick(), "the bot's move has not been drawn yet"
    assert controller.ply == moved + 1
    controller.drawn()
    assert not controller.tick(), "drawn just now: it stays a beat"
    clock.now += PACES["fast"]
    assert controller.tick() or not controller.bots_to_act


def test_a_finished_trick_stays_on_the_table_for_a_beat() -> None:
    controller, clock = _game(None, pace="fast")
    while not controller.hold:
        clock.now += 1
        if controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            _paced_beat(controller)
    trick = controller.held_trick
    assert trick is not None and len(trick.cards) == 4
    assert not controller.bots_to_act or controller.busy
    ply = controller.ply
    controller.drawn()
    # Even at the fast pace (a beat under TRICK_HOLD) the trick stays its full time.
    clock.now += TRICK_HOLD - 0.05
    assert not controller.tick()
    assert controller.held_trick == trick
    clock.now += 0.1
    assert controller.tick()
    assert controller.held_trick is None
    assert controller.ply == ply


def test_a_click_during_the_trick_pause_is_not_lost() -> None:
    controller, clock = _game(None, pace="slow")
    while not (controller.hold and controller.human_to_act):
        clock.now += 2
        if controller.human_to_act and not controller.hold:
            controller.act(_human_move(controller), controller.ply)
        elif controller.match.is_over or controller.summary_for is not None:
            controller.next_hand()
        else:
            _paced_beat(controller)
    card = controller.match.hand.legal_actions()[0]
    assert controller.act(card, controller.ply)
    assert controller.match.history[-1] == card
    assert controller.held_trick is None


def test_a_double_click_plays_one_card_and_says_nothing() -> None:
    controller, _ = _game(None, pace="normal")
    _to_first_play(controller)
    drawn_at = controller.ply
    card = controller.match.hand.legal_actions()[0]
    assert controller.act(card, drawn_at)
    assert not controller.act(card, drawn_at)
    assert controller.ply == drawn_at + 1
    assert controller.notice is None


def test_one_click_asks_the_engine_once_whether_its_move_is_legal(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller, _ = _game(store, pace="normal")
    _to_first_play(controller)
    asked: list[str] = []
    for name in ("verify", "can", "apply"):
        method = getattr(HandState, name)

        def counted(hand: HandState, action: int, _name: str = name, _method: Any = method) -> Any:
            asked.append(_name)
            return _method(hand, action)

        monkeypatch.setattr(HandState, name, counted)
    card = controller.match.hand.legal_actions()[0]
    assert controller.act(card, controller.ply)
    assert asked == ["apply"]
    assert store.load(controller.game_id or "").match.history == controller.match.history


def test_an_illegal_card_is_refused_with_the_engines_reason() -> None:
    controller, _ = _game(None)
    while True:
        _to_first_play(controller)
        hand = controller.match.hand
        illegal = [c for c in hand.hand(HUMAN_SEAT) if c not in hand.legal_actions()]
        if illegal:
            break
        controller.act(hand.legal_actions()[0], controller.ply)
        controller.run_bots()
        if controller.summary_for is not None:
            controller.next_hand()
    ply = controller.ply
    assert not controller.act(illegal[0], ply)
    assert controller.ply == ply
    assert controller.notice is not None
    assert controller.notice.text == controller.why_not(illegal[0])
    assert controller.notice.text in {
        "You must follow clubs",
        "You must follow diamonds",
        "You must follow hearts",
        "You must follow spades",
        "Spades are not broken yet",
    }


def test_a_click_out_of_turn_says_whose_turn_it_is() -> None:
    controller, _ = _game(None, pace="normal")
    if controller.human_to_act:
        controller.act(_human_move(controller), controller.ply)
    assert controller.bots_to_act
    why = controller.why_not(BID_BASE + 3)
    assert why is not None and why.startswith("Wait for your turn")


def test_undo_takes_back_the_last_card_with_the_bots_replies(store: Store) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    before = list(controller.match.history)
    card = controller.match.hand.legal_actions()[0]
    assert controller.act(card, controller.ply)
    assert len(controller.match.history) > len(before)
    assert controller.undo(controller.ply)
    assert controller.match.history == before
    assert controller.undo_used
    stored = store.load(controller.game_id or "")
    assert stored.match.history == before
    assert store.game_info(controller.game_id or "").undo_used


def test_undo_never_reopens_blind_nil_after_looking() -> None:
    rules = Rules(blind_nil_deficit=0)
    controller = GameController.new(
        rules, seed=2, player_name="Ada", bot_levels=LEVELS, undo_allowed=True
    )
    controller.set_pace("instant")
    controller.run_bots()
    assert LOOK in controller.match.hand.legal_actions()
    assert controller.act(LOOK, controller.ply)
    assert not controller.can_undo()
    assert not controller.undo(controller.ply)


def test_undo_switched_off_refuses(store: Store) -> None:
    controller, _ = _game(store, undo=False)
    _to_first_play(controller)
    controller.act(controller.match.hand.legal_actions()[0], controller.ply)
    assert not controller.can_undo()
    assert not controller.undo(controller.ply)
    assert not store.game_info(controller.game_id or "").undo_allowed


def test_every_action_is_saved_and_a_finished_match_lands_in_the_store(store: Store) -> None:
    controller, _ = _game(store, seed=11)
    while not controller.match.is_over:
        if controller.summary_for is not None:
            controller.next_hand()
        elif controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            controller.run_bots()
        assert controller.in_step_with_store()
    info = store.game_info(controller.game_id or "")
    assert info.status == "finished"
    assert (info.score_ns, info.score_ew) == controller.match.scores
    assert controller.table is not None
    assert Tables(store).info(controller.table[0]).status == "finished"


def test_resume_restores_the_position_and_the_seat_of_every_action(store: Store) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    controller.act(controller.match.hand.legal_actions()[0], controller.ply)
    again = GameController.resume(
        TableService(store), controller.game_id or "", viewer=controller.owner
    )
    assert again.match.history == controller.match.history
    assert again.match.events == controller.match.events
    assert again.players[HUMAN_SEAT] == "Ada"
    assert again.bot_levels == LEVELS


def test_a_game_moved_on_in_another_window_is_not_forked(store: Store) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    other = GameController.resume(
        TableService(store), controller.game_id or "", viewer=controller.owner
    )
    other.set_pace("instant")
    other.act(other.match.hand.legal_actions()[0], other.ply)
    assert not controller.in_step_with_store()
    # The stale copy refuses to add to the stored game rather than fork it.
    assert not controller.act(controller.match.hand.legal_actions()[-1], controller.ply)
    assert controller.elsewhere and controller.told_elsewhere and not controller.bots_to_act
    assert store.load(controller.game_id or "").match.history == other.match.history


def test_two_windows_whose_bots_race_reopen_without_a_word(store: Store) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    game_id = controller.game_id or ""
    controller.set_pace("normal")
    while not controller.bots_to_act:
        assert controller.act(controller.match.hand.legal_actions()[0], controller.ply)
        controller.hold = False
    # Two windows reopen the game while the bots are to act, one step each.
    first = GameController.resume(TableService(store), game_id, viewer=controller.owner)
    second = GameController.resume(TableService(store), game_id, viewer=controller.owner)
    first.set_pace("normal")
    second.set_pace("normal")
    assert first.step()
    # The second window's bot move is stale: it reopens the game and tells nothing.
    assert not second.step()
    assert second.elsewhere and second.notice is None and not second.told_elsewhere
    again = GameController.resume(TableService(store), game_id, viewer=controller.owner)
    assert not again.moved_by_hand(second.match.history), "only a bot moved elsewhere"


def test_a_move_of_the_players_made_elsewhere_is_news_to_the_other_window(
    store: Store,
) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    earlier = list(controller.match.history)
    controller.act(controller.match.hand.legal_actions()[0], controller.ply)
    again = GameController.resume(
        TableService(store), controller.game_id or "", viewer=controller.owner
    )
    assert again.moved_by_hand(earlier)
    assert not again.moved_by_hand(controller.match.history)


def test_the_summary_holds_the_bots_until_the_next_hand(store: Store) -> None:
    controller, _ = _game(store, seed=3)
    while controller.summary_for is None and not controller.match.is_over:
        if controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            controller.run_bots()
    assert controller.show_summary
    assert not controller.bots_to_act
    assert controller.shown_hand is controller.match.finished[0]
    controller.next_hand()
    assert controller.summary_for is None
    assert controller.shown_hand is controller.match.hand


def test_the_header_numbers_the_hand_whose_summary_is_open(store: Store) -> None:
    """While the summary of hand 1 is up, the header still says hand 1, not the next."""
    controller, _ = _game(store, seed=3)
    assert controller.shown_hand_number == 1
    while controller.summary_for is None and not controller.match.is_over:
        if controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            controller.run_bots()
    assert controller.match.hand_number == 2
    assert controller.shown_hand_number == 1
    controller.next_hand()
    assert controller.shown_hand_number == 2


def _check_view(controller: GameController, view: TableView) -> None:
    """The view is the human seat's observation of the hand on the table, with exactly the
    controller's answers about it, and no hand state anywhere in it."""
    assert not any(isinstance(getattr(view, f.name), HandState) for f in fields(view))
    assert view.obs == controller.shown_hand.observation(HUMAN_SEAT)
    assert view.live == (controller.shown_hand is controller.match.hand)
    assert (view.held, view.human_to_act, view.summary) == (
        controller.held_trick,
        controller.human_to_act,
        controller.show_summary,
    )
    assert view.flash == (controller.flash if view.held is None else None)
    assert set(view.card_why_not) == set(view.obs.hand or ())
    for card, why in view.card_why_not.items():
        assert why == controller.why_not(view.card_action(card))
    for action, why in view.why_not.items():
        assert why == controller.why_not(action)
    match = controller.match
    assert [side.score for side in view.sides] == list(
        match.scores if view.summary else view.obs.scores
    )
    assert [side.bags for side in view.sides] == list(match.bags if view.summary else view.obs.bags)
    assert [side.won for side in view.sides] == [
        sum(controller.shown_hand.tricks_won[t::2]) for t in (0, 1)
    ]
    assert [side.key for side in view.sides] == ["team_us", "team_them"]
    assert view.can_claim == controller.can_claim()
    tricks = controller.shown_hand.tricks
    assert view.last_trick == (tricks[-1] if tricks else None)


def test_the_table_view_is_what_the_human_seat_sees_at_every_beat() -> None:
    controller, clock = _game(None, pace="fast", seed=8)
    summaries = holds = 0
    while not controller.match.is_over and len(controller.match.finished) < 2:
        clock.now += 2
        view = controller.view()
        _check_view(controller, view)
        summaries += view.summary
        holds += view.held is not None
        if controller.show_summary:
            controller.next_hand()
        elif controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            _paced_beat(controller)
    assert summaries and holds


def test_a_trick_taken_with_a_trump_is_told_apart() -> None:
    ruffed = Trick(0, tuple(parse_card(c) for c in ("AH", "2S", "KH", "3H")), 1)
    led = Trick(0, tuple(parse_card(c) for c in ("2S", "AS", "3S", "4S")), 1)
    followed = Trick(0, tuple(parse_card(c) for c in ("2H", "AH", "3H", "4H")), 1)
    assert trump_taker(ruffed, Rules()) == 1
    assert trump_taker(led, Rules()) is None
    assert trump_taker(followed, Rules()) is None


def test_finished_hands_are_the_public_record_of_each_hand() -> None:
    controller, _ = _game(None, seed=4)
    match = controller.match
    while not match.is_over:
        if controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        elif controller.show_summary:
            controller.next_hand()
        else:
            controller.run_bots()
    record = finished_hands(match)
    assert [h.number for h in record] == list(range(1, len(match.finished) + 1))
    assert [h.score for h in record] == match.score_history()
    assert [h.result for h in record] == match.results
    for hand, state in zip(record, match.finished, strict=True):
        assert (hand.dealer, hand.claimed_by) == (state.dealer, state.claimed_by)
        assert list(hand.bids) == state.bids and list(hand.blind) == state.blind
        assert list(hand.tricks_won) == state.tricks_won and list(hand.tricks) == state.tricks


def test_a_reloaded_fresh_hand_shows_the_last_summary_again(store: Store) -> None:
    controller, clock = _game(store, seed=3, pace="normal")
    while controller.summary_for is None:
        clock.now += 2
        if controller.human_to_act:
            controller.act(_human_move(controller), controller.ply)
        else:
            _paced_beat(controller)
    again = GameController.resume(
        TableService(store), controller.game_id or "", viewer=controller.owner
    )
    assert again.summary_for == 0


def test_the_hint_is_a_legal_action_with_a_reason() -> None:
    controller, _ = _game(None)
    _to_first_play(controller)
    controller.ask_hint(controller.ply)
    hint = controller.current_hint()
    assert hint is not None
    assert hint.action in controller.match.hand.legal_actions()
    assert hint.reason
    controller.act(hint.action, controller.ply)
    assert controller.current_hint() is None


def test_claim_is_offered_exactly_when_the_engine_allows_it() -> None:
    # Play random matches until the human holds a claimable position.
    for seed in range(40):
        controller, _ = _game(None, seed=seed)
        while not controller.match.is_over:
            if controller.summary_for is not None:
                controller.next_hand()
            elif controller.human_to_act:
                hand = controller.match.hand
                assert controller.can_claim() == (hand.phase is Phase.PLAYING and hand.can_claim())
                if controller.can_claim():
                    tricks_left = 13 - len(hand.tricks)
                    won = hand.tricks_won[HUMAN_SEAT]
                    assert controller.act(CLAIM, controller.ply)
                    finished = controller.match.finished[-1]
                    assert finished.tricks_won[HUMAN_SEAT] == won + tricks_left
                    return
                controller.act(_human_move(controller), controller.ply)
            else:
                controller.run_bots()
    pytest.fail("no claimable position in 40 matches")


def test_card_clicks_pass_cards_in_the_exchange() -> None:
    rules = Rules(blind_nil_deficit=0, blind_nil_exchange=True)
    controller = GameController.new(
        rules, seed=4, player_name="Ada", bot_levels=LEVELS, undo_allowed=True
    )
    controller.set_pace("instant")
    controller.run_bots()
    assert controller.act(BLIND_NIL, controller.ply)
    controller.run_bots()
    assert controller.match.hand.phase is Phase.EXCHANGE
    assert controller.human_to_act
    card = controller.match.hand.hand(HUMAN_SEAT)[0]
    action = hand_card_action(controller.match.hand.phase, card)
    assert action == EXCHANGE_BASE + card
    assert controller.act(action, controller.ply)


def test_replaying_the_match_gives_the_same_position() -> None:
    controller, _ = _game(None, seed=8)
    _to_first_play(controller)
    replay = Match.replay(Rules(), seed=8, actions=controller.match.history)
    assert replay.hand.hand(HUMAN_SEAT) == controller.match.hand.hand(HUMAN_SEAT)


# ------------------------------------------------------------- ownership and stale writes
def test_nothing_is_stored_until_the_human_acts(store: Store) -> None:
    controller, _ = _game(store)
    assert controller.match.history, "the bots before South have bid"
    assert controller.game_id is None
    assert not store.list_games()
    assert controller.act(_human_move(controller), controller.ply)
    assert controller.game_id is not None
    assert store.load(controller.game_id).match.history == controller.match.history
    assert store.game_info(controller.game_id).owner == controller.owner


@pytest.mark.parametrize("stranger", ["another player", "nobody"])
def test_another_players_game_opens_read_only(store: Store, stranger: str) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    game_id = controller.game_id or ""
    viewer = store.new_player("Eve")[0] if stranger == "another player" else None
    watcher = GameController.resume(TableService(store), game_id, viewer=viewer)
    watcher.set_pace("instant")
    assert watcher.read_only
    assert not watcher.human_to_act and not watcher.bots_to_act
    assert not watcher.act(controller.match.hand.legal_actions()[0], watcher.ply)
    assert watcher.notice is not None and watcher.notice.text.startswith(READ_ONLY)
    assert not watcher.run_bots()
    assert not watcher.can_undo()
    assert not watcher.undo(watcher.ply)
    assert store.load(game_id).match.history == controller.match.history


def test_a_move_the_store_refuses_is_not_made(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller, _ = _game(store)
    _to_first_play(controller)
    before = list(controller.match.history)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise StoreUnavailable("read_only")

    monkeypatch.setattr(Tables, "act", refuse)
    assert not controller.act(controller.match.hand.legal_actions()[0], controller.ply)
    assert controller.match.history == before
    assert controller.notice is not None and controller.notice.kind == "error"
    monkeypatch.undo()
    assert controller.in_step_with_store()
    assert controller.act(controller.match.hand.legal_actions()[0], controller.ply)


def _window(store: Store, game_id: str, owner: str | None, clock: FakeClock) -> GameController:
    """One browser window on the game; its check for other windows is made to pass, as when
    another window writes between that check and this window's write."""
    window = GameController.resume(TableService(store), game_id, viewer=owner, clock=clock)
    window.set_pace("normal")
    window.in_step_with_store = lambda: True  # type: ignore[method-assign]
    return window


def _beat(window: GameController, rng: random.Random) -> None:
    """Whatever the window's player or bots would do next."""
    window.hold = False
    if window.summary_for is not None:
        window.next_hand()
    elif window.human_to_act:
        window.act(rng.choice(window.match.hand.legal_actions()), window.ply)
    else:
        window.step()


def _two_windows_play(store: Store, game_id: str, owner: str | None, seed: int) -> int:
    """Two windows of one player take turns at random; returns how many moves were
    refused as stale. Every stale window reopens the stored game, as the page does."""
    rng = random.Random(seed)
    clock = FakeClock()
    windows = [_window(store, game_id, owner, clock) for _ in range(2)]
    refused = 0
    for _ in range(120):
        index = rng.randrange(2)
        window = windows[index]
        ply = window.ply
        _beat(window, rng)
        stored = store.load(game_id).match.history
        if window.elsewhere:
            refused += 1
            assert len(stored) > ply
            windows[index] = _window(store, game_id, owner, clock)
        elif window.ply > ply:
            # What the window made is what was stored (another server may have gone on).
            assert stored[: window.ply] == window.match.history
        if window.match.is_over:
            break
    return refused


def test_two_windows_never_store_two_actions_for_one_ply(store: Store) -> None:
    controller, _ = _game(store, seed=21)
    _to_first_play(controller)
    game_id = controller.game_id or ""
    refused = _two_windows_play(store, game_id, controller.owner, seed=1)
    assert refused > 0, "the windows raced: some of their moves must have been stale"
    replay = store.load(game_id).match
    assert len(replay.history) == store.game_info(game_id).actions_count


def test_two_windows_on_two_threads_never_fork_the_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first = Store(url, rater=RATER)
    controller, _ = _game(first, seed=33)
    _to_first_play(controller)
    game_id = controller.game_id or ""
    errors: list[BaseException] = []

    def play(seed: int) -> None:
        # Each thread is its own server: its own store on the one database file.
        own = Store(url, rater=RATER)
        try:
            _two_windows_play(own, game_id, controller.owner, seed)
        except BaseException as err:  # reported below, with the thread's failure
            errors.append(err)
        finally:
            own.close()

    threads = [threading.Thread(target=play, args=(seed,)) for seed in (2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    replay = first.load(game_id).match
    assert len(replay.history) == first.game_info(game_id).actions_count
    first.close()


def _to_trick_on_show(controller: GameController, clock: FakeClock) -> None:
    """Play on, the human taking the first legal action, until a finished trick is held."""
    while not controller.hold:
        if controller.human_to_act:
            assert controller.act(_human_move(controller), controller.ply)
        else:
            clock.now += 5
            _paced_beat(controller)


@pytest.mark.parametrize("pace", ["instant", "fast"])
def test_a_finished_trick_stays_the_time_the_player_sets_at_every_pace(pace: str) -> None:
    controller, clock = _game(None, pace=pace)
    controller.set_comforts(trick_stay="3", auto_play=False)
    _to_trick_on_show(controller, clock)
    shown = controller.held_trick
    controller.drawn()
    clock.now += 2.9
    assert not controller.tick() and not controller.run_bots()
    assert controller.held_trick is shown, "the trick is still on the table"
    clock.now += 0.2
    assert controller.tick() and not controller.hold


def test_a_finished_trick_waits_for_a_tap_when_the_player_asks() -> None:
    controller, clock = _game(None, pace="instant")
    controller.set_comforts(trick_stay="tap", auto_play=False)
    _to_trick_on_show(controller, clock)
    assert controller.waits_for_tap and not controller.busy, "no timer runs meanwhile"
    controller.drawn()
    clock.now += 3600
    assert not controller.tick() and controller.hold
    assert controller.view().waits_for_tap
    ply = controller.ply
    controller.gather()
    assert not controller.hold
    assert controller.ply > ply or controller.human_to_act, "play went on at once"


@pytest.mark.parametrize("auto_play", [True, False])
def test_a_forced_card_plays_itself_only_for_a_player_who_asks(auto_play: bool) -> None:
    controller, clock = _game(None, pace="fast", seed=2)
    controller.set_comforts(trick_stay="pace", auto_play=auto_play)
    forced_seen = 0
    while not controller.match.finished:
        clock.now += 5
        legal = controller.match.hand.legal_actions()
        if controller.human_to_act and controller.match.hand.phase is Phase.PLAYING:
            if len(legal) == 1:
                forced_seen += 1
                ply = controller.ply
                for _ in range(2):  # the trick on show goes first, if one is held
                    controller.drawn()
                    clock.now += 5
                    controller.tick()
                    if controller.ply > ply:
                        break
                assert (controller.ply == ply + 1) == auto_play
                if not auto_play:
                    assert controller.act(legal[0], controller.ply)
                continue
            assert controller.forced_card is None
            assert controller.act(legal[0], controller.ply)
        elif controller.human_to_act:
            assert controller.act(_human_move(controller), controller.ply)
        else:
            _paced_beat(controller)
    assert forced_seen, "the hand's last card, at least, is forced"
