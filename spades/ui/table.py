"""The Play page: the table, the bidding, the controls, the summaries and the scoresheet.

The page is drawn from the human's observation only: it gets a
:class:`~spades.app.table_view.TableView` and the public record of the hands that are over,
never a hand's state (:mod:`spades.ui.table_html` turns the view into the table's HTML and
words; :mod:`spades.ui.play_session` keeps the session's game). The table itself is a
fragment that reruns on a timer while the bots have something to do (one bid or card a
beat, at the sidebar's pace) and stops ticking on the human's turn; the rest of the page
reruns when a hand or the match ends. Clicks go to :class:`spades.app.play.GameController` in
``on_click`` callbacks, which the engine checks.

:func:`draw_table` is the one renderer of a seat's table: a shared table's page draws its
seats through it too, with :class:`TableHandlers` that send the clicks to the table.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import streamlit as st

from spades.app import sound
from spades.app.play import GameController
from spades.app.prefs import TablePrefs
from spades.app.table_view import Notice, TableView
from spades.engine.cards import (
    BLIND_NIL,
    CLAIM,
    LOOK,
    Action,
    Card,
    action_card,
    bid_action,
    bid_label,
    bid_of,
    card_label,
)
from spades.ui import finished, identity, keyboard, quick, safe, sidebar, style
from spades.ui.cards import (
    card_key,
    hand_row,
    hidden_hand,
    side_panel,
    spoken,
    suit_marks,
    trick_cards_html,
    trick_view,
)
from spades.ui.faults import store_faults
from spades.ui.play_session import (
    CONTROLLER_KEY,
    OFFER_KEY,
    acting_game,
    current,
    link,
    open_game,
    rematch,
    session_game,
    start_game,
)
from spades.ui.table_html import (
    announcement,
    center_html,
    seat_views,
    status,
)

CONFIRM_KEY: Final = "play_confirm_new_game"
#: How often a watched game looks for its owner's moves.
WATCH_SECONDS: Final = 1.0
SOUND_KEY: Final = "play_sound"
#: The game whose win was last celebrated (the balloons rise once a match).
CELEBRATED_KEY: Final = "play_celebrated"
#: How many times the table has been drawn in this session (the browser's script watches it).
RUN_KEY: Final = "play_table_runs"


@dataclass(frozen=True, slots=True)
class TableHandlers:
    """What the clicks on a drawn table do. Each gets the ``ply`` of the view it was drawn
    from, so a click on a table that has moved on since can be refused."""

    #: A bid, blind nil, the look, a claim, or a card's action (played or passed).
    act: Callable[[Action, int], None]
    #: Show or hide the last trick, ask for a hint, and take the last move back; None
    #: where they are not offered.
    last_trick: Callable[[], None] | None = None
    hint: Callable[[int], None] | None = None
    undo: Callable[[int], None] | None = None
    #: Send the finished trick on show to its winner, where tricks wait for a tap.
    gather: Callable[[], None] | None = None


# ----------------------------------------------------------------- callbacks
def _on_card(
    act: Callable[[Action, int], None], action_of: Callable[[Card], Action], ply: int, card: Card
) -> None:
    act(action_of(card), ply)


def _on_action(action: int, ply: int) -> None:
    controller = acting_game()
    if controller is not None:
        controller.act(action, ply)


def _on_undo(ply: int) -> None:
    controller = acting_game()
    if controller is not None:
        controller.undo(ply)


def _on_hint(ply: int) -> None:
    session_game().ask_hint(ply)


def _on_last_trick() -> None:
    controller = session_game()
    controller.show_last_trick = not controller.show_last_trick


def _on_gather() -> None:
    controller = acting_game()
    if controller is not None:
        controller.gather()


#: The Play page's clicks: to the session's game.
PLAY_HANDLERS: Final = TableHandlers(
    act=_on_action, last_trick=_on_last_trick, hint=_on_hint, undo=_on_undo, gather=_on_gather
)


def _on_next_hand() -> None:
    session_game().next_hand()


def _on_new_game() -> None:
    try:
        sidebar.settings().rules()
    except ValueError as err:
        session_game().notice = Notice("error", f"Fix the house rules first: {err}")
        return
    if session_game().in_progress:
        # Asked first (see _confirm_new_game): a click must not throw a game away.
        st.session_state[CONFIRM_KEY] = True
        return
    _begin_new_game()


def _begin_new_game() -> None:
    controller = start_game()
    st.session_state[CONTROLLER_KEY] = controller
    st.session_state.pop(OFFER_KEY, None)
    link(controller)


def _on_rematch() -> None:
    controller = rematch(session_game())
    st.session_state[CONTROLLER_KEY] = controller
    st.session_state.pop(OFFER_KEY, None)
    link(controller)


def _on_confirm_new_game() -> None:
    st.session_state.pop(CONFIRM_KEY, None)
    if session_game().abandon():
        _begin_new_game()


def _on_keep_playing() -> None:
    st.session_state.pop(CONFIRM_KEY, None)


def _on_continue(game_id: str) -> None:
    st.session_state.pop(OFFER_KEY, None)
    controller = open_game(game_id)
    controller.set_pace(sidebar.settings().pace)
    st.session_state[CONTROLLER_KEY] = controller
    link(controller)


# -------------------------------------------------------------------- pieces
def _notice(notice: Notice | None, *, four_colour: bool) -> None:
    if notice is None:
        return
    show = {"info": st.info, "warning": st.warning, "error": st.error}[notice.kind]
    show(suit_marks(safe.md(notice.text, limit=400), four_colour=four_colour))


def _bid_button_label(name: str, why: str | None) -> str:
    return f"Bid {name}" if why is None else f"Bid {name}, not allowed: {spoken(why)}"


def _bids(view: TableView, on: TableHandlers) -> dict[str, str]:
    labels: dict[str, str] = {}
    with st.container(key="bids", horizontal=True, gap="small"):
        for key, action in bid_actions(view.obs.rules.hand_size):
            why = view.why_not[action]
            name = bid_label(bid_of(action))
            labels[key] = _bid_button_label(name, why)
            st.button(
                name.capitalize(),
                key=key,
                disabled=why is not None,
                help=why or f"Bid {name}",
                on_click=on.act,
                args=(action, view.ply),
            )
    return labels


def _blind_choice(view: TableView, on: TableHandlers) -> dict[str, str]:
    with st.container(key="blind", horizontal=True, gap="small"):
        why = view.why_not[BLIND_NIL]
        st.button(
            "Blind nil (±200)",
            key="bid_blind_nil",
            disabled=why is not None,
            help=why or "Bid nil without looking at your cards",
            on_click=on.act,
            args=(BLIND_NIL, view.ply),
        )
        st.button(
            "Show my cards",
            key="look",
            disabled=view.why_not[LOOK] is not None,
            on_click=on.act,
            args=(LOOK, view.ply),
        )
    return {"bid_blind_nil": _bid_button_label(bid_label(0, blind=True), why)}


def _controls(view: TableView, on: TableHandlers) -> None:
    ply = view.ply
    with st.container(key="controls", horizontal=True, gap="small"):
        if view.waits_for_tap and on.gather is not None:
            st.button(
                "Next trick",
                key="gather_trick",
                type="primary",
                icon=":material/redo:",
                help="The trick goes to its winner, and play goes on",
                on_click=on.gather,
            )
        if view.hints and on.hint is not None:
            st.button(
                "Hint",
                key="hint",
                icon=":material/lightbulb:",
                disabled=not view.human_to_act,
                help="Suggest a bid or card, with the reason",
                on_click=on.hint,
                args=(ply,),
            )
        if view.can_claim:
            st.button(
                "Claim the rest",
                key="claim",
                type="primary",
                help="You must win every remaining trick, so you may claim them",
                on_click=on.act,
                args=(CLAIM, ply),
            )
        if view.undo_allowed and on.undo is not None:
            st.button(
                "Undo",
                key="undo",
                icon=":material/undo:",
                disabled=not view.can_undo,
                help="Take back your last bid or card with the bots' replies",
                on_click=on.undo,
                args=(ply,),
            )
        if on.last_trick is not None:
            st.button(
                "Hide last trick" if view.show_last_trick else "Last trick",
                key="last_trick",
                disabled=view.last_trick is None,
                on_click=on.last_trick,
            )


def _hint(view: TableView, look: TablePrefs) -> None:
    advice = view.hint
    if advice is None:
        return
    # The reason starts with the suggestion itself ("Bid 3: …", "Play the A♠: …").
    reason = suit_marks(safe.md(advice.reason, limit=300), four_colour=look.four_colour)
    st.info(reason, icon=":material/lightbulb:")
    action = advice.action
    bid = bid_of(action)
    card = action_card(action)
    if card is not None:
        style.highlight(card_key(card, jokers=view.jokers))
    elif bid is not None:
        style.highlight(bid_key(bid))
    elif action == BLIND_NIL:
        style.highlight("bid_blind_nil")


def _exchange_note(view: TableView, look: TablePrefs) -> None:
    """Which cards the human passed to and got from the partner in the exchange."""
    obs = view.obs
    mate = obs.partner
    if not obs.passed or mate is None:
        return
    passed = ", ".join(card_label(c, jokers=view.jokers) for c in obs.passed)
    text = f"You pass {passed} to {view.players[mate]}"
    if obs.received:
        got = ", ".join(card_label(c, jokers=view.jokers) for c in obs.received)
        text += f" and get {got}"
    st.caption(suit_marks(text + ".", four_colour=look.four_colour))


def _last_trick(view: TableView) -> None:
    trick = view.last_trick
    if not view.show_last_trick or trick is None:
        return
    plays = [(view.players[seat], card) for seat, card in trick.plays()]
    with st.container(key="last_trick_view", border=True):
        st.caption(f"Last trick, won by {safe.md(view.players[trick.winner])}")
        st.html(trick_cards_html(plays, jokers=view.jokers))


def _layout(controller: GameController) -> tuple[bool, bool, bool]:
    """What decides the page around the table: ticking, a summary up, the match over."""
    watching = controller.read_only and not controller.is_over
    return (
        (controller.busy and (controller.pace != "instant" or controller.hold)) or watching,
        controller.show_summary,
        controller.is_over and not controller.hold,
    )


def _table_body(layout: tuple[bool, bool, bool]) -> None:
    # A fragment's rerun does not pass through the router's fault boundary.
    with store_faults():
        _table_parts(layout)


def _table_parts(layout: tuple[bool, bool, bool]) -> None:
    controller = session_game()
    # A click inside the table reruns only this fragment: a game first stored by it gets
    # its address here (and a player first made by it their cookie, at the end).
    link(controller)
    controller.tick()
    moved_on = controller.read_only and not controller.in_step_with_store()
    if _layout(controller) != layout or controller.elsewhere or moved_on:
        # The timer must start or stop, a summary or the end screen must open, or the
        # game must be reopened from the store (moved on elsewhere, or by its owner).
        st.rerun(scope="app")
    view = controller.view()
    look = sidebar.table_prefs()
    _sound(controller, look)
    draw_table(view, PLAY_HANDLERS, look)
    controller.drawn()
    # Last, so that the script's element, drawn once a player is made, moves nothing above.
    identity.remember()


def draw_table(view: TableView, on: TableHandlers, look: TablePrefs) -> None:
    """A seat's table, drawn from its view: the sides' panels, the felt with the trick, the
    status line and the seat's cards or bids, and aside the controls, the notice, the hint
    and the last trick. The stylesheet sets the aside beside the felt (below it on a
    phone), so that a hand is played on one screen. Clicks go to ``on``."""
    with st.container(key="table_layout"):
        _side_panels(view)
        _felt(view, look, on)
        with st.container(key="table_aside"):
            _controls(view, on)
            _notice(view.notice, four_colour=look.four_colour)
            _hint(view, look)
            if not view.read_only:
                _exchange_note(view, look)
            _last_trick(view)


def _felt(view: TableView, look: TablePrefs, on: TableHandlers) -> None:
    """The table itself: the trick, the status line, the human's cards or bids, and the
    words a screen reader gets for all of it."""
    with st.container(key="table_felt"):
        held = view.held
        trick_view(
            seat_views(view, look),
            center=center_html(view),
            jokers=view.jokers,
            gather_to=held.winner if held is not None and view.held_winner == "taken" else None,
        )
        with st.container(key="status"):
            line = suit_marks(safe.md(status(view), limit=200), four_colour=look.four_colour)
            st.markdown(f"**{line}**")
        labels = _own_seat(view, on)
        with st.container(key="keys"):
            st.caption(keyboard.HELP)
        runs = st.session_state[RUN_KEY] = st.session_state.get(RUN_KEY, 0) + 1
        playing = view.human_to_act and view.playing
        st.html(
            keyboard.labels_html(labels)
            + quick.run_mark_html(
                runs,
                view.ply,
                "play" if playing else "other",
                [k for k in labels if k.startswith("card_")],
            )
            + '<div class="sp-sr" role="status" aria-live="polite">'
            + html.escape(announcement(view))
            + "</div>"
        )


def _own_seat(view: TableView, on: TableHandlers) -> dict[str, str]:
    """The seat's cards (face down until looked at, and always to a watcher), with the
    bid buttons while bidding; returns each button's key with its accessible name."""
    obs = view.obs
    if view.read_only:
        # A watcher sees the table, never the seat's cards.
        hidden_hand(obs.hand_sizes[view.seat])
        return {}
    if obs.hand is None:
        hidden_hand(obs.hand_sizes[view.seat])
        return _blind_choice(view, on)
    labels: dict[str, str] = {}
    if view.bidding and obs.bids[view.seat] is None:
        labels |= _bids(view, on)
    if view.bidding and view.live:
        # The hand was just dealt: its cards fly in, once, while it is bid.
        st.html(style.deal_css(len(obs.hand)))
    return labels | hand_row(
        obs.hand,
        why_not=view.card_why_not.__getitem__,
        on_click=functools.partial(_on_card, on.act, view.card_action, view.ply),
        jokers=view.jokers,
        # Until the human is to play (or pass) a card, the hand is shown plainly for
        # reading rather than greyed out.
        key="hand" if view.human_to_act and not view.bidding else "hand_waiting",
    )


