"""The Play page: the table, the bidding, the controls, the summaries and the scoresheet.

The page is drawn from the human's observation only. The table itself is a fragment that
reruns on a timer while the bots have something to do (one bid or card a beat, at the
sidebar's pace) and stops ticking on the human's turn; the rest of the page reruns when a
hand or the match ends. Clicks go to :class:`spades.app.play.GameController` in
``on_click`` callbacks, which the engine checks.
"""

from __future__ import annotations

import functools
import html
import re
import secrets
from dataclasses import dataclass
from typing import Final

import streamlit as st

from spades.app import sound
from spades.app.play import (
    HUMAN_SEAT,
    MOVED_ON,
    GameController,
    Notice,
    bid_actions,
    bid_key,
)
from spades.app.prefs import TablePrefs
from spades.cards import (
    BLIND_NIL,
    CLAIM,
    LOOK,
    SEAT_NAMES,
    Card,
    bid_label,
    bid_of,
    card_label,
    card_name,
    is_card,
    partner,
)
from spades.match import Match
from spades.observation import Observation
from spades.rules import Rules
from spades.scoring import HandResult
from spades.state import HandState, Phase, deck_for
from spades.store import StoreError, StoreUnavailable
from spades.ui import identity, keyboard, quick, safe, sidebar, style
from spades.ui.cards import (
    SeatView,
    card_key,
    hand_row,
    hidden_hand,
    spoken,
    team_panel,
    trick_cards_html,
    trick_view,
)
from spades.ui.db import app_store
from spades.ui.faults import store_faults

CONTROLLER_KEY: Final = "play_controller"
CONFIRM_KEY: Final = "play_confirm_new_game"
#: The player's unfinished game, offered when they open the table on a new one.
OFFER_KEY: Final = "play_unfinished"
GAME_ID: Final = re.compile(r"[0-9a-f]{32}")
#: How often a watched game looks for its owner's moves.
WATCH_SECONDS: Final = 1.0
SOUND_KEY: Final = "play_sound"
#: How many times the table has been drawn in this session (the browser's script watches it).
RUN_KEY: Final = "play_table_runs"
#: The teams as the human sees them, by team number (the human sits on team 0).
SIDE_NAMES: Final = ("Us", "Them")


# ---------------------------------------------------------------- the controller
def _start(notice: Notice | None = None) -> GameController:
    chosen = sidebar.settings()
    try:
        rules = chosen.rules()
    except ValueError:
        rules = Rules()
        notice = Notice("warning", "The house rules chosen conflict; this game uses the standard.")
    controller = GameController.new(
        rules,
        seed=secrets.randbelow(2**31),
        player_name=chosen.player_name,
        bot_levels=chosen.levels(),
        undo_allowed=chosen.undo_allowed,
        store=app_store(),
        owner=identity.player_id(),
    )
    controller.set_pace(chosen.pace)
    controller.notice = notice
    return controller


def _open(game_id: str) -> GameController:
    """The game named in the URL, or a new one with a message saying why not."""
    if not GAME_ID.fullmatch(game_id):
        # Never echoed: the value came from a link anyone can craft.
        return _start(Notice("warning", "That link does not name a game. A new game has started."))
    try:
        controller = GameController.resume(app_store(), game_id, viewer=identity.player_id())
    except StoreUnavailable:
        # The store itself is at fault, not the game: the fault page says so.
        raise
    except StoreError as err:
        return _start(
            Notice("warning", f"That game could not be opened ({err}). A new game has started.")
        )
    controller.set_pace(sidebar.settings().pace)
    return controller


def current() -> GameController:
    """The session's game: resumed from the URL's ``game`` id, or a new one."""
    controller = st.session_state.get(CONTROLLER_KEY)
    wanted = st.query_params.get("game")
    if not isinstance(controller, GameController):
        controller = _open(wanted) if wanted else _start()
        player = identity.player_id()
        if not wanted and player is not None:
            st.session_state[OFFER_KEY] = app_store().unfinished_game(player)
    elif wanted and wanted != controller.game_id:
        controller = _open(wanted)
    elif controller.game_id is not None and (
        controller.elsewhere or not controller.in_step_with_store()
    ):
        pace, watching = controller.pace, controller.read_only
        controller = _open(controller.game_id)
        controller.set_pace(pace)
        if not watching:
            controller.notice = Notice("info", MOVED_ON)
    st.session_state[CONTROLLER_KEY] = controller
    _link(controller)
    return controller