def _side_panels(view: TableView) -> None:
    with st.container(key="side_panels"):
        for side in view.sides:
            side_panel(
                safe.md(side.name),
                bid=side.bid,
                won=side.won,
                score=side.score,
                bags=side.bags,
                target=view.target,
                key=side.key,
            )


@dataclass(slots=True)
class Sounds:
    """The session's sound state: the table last heard, the clip on the page, clips made."""

    moment: sound.TableMoment | None = None
    clip: bytes | None = None
    made: int = 0


def sounds() -> Sounds:
    """The session's sound state (the Play page's and a shared table's alike)."""
    state = st.session_state.get(SOUND_KEY)
    if not isinstance(state, Sounds):
        state = st.session_state[SOUND_KEY] = Sounds()
    return state


def _sound(controller: GameController, look: TablePrefs) -> None:
    """Play the cues of what happened since the last run, when the player wants sound."""
    state = sounds()
    state.moment, cues = controller.heard(state.moment)
    play_cues(cues, look)


def play_cues(cues: Sequence[str], look: TablePrefs) -> None:
    """Play ``cues`` when the player wants sound; the clip stays on the page until the
    next one, so that a rerun does not cut it short."""
    state = sounds()
    # The knock on the player's turn is a comfort of its own, asked for apart.
    cues = [cue for cue in cues if cue != "turn" or look.turn_sound]
    if not look.sound or look.volume == 0:
        state.clip = None
    elif cues:
        state.made += 1
        # Each clip differs from the one before by a sample, so the browser plays it even
        # when the cues repeat.
        state.clip = sound.clip(tuple(cues), look.volume / 100, tail=state.made % 2)
    if state.clip is not None:
        with st.container(key="table_sound"):
            st.audio(state.clip, format="audio/wav", autoplay=True)