def _link(controller: GameController) -> None:
    """Keep the address on the session's game: its id once stored, else no id at all."""
    if controller.game_id is None:
        st.query_params.pop("game", None)
    elif st.query_params.get("game") != controller.game_id:
        st.query_params["game"] = controller.game_id


def _controller() -> GameController:
    controller = st.session_state.get(CONTROLLER_KEY)
    return controller if isinstance(controller, GameController) else current()


def _acting() -> GameController | None:
    """The session's game, about to take the human's move (None when it cannot be kept): a
    new game is stored with its first move, so the player it will belong to must exist."""
    controller = _controller()
    if controller.owner is None and controller.game_id is None:
        try:
            controller.owner = identity.ensure_player(controller.players[HUMAN_SEAT])
        except StoreError as err:
            controller.notice = Notice("error", f"This move could not be saved: {err}")
            return None
    return controller


# ----------------------------------------------------------------- callbacks
def _on_card(ply: int, card: Card) -> None:
    controller = _acting()
    if controller is not None:
        controller.act(controller.card_action(card), ply)


def _on_action(action: int, ply: int) -> None:
    controller = _acting()
    if controller is not None:
        controller.act(action, ply)


def _on_undo(ply: int) -> None:
    controller = _acting()
    if controller is not None:
        controller.undo(ply)


def _on_hint(ply: int) -> None:
    _controller().ask_hint(ply)


def _on_last_trick() -> None:
    controller = _controller()
    controller.show_last_trick = not controller.show_last_trick


def _on_next_hand() -> None:
    _controller().next_hand()


def _on_new_game() -> None:
    try:
        sidebar.settings().rules()
    except ValueError as err:
        _controller().notice = Notice("error", f"Fix the house rules first: {err}")
        return
    if _controller().in_progress:
        # Asked first (see _confirm_new_game): a click must not throw a game away.
        st.session_state[CONFIRM_KEY] = True
        return
    _begin_new_game()


def _begin_new_game() -> None:
    controller = _start()
    st.session_state[CONTROLLER_KEY] = controller
    st.session_state.pop(OFFER_KEY, None)
    _link(controller)


def _on_confirm_new_game() -> None:
    st.session_state.pop(CONFIRM_KEY, None)
    if _controller().abandon():
        _begin_new_game()


def _on_keep_playing() -> None:
    st.session_state.pop(CONFIRM_KEY, None)


def _on_continue(game_id: str) -> None:
    st.session_state.pop(OFFER_KEY, None)
    controller = _open(game_id)
    controller.set_pace(sidebar.settings().pace)
    st.session_state[CONTROLLER_KEY] = controller
    _link(controller)


# -------------------------------------------------------------------- pieces
def seat_views(controller: GameController, hand: HandState, look: TablePrefs) -> list[SeatView]:
    """What each seat shows: name, bid, tricks, its card (the newest slides in, a trump that
    takes a trick shines), cards left, and the known voids when that aid is on."""
    obs = hand.observation(HUMAN_SEAT)
    held = controller.held_trick
    on_table: dict[int, Card] = dict(held.plays()) if held is not None else dict(obs.trick)
    acting = None if held is not None or controller.show_summary else obs.current_player
    # The player's own card is drawn by the browser the moment it is clicked (see
    # spades.ui.quick), so only the bots' cards slide in from the server's drawing.
    fresh = (
        obs.trick[-1][0] if held is None and obs.trick and obs.trick[-1][0] != HUMAN_SEAT else None
    )
    trumped = None
    if held is not None:
        deck = deck_for(hand.rules.jokers)
        winning = dict(held.plays())[held.winner]
        # A trump that takes a trick led in another suit shines a moment.
        if deck.is_trump(winning) and not deck.is_trump(held.cards[0]):
            trumped = held.winner
    voids = obs.known_voids() if look.voids else None
    flash = controller.flash if held is None else None
    flashed = dict(flash.plays()) if flash is not None else {}
    return [
        SeatView(
            name=controller.players[seat],
            bid=bid_label(obs.bids[seat], obs.blind[seat]),
            tricks=obs.tricks_won[seat],
            card=on_table.get(seat),
            to_act=seat == acting,
            dealer=seat == obs.dealer,
            winner=held is not None and held.winner == seat,
            fresh=seat == fresh,
            trumped=seat == trumped,
            voids=tuple(s for s in range(4) if voids[seat] >> s & 1)
            if voids is not None and seat != HUMAN_SEAT
            else None,
            held=obs.hand_sizes[seat] if seat != HUMAN_SEAT else None,
            flash=flashed.get(seat),
            flash_winner=flash is not None and flash.winner == seat,
        )
        for seat in range(4)
    ]