def _table(controller: GameController) -> None:
    layout = _layout(controller)
    beat = WATCH_SECONDS if controller.read_only else controller.beat
    fragment = st.fragment(run_every=beat if layout[0] else None)(_table_body)
    fragment(layout)


# ---------------------------------------------------------- sheets and summaries
def _summary_body() -> None:
    controller = session_game()
    if not controller.show_summary or controller.summary_for is None:
        st.rerun(scope="app")
        return
    finished.hand_summary(controller.players, controller.played_hands()[controller.summary_for])
    st.button("Next hand", key="next_hand", type="primary", width="stretch", on_click=_on_next_hand)


def _summary(controller: GameController) -> None:
    number = (controller.summary_for or 0) + 1
    if controller.flash is not None:
        # The hand's last trick lies on the table for its moment before the summary opens.
        st.html(style.AFTER_THE_LAST_TRICK)
    dialog = st.dialog(f"Hand {number}", width="large", on_dismiss=_on_next_hand)
    dialog(_summary_body)()


def _match_over(controller: GameController) -> None:
    hands = controller.played_hands()
    won = not controller.read_only and controller.human_won
    if won and st.session_state.get(CELEBRATED_KEY) != controller.game_id:
        # Once a match: a rerun or a reload of the end screen does not start it again.
        st.session_state[CELEBRATED_KEY] = controller.game_id
        st.balloons()
    with st.container(key="match_over"):
        st.header(finished.winner_heading(controller))
        reason = finished.reason_words(controller.outcome.words(controller.players))
        st.markdown(
            f"{reason}. Final score after {len(hands)} hands: {finished.final_scores(controller)}."
        )
        if controller.undo_used:
            st.caption("Undo was used in this game.")
        with st.container(horizontal=True):
            if not controller.read_only:
                st.button(
                    "Rematch",
                    key="rematch",
                    type="primary",
                    icon=":material/replay:",
                    help="The same bots and house rules, a new deal",
                    on_click=_on_rematch,
                )
            st.button("New game", key="new_game", on_click=_on_new_game)
        with st.expander(f"The last hand (hand {hands[-1].number})"):
            finished.hand_summary(controller.players, hands[-1])
    finished.scoresheet(hands, controller.players)