def announcement(controller: GameController, hand: HandState) -> str:
    """The table in words for a screen reader: the trick, whose turn, bids and scores."""
    obs = hand.observation(HUMAN_SEAT)
    jokers = hand.rules.jokers
    held = controller.held_trick
    plays = held.plays() if held is not None else list(obs.trick)
    if plays:
        played = ", ".join(
            f"{controller.players[seat]} {card_name(card, jokers=jokers)}" for seat, card in plays
        )
        trick = f"On the table: {played}."
    else:
        trick = "No card on the table."
    if controller.flash is not None and held is None:
        trick = f"{controller.players[controller.flash.winner]} won the last trick. {trick}"
    scores = "; ".join(
        f"{SIDE_NAMES[team]}: bid {_team_bid(hand, team)}, won "
        f"{obs.tricks_won[team] + obs.tricks_won[team + 2]}, score {hand.scores[team]}"
        for team in (0, 1)
    )
    return f"{trick} {_status(controller, hand)} {scores}."


def _center(hand: HandState) -> str:
    broken = "Spades broken" if hand.spades_broken else "Spades not broken yet"
    jokers = "<div class='sp-marker'>Jokers rank above the A♠</div>" if hand.rules.jokers else ""
    return (
        "<div class='sp-trump' title='Spades are always trump'>♠</div>"
        "<div class='sp-marker'>trump</div>"
        f"<div class='sp-marker'>{broken}</div>{jokers}"
    )


def team_bid_text(bids: tuple[int | None, int | None], blind: tuple[bool, bool]) -> str:
    """A team's bid from its two seats' bids: ``6``, ``4 + nil``, ``nil + blind nil`` or ``—``.

    >>> team_bid_text((4, 0), (False, False)), team_bid_text((0, 0), (False, True))
    ('4 + nil', 'nil + blind nil')
    """
    if all(b is None for b in bids):
        return "—"
    numbers = [b for b in bids if b]
    parts = [str(sum(numbers))] if numbers else []
    parts += [bid_label(b, flag) for b, flag in zip(bids, blind, strict=True) if b == 0]
    return " + ".join(parts)


def _team_bid(hand: HandState, team: int) -> str:
    seats = (team, partner(team))
    return team_bid_text(
        (hand.bids[seats[0]], hand.bids[seats[1]]), (hand.blind[seats[0]], hand.blind[seats[1]])
    )


def _status(controller: GameController, hand: HandState) -> str:
    if controller.held_trick is not None:
        return f"{controller.players[controller.held_trick.winner]} wins the trick."
    if controller.read_only and not controller.match.is_over:
        seat = hand.current_player
        if seat is None:
            return "You are watching this game."
        return f"You are watching: {controller.players[seat]} is to act."
    if controller.show_summary:
        return "The hand is over."
    seat = hand.current_player
    if seat is None:
        return "The hand is over."
    if seat != HUMAN_SEAT:
        doing = {Phase.BIDDING: "bidding", Phase.EXCHANGE: "passing cards"}.get(
            hand.phase, "playing"
        )
        return f"{controller.players[seat]} is {doing}…"
    if hand.phase is Phase.BIDDING:
        if not hand.looked[HUMAN_SEAT]:
            return "Your turn: bid blind nil before you see your cards, or look at them."
        return "Your turn: how many tricks will you take?"
    if hand.phase is Phase.EXCHANGE:
        return "Your turn: pick a card to pass to your partner."
    return "Your turn: play a card."


def _notice(controller: GameController) -> None:
    notice = controller.notice
    if notice is None:
        return
    show = {"info": st.info, "warning": st.warning, "error": st.error}[notice.kind]
    show(safe.md(notice.text, limit=400))


def _bid_button_label(name: str, why: str | None) -> str:
    return f"Bid {name}" if why is None else f"Bid {name}, not allowed: {spoken(why)}"


def _bids(controller: GameController) -> dict[str, str]:
    ply = controller.ply
    labels: dict[str, str] = {}
    with st.container(key="bids", horizontal=True, gap="small"):
        for key, action in bid_actions():
            why = controller.why_not(action)
            name = bid_label(bid_of(action))
            labels[key] = _bid_button_label(name, why)
            st.button(
                name.capitalize(),
                key=key,
                disabled=why is not None,
                help=why or f"Bid {name}",
                on_click=_on_action,
                args=(action, ply),
            )
    return labels