def _confirm_body() -> None:
    if not st.session_state.get(CONFIRM_KEY):
        st.rerun(scope="app")
    st.markdown(
        "This game is not over. Give it up and start a new one? "
        "It stays among your games, marked abandoned."
    )
    with st.container(horizontal=True):
        st.button(
            "Give it up and start anew",
            key="confirm_new_game",
            type="primary",
            on_click=_on_confirm_new_game,
        )
        st.button("Keep playing", key="keep_playing", on_click=_on_keep_playing)


def _confirm_new_game() -> None:
    dialog = st.dialog("Start a new game?", on_dismiss=_on_keep_playing)
    dialog(_confirm_body)()


def _resume_offer(controller: GameController) -> None:
    """Offer the player's unfinished game while the table holds a new, untouched one."""
    offered = st.session_state.get(OFFER_KEY)
    if not offered or controller.game_id is not None:
        return
    with st.container(key="resume_offer", horizontal=True, vertical_alignment="center"):
        st.info("You have a game that is not over yet.", icon=":material/history:")
        st.button(
            "Continue it",
            key="continue_game",
            type="primary",
            icon=":material/play_arrow:",
            on_click=_on_continue,
            args=(offered,),
        )


def _header(controller: GameController) -> None:
    with st.container(key="header", horizontal=True, vertical_alignment="center"):
        st.markdown(f"### ♠ Spades · hand {controller.shown_hand_number}")
        marks = [f"first to {controller.rules.target_score}"]
        if controller.undo_used:
            marks.append("undo used")
        st.caption(" · ".join(marks))
        st.button("New game", key="new_game", icon=":material/restart_alt:", on_click=_on_new_game)