def _blind_choice(controller: GameController) -> dict[str, str]:
    ply = controller.ply
    with st.container(key="blind", horizontal=True, gap="small"):
        why = controller.why_not(BLIND_NIL)
        st.button(
            "Blind nil (±200)",
            key="bid_blind_nil",
            disabled=why is not None,
            help=why or "Bid nil without looking at your cards",
            on_click=_on_action,
            args=(BLIND_NIL, ply),
        )
        st.button(
            "Show my cards",
            key="look",
            disabled=controller.why_not(LOOK) is not None,
            on_click=_on_action,
            args=(LOOK, ply),
        )
    return {"bid_blind_nil": _bid_button_label(bid_label(0, blind=True), why)}


def _controls(controller: GameController) -> None:
    ply = controller.ply
    with st.container(key="controls", horizontal=True, gap="small"):
        st.button(
            "Hint",
            key="hint",
            icon=":material/lightbulb:",
            disabled=not controller.human_to_act,
            help="Suggest a bid or card, with the reason",
            on_click=_on_hint,
            args=(ply,),
        )
        if controller.can_claim():
            st.button(
                "Claim the rest",
                key="claim",
                type="primary",
                help="You must win every remaining trick, so you may claim them",
                on_click=_on_action,
                args=(CLAIM, ply),
            )
        if controller.undo_allowed:
            st.button(
                "Undo",
                key="undo",
                icon=":material/undo:",
                disabled=not controller.can_undo(),
                help="Take back your last bid or card with the bots' replies",
                on_click=_on_undo,
                args=(ply,),
            )
        st.button(
            "Hide last trick" if controller.show_last_trick else "Last trick",
            key="last_trick",
            disabled=controller.last_trick() is None,
            on_click=_on_last_trick,
        )


def _hint(controller: GameController) -> None:
    advice = controller.current_hint()
    if advice is None:
        return
    # The reason starts with the suggestion itself ("Bid 3: …", "Play the A♠: …").
    st.info(safe.md(advice.reason, limit=300), icon=":material/lightbulb:")
    action = advice.action
    bid = bid_of(action)
    if is_card(action):
        style.highlight(card_key(action, jokers=controller.rules.jokers))
    elif bid is not None:
        style.highlight(bid_key(bid))
    elif action == BLIND_NIL:
        style.highlight("bid_blind_nil")


def _exchange_note(controller: GameController, obs: Observation) -> None:
    """Which cards the human passed to and got from the partner in the exchange."""
    if not obs.passed:
        return
    jokers = controller.rules.jokers
    passed = ", ".join(card_label(c, jokers=jokers) for c in obs.passed)
    text = f"You pass {passed} to {controller.players[obs.partner]}"
    if obs.received:
        got = ", ".join(card_label(c, jokers=jokers) for c in obs.received)
        text += f" and get {got}"
    st.caption(text + ".")


def _last_trick(controller: GameController) -> None:
    trick = controller.last_trick()
    if not controller.show_last_trick or trick is None:
        return
    jokers = controller.rules.jokers
    plays = [(controller.players[seat], card) for seat, card in trick.plays()]
    with st.container(key="last_trick_view", border=True):
        st.caption(f"Last trick, won by {safe.md(controller.players[trick.winner])}")
        st.html(trick_cards_html(plays, jokers=jokers))


def _layout(controller: GameController) -> tuple[bool, bool, bool]:
    """What decides the page around the table: ticking, a summary up, the match over."""
    watching = controller.read_only and not controller.match.is_over
    return (
        (controller.busy and (controller.pace != "instant" or controller.hold)) or watching,
        controller.show_summary,
        controller.match.is_over and not controller.hold,
    )


def _table_body(layout: tuple[bool, bool, bool]) -> None:
    # A fragment's rerun does not pass through the router's fault boundary.
    with store_faults():
        _table_parts(layout)


def _table_parts(layout: tuple[bool, bool, bool]) -> None:
    controller = _controller()
    # A click inside the table reruns only this fragment: a game first stored by it gets
    # its address here (and a player first made by it their cookie, at the end).
    _link(controller)
    controller.tick()
    moved_on = controller.read_only and not controller.in_step_with_store()
    if _layout(controller) != layout or controller.elsewhere or moved_on:
        # The timer must start or stop, a summary or the end screen must open, or the
        # game must be reopened from the store (moved on elsewhere, or by its owner).
        st.rerun(scope="app")
    hand = controller.shown_hand
    obs = hand.observation(HUMAN_SEAT)
    jokers = controller.rules.jokers
    match = controller.match
    look = sidebar.table_prefs()
    _sound(controller, look)
    left, right = st.columns([3, 1], gap="medium")
    with left:
        with st.container(key="table_felt"):
            held = controller.held_trick
            trick_view(
                seat_views(controller, hand, look),
                center=_center(hand),
                jokers=jokers,
                gather_to=held.winner if held is not None else None,
            )
            with st.container(key="status"):
                st.markdown(f"**{safe.md(_status(controller, hand), limit=200)}**")
            labels: dict[str, str] = {}
            if controller.read_only:
                # A watcher sees the table, never the seat's cards.
                hidden_hand(obs.hand_sizes[HUMAN_SEAT])
            elif obs.hand is None:
                hidden_hand(obs.hand_sizes[HUMAN_SEAT])
                labels |= _blind_choice(controller)
            else:
                if hand.phase is Phase.BIDDING and obs.bids[HUMAN_SEAT] is None:
                    labels |= _bids(controller)
                if hand.phase is Phase.BIDDING and hand is match.hand:
                    # The hand was just dealt: its cards fly in, once, while it is bid.
                    st.html(style.deal_css(len(obs.hand)))
                labels |= hand_row(
                    obs.hand,
                    why_not=lambda card: controller.why_not(controller.card_action(card)),
                    on_click=functools.partial(_on_card, controller.ply),
                    jokers=jokers,
                    # Until the human is to play (or pass) a card, the hand is shown plainly
                    # for reading rather than greyed out.
                    key="hand"
                    if controller.human_to_act and hand.phase is not Phase.BIDDING
                    else "hand_waiting",
                )
            with st.container(key="keys"):
                st.caption(keyboard.HELP)
            runs = st.session_state[RUN_KEY] = st.session_state.get(RUN_KEY, 0) + 1
            playing = controller.human_to_act and hand.phase is Phase.PLAYING
            st.html(
                keyboard.labels_html(labels)
                + quick.run_mark_html(runs, "play" if playing else "other")
                + '<div class="sp-sr" role="status" aria-live="polite">'
                + html.escape(announcement(controller, hand))
                + "</div>"
            )
        _notice(controller)
        _hint(controller)
        if not controller.read_only:
            _exchange_note(controller, obs)
        _controls(controller)
        _last_trick(controller)
    with right:
        for team in (0, 1):
            team_panel(
                SIDE_NAMES[team],
                bid=_team_bid(hand, team),
                won=obs.tricks_won[team] + obs.tricks_won[team + 2],
                score=match.scores[team] if controller.show_summary else hand.scores[team],
                bags=match.bags[team] if controller.show_summary else hand.bags[team],
                target=controller.rules.target_score,
                key=f"team_{'us' if team == 0 else 'them'}",
            )
    controller.drawn()
    # Last, so that the script's element, drawn once a player is made, moves nothing above.
    identity.remember()


@dataclass(slots=True)
class _Sounds:
    """The session's sound state: the table last heard, the clip on the page, clips made."""

    moment: sound.TableMoment | None = None
    clip: bytes | None = None
    made: int = 0


def _sound(controller: GameController, look: TablePrefs) -> None:
    """Play the cues of what happened since the last run, when the player wants sound."""
    state = st.session_state.get(SOUND_KEY)
    if not isinstance(state, _Sounds):
        state = st.session_state[SOUND_KEY] = _Sounds()
    now = sound.moment(controller.match, holding=controller.hold, game=controller.game_id)
    cues = sound.cues_between(state.moment, now, controller.match)
    state.moment = now
    if not look.sound or look.volume == 0:
        state.clip = None
    elif cues:
        state.made += 1
        # Each clip differs from the one before by a sample, so the browser plays it even
        # when the cues repeat; it stays on the page until the next one, so that a rerun
        # does not cut it short.
        state.clip = sound.clip(cues, look.volume / 100, tail=state.made % 2)
    if state.clip is not None:
        with st.container(key="table_sound"):
            st.audio(state.clip, format="audio/wav", autoplay=True)


def _table(controller: GameController) -> None:
    layout = _layout(controller)
    beat = WATCH_SECONDS if controller.read_only else controller.beat
    fragment = st.fragment(run_every=beat if layout[0] else None)(_table_body)
    fragment(layout)