def render() -> None:
    """Draw the Play page for the session's game."""
    controller = current()
    chosen = sidebar.render(controller, on_new_game=_on_new_game)
    controller.set_pace(chosen.pace)
    look = sidebar.table_prefs()
    controller.set_comforts(trick_stay=look.trick_stay, auto_play=look.auto_play)
    style.inject(look.felt, look.back, controller.interval, four_colour=look.four_colour)
    if controller.pace == "instant":
        controller.run_bots()
    if controller.is_over and not controller.hold:
        _notice(controller.notice, four_colour=look.four_colour)
        _match_over(controller)
        return
    _resume_offer(controller)
    _header(controller)
    _table(controller)
    finished.scoresheet(controller.played_hands(), controller.players)
    if controller.show_summary:
        _summary(controller)
    elif st.session_state.get(CONFIRM_KEY):
        _confirm_new_game()
    # Last on the page: the scripts' empty elements add no gap above the table.
    keyboard.install()
    quick.install()


def bid_key(bid: int) -> str:
    """The key of the button that bids ``bid`` tricks: ``bid_nil``, ``bid_1`` … ``bid_13``."""
    return "bid_nil" if bid == 0 else f"bid_{bid}"


def bid_actions(tricks: int) -> Sequence[tuple[str, Action]]:
    """(key, action) of every bid button in order: nil, 1 up to the hand's ``tricks``
    (13, or 17 for three players)."""
    return [(bid_key(n), bid_action(n)) for n in range(tricks + 1)]