# ---------------------------------------------------------- sheets and summaries
def scoresheet_rows(match: Match) -> list[dict[str, int | str]]:
    """One row a finished hand: each team's bid, tricks, points, score and bags."""
    rows: list[dict[str, int | str]] = []
    totals = match.score_history()
    for number, (hand, result) in enumerate(zip(match.finished, match.results, strict=True)):
        row: dict[str, int | str] = {"Hand": number + 1, "Dealer": SEAT_NAMES[hand.dealer]}
        for team, name in enumerate(SIDE_NAMES):
            t = result.teams[team]
            row[f"{name} bid"] = _team_bid(hand, team)
            row[f"{name} won"] = t.tricks
            row[f"{name} points"] = t.points
            row[f"{name} score"] = totals[number][team]
            row[f"{name} bags"] = t.bags_after
        rows.append(row)
    return rows


def _scoresheet(match: Match) -> None:
    rows = scoresheet_rows(match)
    with st.container(key="scoresheet"):
        st.subheader("Scoresheet")
        if rows:
            st.dataframe(rows, hide_index=True, width="stretch")
        else:
            st.caption("The scores of each hand appear here.")


def _hand_summary(controller: GameController, index: int) -> None:
    hand = controller.match.finished[index]
    result: HandResult = controller.match.results[index]
    score = controller.match.score_history()[index]
    seats = [
        {
            "Seat": controller.players[seat],
            "Bid": bid_label(hand.bids[seat], hand.blind[seat]),
            "Won": hand.tricks_won[seat],
        }
        for seat in range(4)
    ]
    st.dataframe(seats, hide_index=True, width="stretch")
    if hand.claimed_by is not None:
        st.caption(f"{safe.md(controller.players[hand.claimed_by])} claimed the last tricks.")
    columns = st.columns(2)
    for team, column in enumerate(columns):
        t = result.teams[team]
        with column, st.container(key=f"summary_{'us' if team == 0 else 'them'}", border=True):
            st.markdown(f"**{SIDE_NAMES[team]}: bid {_team_bid(hand, team)} | won {t.tricks}**")
            for line in t.lines:
                st.markdown(f"- {line.text}: **{line.points:+d}**")
            if not t.lines:
                st.markdown("- no points")
            st.markdown(
                f"Points this hand **{t.points:+d}** · score **{score[team]}** · "
                f"bags {t.bags_before} → {t.bags_after}"
                + (f" · penalty −{t.penalty}" if t.penalty else "")
            )


def _summary_body() -> None:
    controller = _controller()
    if not controller.show_summary or controller.summary_for is None:
        st.rerun(scope="app")
        return
    _hand_summary(controller, controller.summary_for)
    st.button("Next hand", key="next_hand", type="primary", width="stretch", on_click=_on_next_hand)


def _summary(controller: GameController) -> None:
    number = (controller.summary_for or 0) + 1
    if controller.flash is not None:
        # The hand's last trick lies on the table for its moment before the summary opens.
        st.html(style.AFTER_THE_LAST_TRICK)
    dialog = st.dialog(f"Hand {number}", width="large", on_dismiss=_on_next_hand)
    dialog(_summary_body)()


def _match_over(controller: GameController) -> None:
    match = controller.match
    with st.container(key="match_over"):
        if match.winner is None:
            st.header("A shared game")
        elif match.winner == 0:
            st.header(":material/trophy: You and your partner win!")
        else:
            st.header("East and West win this time")
        st.markdown(
            f"{match.outcome.reason}. Final score: us **{match.scores[0]}**, "
            f"them **{match.scores[1]}**."
        )
        if controller.undo_used:
            st.caption("Undo was used in this game.")
        st.button("New game", key="new_game", type="primary", on_click=_on_new_game)
        with st.expander(f"The last hand (hand {len(match.finished)})"):
            _hand_summary(controller, len(match.finished) - 1)
    _scoresheet(match)


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
    match = controller.match
    with st.container(key="header", horizontal=True, vertical_alignment="center"):
        st.markdown(f"### ♠ Spades · hand {match.hand_number}")
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
    style.inject(look.felt, look.back, controller.interval)
    if controller.pace == "instant":
        controller.run_bots()
    if controller.match.is_over and not controller.hold:
        _notice(controller)
        _match_over(controller)
        return
    _resume_offer(controller)
    _header(controller)
    _table(controller)
    _scoresheet(controller.match)
    if controller.show_summary:
        _summary(controller)
    elif st.session_state.get(CONFIRM_KEY):
        _confirm_new_game()
    # Last on the page: the scripts' empty elements add no gap above the table.
    keyboard.install()
    quick.install()
