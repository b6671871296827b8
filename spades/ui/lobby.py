"""The Lobby and a shared table's page: friends and bots at one match, live.

Everything shown comes from :mod:`spades.app.tables`, for this browser's seat only. The page
keeps the seat tokens the browser holds (one cookie a table, which the server sets
``HttpOnly``, see :mod:`spades.ui.cookies`, so a reload or a reopened link puts the person
back in their seat) and nothing else: any server can draw any page.
The server's news of the table (:mod:`spades.ui.table_news`) reruns a fragment the moment
another seat's move is stored, and the page's script reruns it now and then besides (once
a second when the news cannot be heard): the fragment moves the table on (the bots at the
table's pace) and reads it again only when the table's version has moved (one number).
Refusals and database faults are drawn inside that fragment, in plain words, where the
person is looking; the server sweeps idle tables on a clock of its own.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from typing import Final
from urllib.parse import urlsplit

import streamlit as st

from spades.app.cookies import SEAT_COOKIE_PREFIX, seat_cookie
from spades.app.errors import StoreError, StoreUnavailable
from spades.app.site import Site
from spades.app.table_view import Notice, side_names
from spades.app.tables import (
    DEFAULT_BOT,
    MAX_OPEN,
    TABLE_PACES,
    TURN_LIMIT,
    SharedView,
    Sweeper,
    TableInfo,
    TableRefusal,
    TableService,
    closed_for_idleness,
    tidy_name,
)
from spades.bots import bot_names
from spades.bots.hint import Hint
from spades.engine.cards import (
    SEAT_NAMES,
    Action,
)
from spades.engine.rules import PRESETS
from spades.ui import (
    cookies,
    finished,
    identity,
    keyboard,
    quick,
    safe,
    sidebar,
    style,
    table_news,
)
from spades.ui.db import app_site
from spades.ui.faults import fault
from spades.ui.points import points
from spades.ui.table import TableHandlers, draw_table, play_cues, sounds

TABLE_PARAM: Final = "table"
TOKENS_KEY: Final = "table_tokens"
NOTICE_KEY: Final = "table_notice"
VIEW_KEY: Final = "table_view"
NAME_KEY: Final = "lobby_name"
PRESET_KEY: Final = "lobby_preset"
LIMIT_KEY: Final = "lobby_turn_limit"
PACE_KEY: Final = "lobby_pace"
PUBLIC_KEY: Final = "lobby_public"
HINTS_KEY: Final = "lobby_hints"
UNDO_KEY: Final = "lobby_undo"
#: The hint each table's page asked for, with the table's version it is for.
HINT_KEY: Final = "table_hint"
CLOSING_KEY: Final = "table_closing"
#: The tables whose last trick this page shows, and the hands whose summary it has shown.
LAST_TRICK_KEY: Final = "table_last_trick"
SEEN_KEY: Final = "table_hands_seen"
#: The hand (table, game, count) whose summary the last whole run of the page drew (absent
#: when it drew none).
SHOWN_KEY: Final = "table_summary_shown"
#: Set while a whole run of the page draws the table's fragment (not the fragment alone).
WHOLE_RUN_KEY: Final = "table_whole_run"
HAND_OVER_KEY: Final = "table_hand_over"
#: Seconds a refused click's reason stays at least, once the table has moved on.
NOTICE_SECONDS: Final = 4.0
#: The times for a move a table's creator picks from, in seconds.
LIMITS: Final = (15, 30, 60, 120)


def _service() -> TableService:
    site = app_site()
    _sweeping(site.url)
    return site.tables()


@st.cache_resource(show_spinner=False)
def _sweeping(url: str) -> Sweeper:
    """The server's sweeper of idle tables, one per database, started with the first page
    that asks for the tables."""
    return Sweeper(Site.of(url).tables()).start()


# ------------------------------------------------------------------ seat tokens
def _tokens() -> dict[str, str]:
    found = st.session_state.get(TOKENS_KEY)
    if not isinstance(found, dict):
        found = st.session_state[TOKENS_KEY] = {}
    return found


def _token(table_id: str) -> str | None:
    token = _tokens().get(table_id) or st.context.cookies.get(SEAT_COOKIE_PREFIX + table_id)
    return token if isinstance(token, str) and len(token) <= 64 else None


def _keep(table_id: str, token: str) -> None:
    """This session holds the seat of ``token``, and owes the browser its cookie."""
    _tokens()[table_id] = token
    cookies.owe(seat_cookie(table_id, token))


def _refused(err: Exception, table_id: str | None = None) -> None:
    """A click at the lobby, or at ``table_id``, was refused: say why where the person looks.

    At a table the reason stays while the table stands where it stood when the click was
    refused, and for :data:`NOTICE_SECONDS` at least, so that a run of the page cut short
    by the next (the table's news, the page's look) cannot take it away unseen."""
    version = None
    if table_id is not None:
        with suppress(TableRefusal, StoreError):
            version = _service().version(table_id)
    st.session_state[NOTICE_KEY] = (table_id, version, time.monotonic(), str(err))


def _refusal(table_id: str | None, version: int | None = None) -> str | None:
    """The reason of the last click refused, to show on the lobby (``table_id`` None: any,
    once) or at ``table_id``, now that it stands at ``version`` (see :func:`_refused`)."""
    found = st.session_state.get(NOTICE_KEY)
    if not isinstance(found, tuple):
        return None
    at, then, when, text = found
    if table_id is None:
        st.session_state.pop(NOTICE_KEY, None)
        return str(text)
    if at not in (table_id, None):
        return None
    if then != version and time.monotonic() - when > NOTICE_SECONDS:
        st.session_state.pop(NOTICE_KEY, None)  # seen, and the table has moved on since
        return None
    return str(text)


def _notice(table_id: str | None = None, version: int | None = None) -> None:
    text = _refusal(table_id, version)
    if text:
        st.warning(safe.md(text, limit=300), icon=":material/block:")


def _name() -> str:
    """The name typed in (invisible and control characters dropped), or else the one this
    browser's player already goes by."""
    cleaned = tidy_name(str(st.session_state.get(NAME_KEY) or ""))
    if cleaned:
        return cleaned
    player = identity.player_id()
    return app_site().player_name(player) if player is not None else "You"


def _name_input() -> None:
    st.text_input("Your name", key=NAME_KEY, max_chars=40, placeholder="You")


# ------------------------------------------------------------------ callbacks
def _on_create() -> None:
    preset = next((p for p in PRESETS if p.name == st.session_state.get(PRESET_KEY)), PRESETS[0])
    try:
        player = identity.ensure_player(_name())
        limit = st.session_state.get(LIMIT_KEY, TURN_LIMIT)
        table_id, token = _service().create(
            player,
            _name(),
            preset.rules,
            turn_limit=limit if limit in LIMITS else TURN_LIMIT,
            public=bool(st.session_state.get(PUBLIC_KEY, False)),
            hints=bool(st.session_state.get(HINTS_KEY, False)),
            undo=bool(st.session_state.get(UNDO_KEY, False)),
            pace=str(st.session_state.get(PACE_KEY, "normal")),
            client=st.context.ip_address,
        )
    except (TableRefusal, StoreError) as err:
        _refused(err)
        return
    _keep(table_id, token)
    st.query_params[TABLE_PARAM] = table_id


def _on_join(table_id: str, seat: int) -> None:
    try:
        player = identity.ensure_player(_name())
        token = _service().join(table_id, seat, player, _name())
    except (TableRefusal, StoreError) as err:
        _refused(err, table_id)
        return
    _keep(table_id, token)
    st.query_params[TABLE_PARAM] = table_id


def _on_seat_bot(table_id: str, seat: int) -> None:
    level = str(st.session_state.get(f"bot_level_{seat}", DEFAULT_BOT))
    _asked(lambda service, token: service.seat_bot(table_id, token, seat, level), table_id)


def _on_remove(table_id: str, seat: int) -> None:
    _asked(lambda service, token: service.remove(table_id, token, seat), table_id)


def _on_start(table_id: str) -> None:
    _asked(lambda service, token: service.start(table_id, token), table_id)


def _on_rematch(table_id: str) -> None:
    _asked(lambda service, token: service.rematch(table_id, token), table_id)


def _on_close(table_id: str) -> None:
    st.session_state.pop(CLOSING_KEY, None)
    _asked(lambda service, token: service.close(table_id, token), table_id)


def _on_ask_close() -> None:
    st.session_state[CLOSING_KEY] = True


def _on_keep_table() -> None:
    st.session_state.pop(CLOSING_KEY, None)


def _on_hand_over(table_id: str) -> None:
    seat = st.session_state.get(HAND_OVER_KEY)
    if not isinstance(seat, int):
        _refused(TableRefusal("Pick the person to hand the table to."), table_id)
        return
    _asked(lambda service, token: service.hand_over(table_id, token, seat), table_id)


def _on_hint(table_id: str, version: int) -> None:
    token = _token(table_id)
    if token is None:
        _refused(TableRefusal("You do not hold a seat at this table."), table_id)
        return
    try:
        advice = _service().hint(table_id, token, version)
    except (TableRefusal, StoreError) as err:
        _refused(err, table_id)
        return
    st.session_state.setdefault(HINT_KEY, {})[table_id] = (version, advice)


def _hint_for(table_id: str, version: int) -> Hint | None:
    """The hint this page asked for, while the table is where it was asked."""
    found = st.session_state.get(HINT_KEY, {}).get(table_id)
    return found[1] if found is not None and found[0] == version else None


def _on_undo(table_id: str, version: int) -> None:
    _asked(lambda service, token: service.undo(table_id, token, version), table_id)


def _on_last_trick(table_id: str) -> None:
    shown: set[str] = st.session_state.setdefault(LAST_TRICK_KEY, set())
    shown ^= {table_id}


def _last_trick_shown(table_id: str) -> bool:
    return table_id in st.session_state.get(LAST_TRICK_KEY, set())


def _on_next_hand(table_id: str, game_id: str | None, count: int) -> None:
    seen: dict[tuple[str, str | None], int] = st.session_state.setdefault(SEEN_KEY, {})
    seen[(table_id, game_id)] = count


def _on_take_back(table_id: str) -> None:
    _asked(lambda service, token: service.take_back(table_id, token), table_id)


def _on_act(table_id: str, action: Action, version: int) -> None:
    _asked(lambda service, token: service.act(table_id, token, action, version), table_id)


def _asked(ask: Callable[[TableService, str], object], table_id: str) -> None:
    """Ask the table on behalf of this browser's seat; a refusal becomes the notice (and
    the reason of an earlier refusal goes)."""
    st.session_state.pop(NOTICE_KEY, None)
    token = _token(table_id)
    if token is None:
        _refused(TableRefusal("You do not hold a seat at this table."), table_id)
        return
    try:
        ask(_service(), token)
    except (TableRefusal, StoreError) as err:
        # A database fault too: a click is answered where the person is looking.
        _refused(err, table_id)


# ------------------------------------------------------------------ pages
def render() -> None:
    """The Lobby, or the table named in the address."""
    wanted = st.query_params.get(TABLE_PARAM)
    if wanted is not None and table_news.TABLE_ID.fullmatch(wanted):
        _table_page(wanted)
    else:
        if wanted is not None:
            _refused(TableRefusal("That link does not name a table."))
        _lobby()


def _lobby() -> None:
    st.header("Tables")
    _notice()
    with st.container(key="new_table", border=True):
        _name_input()
        names = [preset.name for preset in PRESETS]
        st.selectbox("Rule set", names, key=PRESET_KEY)
        st.selectbox(
            "Time for a move",
            LIMITS,
            index=LIMITS.index(TURN_LIMIT),
            format_func=lambda seconds: f"{seconds} seconds",
            help="After this a bot plays for a person, until they take their seat back",
            key=LIMIT_KEY,
        )
        st.selectbox(
            "Bots' pace",
            list(TABLE_PACES),
            index=list(TABLE_PACES).index("normal"),
            format_func=lambda pace: f"{pace} ({TABLE_PACES[pace]:g} s a move)",
            key=PACE_KEY,
        )
        st.checkbox(
            "List it in the lobby",
            key=PUBLIC_KEY,
            help="Anyone may then take a seat; a table not listed is joined by its link only",
        )
        with st.container(horizontal=True):
            st.checkbox("Hints", key=HINTS_KEY, help="Every seat may ask for a suggested move")
            st.checkbox(
                "Undo",
                key=UNDO_KEY,
                help="Every seat may take its last bid or card back, while no other person "
                "has moved since",
            )
        st.button("Create a table", key="create_table", type="primary", on_click=_on_create)
        st.caption(f"You may have {MAX_OPEN} tables open at once.")
    try:
        listed = _service().listed()
    except TableRefusal as err:
        st.warning(safe.md(str(err), limit=300))
        return
    if not listed:
        st.caption("No table is listed: create one and share its link.")
    for info in listed:
        _listed_table(info)


def _listed_table(info: TableInfo) -> None:
    seat = info.seat_of_player(info.creator)
    title = f"{safe.md(info.seats[seat].name)}'s table" if seat is not None else "A table"
    with st.container(border=True, key=f"listed_{info.table_id}"):
        state = "waiting for players" if info.status == "waiting" else "in play"
        st.markdown(f"**{title}** · {state}")
        if info.status == "waiting" or info.open_seats():
            _seat_buttons(info, seated=False)
        st.link_button(
            "Open" if info.status == "waiting" else "Watch",
            f"?{TABLE_PARAM}={info.table_id}",
            icon=":material/visibility:",
        )


def _seat_buttons(info: TableInfo, *, seated: bool) -> None:
    with st.container(horizontal=True, gap="small"):
        for seat in info.seats:
            if seat.kind != "open":
                st.caption(f"{SEAT_NAMES[seat.seat]}: {safe.md(seat.name)}")
            elif not seated:
                st.button(
                    f"Sit {SEAT_NAMES[seat.seat]}",
                    key=f"join_{info.table_id}_{seat.seat}",
                    on_click=_on_join,
                    args=(info.table_id, seat.seat),
                )


def _table_page(table_id: str) -> None:
    look = sidebar.table_prefs()
    beat = _service().pace_of(table_id)
    style.inject(look.felt, look.back, beat, four_colour=look.four_colour)
    st.header("A shared table")
    # The page's own timer reruns the fragment (table_news.listen), not run_every.
    fragment = st.fragment(_table_body)
    st.session_state[WHOLE_RUN_KEY] = True
    try:
        fragment(table_id)
    finally:
        st.session_state[WHOLE_RUN_KEY] = False
    _summary(table_id)
    # Last on the page: the scripts' empty elements add no gap above the table.
    keyboard.install()
    quick.install()


def _table_body(table_id: str) -> None:
    # A fragment's rerun does not pass through the router's fault boundary. A fault is
    # drawn with the page's look at the table, so that the table comes back by itself once
    # the database does (a person's turn runs on meanwhile), not at a click on Try again.
    try:
        _table_parts(table_id)
    except StoreUnavailable as err:
        fault(err)
        table_news.listen(table_id, 0)
        return
    # Here, not after the fragment: a seat taken by a click inside it reruns only it.
    cookies.deliver()


def _table_parts(table_id: str) -> None:
    service = _service()
    token = _token(table_id)
    try:
        service.advance(table_id)
        view = _view(service, table_id, token)
    except TableRefusal as err:
        st.warning(safe.md(str(err), limit=300))
        st.link_button("Back to the lobby", "?", icon=":material/arrow_back:")
        return
    if token is not None and view.seat is not None and table_id not in _tokens():
        # A seat found by the browser's cookie: the browser is given it again, as the
        # server sets it (a cookie from before may have been set by the page's script).
        _keep(table_id, token)
    if view.table.status == "closed":
        _closed(view)
        return
    table_news.listen(table_id, view.table.version, view.seat)
    if view.table.status != "playing":
        # Drawn inside the fragment, so that a refused click is answered where it was
        # made; at play, beside the table as on the Play page (_playing).
        _notice(table_id, view.table.version)
    if view.table.status == "waiting":
        _invite(table_id)
        _waiting(view)
    else:
        _playing(view)
    if view.creator:
        _creator_controls(view)
    if view.table.status != "waiting":
        # Below the table once the match is on, so that the table fits the screen.
        _invite(table_id)


def _closed(view: SharedView) -> None:
    with st.container(key="table_closed"):
        why = (
            "nobody looked at it for half an hour"
            if closed_for_idleness(view.table)
            else "its creator closed it"
        )
        st.info(
            f"This table is closed: {why}. "
            + ("Its match was stored as abandoned." if view.table.game_id else ""),
            icon=":material/door_front:",
        )
    st.link_button("Back to the lobby", "?", icon=":material/arrow_back:")


def _creator_controls(view: SharedView) -> None:
    """What only the table's creator may do whatever the state: hand the table over, close
    it; once the match is over, a rematch."""
    info = view.table
    table_id = info.table_id
    others = [
        seat.seat
        for seat in info.seats
        if seat.kind == "human" and seat.player is not None and seat.player != info.creator
    ]
    with st.container(key="creator_controls", horizontal=True, vertical_alignment="bottom"):
        if info.status == "finished":
            st.button(
                "Rematch",
                key="rematch",
                type="primary",
                icon=":material/replay:",
                help="A new match with everyone in the same seat",
                on_click=_on_rematch,
                args=(table_id,),
            )
        if others and info.status in ("waiting", "playing"):
            st.selectbox(
                "Hand the table to",
                others,
                format_func=lambda seat: f"{SEAT_NAMES[seat]}: {info.seats[seat].name}",
                key=HAND_OVER_KEY,
                help="They will seat bots, start, close the table and offer rematches",
            )
            st.button("Hand over", key="hand_over", on_click=_on_hand_over, args=(table_id,))
        if info.status in ("waiting", "playing") and not st.session_state.get(CLOSING_KEY):
            st.button(
                "Close the table",
                key="close_table",
                icon=":material/close:",
                on_click=_on_ask_close,
            )
    if info.status in ("waiting", "playing") and st.session_state.get(CLOSING_KEY):
        _confirm_close(table_id)


def _confirm_close(table_id: str) -> None:
    """Asked in place (the table's fragment redraws at each look and each move: a dialog
    would not stay)."""
    with st.container(key="close_confirm", border=True):
        st.markdown(
            "Close this table for everyone? A match in play stops here and is stored as abandoned."
        )
        with st.container(horizontal=True):
            st.button(
                "Close it",
                key="confirm_close",
                type="primary",
                on_click=_on_close,
                args=(table_id,),
            )
            st.button("Keep the table", key="keep_table", on_click=_on_keep_table)


def _view(service: TableService, table_id: str, token: str | None) -> SharedView:
    """The table as this seat sees it: read again when its version has moved on (one
    number to poll), and every few seconds all the same, as the seat's sign of life."""
    key = (table_id, token, service.version(table_id), int(time.monotonic() // 10))
    cached = st.session_state.get(VIEW_KEY)
    if isinstance(cached, tuple) and cached[0] == key:
        view: SharedView = cached[1]
        return view
    view = service.view(table_id, token, heard=sounds().moment)
    st.session_state[VIEW_KEY] = (key, view)
    return view


def _invite(table_id: str) -> None:
    parts = urlsplit(st.context.url or "")
    link = f"{parts.scheme}://{parts.netloc}{parts.path}?{TABLE_PARAM}={table_id}"
    with st.container(key="invite_link"):
        st.caption("Invite friends with this link:")
        st.code(link, language=None)


def _waiting(view: SharedView) -> None:
    info = view.table
    seated = view.seat is not None
    st.markdown("Waiting for players. " + ("" if seated else "Pick a seat to join."))
    if not seated and info.open_seats():
        _name_input()
    _seat_buttons(info, seated=seated)
    if view.creator:
        levels = bot_names()
        for seat in info.seats:
            if seat.kind == "open":
                with st.container(horizontal=True, vertical_alignment="bottom"):
                    st.selectbox(
                        f"Bot for {SEAT_NAMES[seat.seat]}",
                        levels,
                        index=levels.index(DEFAULT_BOT),
                        key=f"bot_level_{seat.seat}",
                    )
                    st.button(
                        "Seat a bot",
                        key=f"seat_bot_{seat.seat}",
                        on_click=_on_seat_bot,
                        args=(info.table_id, seat.seat),
                    )
            elif seat.kind == "human" and seat.player != info.creator:
                st.button(
                    f"Free {SEAT_NAMES[seat.seat]}'s seat",
                    key=f"remove_{seat.seat}",
                    on_click=_on_remove,
                    args=(info.table_id, seat.seat),
                )
        st.button(
            "Start the match",
            key="start_table",
            type="primary",
            help="Bots take the seats still open",
            on_click=_on_start,
            args=(info.table_id,),
        )


def _playing(view: SharedView) -> None:
    """The match at the table, drawn by the Play page's renderer from the seat's view."""
    drawn = view.drawn
    assert drawn is not None, "a table in play has a hand on show"
    table_id = view.table.table_id
    if view.outcome is not None:
        _match_over(view)
        if _hands_seen(table_id, view) < len(view.finished):
            # The last hand is told on the match's page: a summary still open goes.
            _on_next_hand(table_id, view.table.game_id, len(view.finished))
            if st.session_state.get(SHOWN_KEY, ("",))[0] == table_id:
                st.rerun(scope="app")
        return
    refused = _refusal(table_id, view.table.version)
    shown = replace(
        drawn,
        show_last_trick=_last_trick_shown(table_id),
        hint=_hint_for(table_id, drawn.ply),
        notice=Notice("warning", refused) if refused else drawn.notice,
    )
    handlers = TableHandlers(
        act=functools.partial(_on_act, table_id),
        last_trick=functools.partial(_on_last_trick, table_id),
        hint=functools.partial(_on_hint, table_id),
        undo=functools.partial(_on_undo, table_id),
    )
    look = sidebar.table_prefs()
    heard = sounds()
    fresh = view.moment is not None and view.moment != heard.moment
    play_cues(view.cues if fresh else (), look)
    heard.moment = view.moment
    draw_table(shown, handlers, look)
    if view.seat is not None and view.table.seats[view.seat].stand_in:
        st.button(
            "Take my seat back",
            key="take_back",
            type="primary",
            on_click=_on_take_back,
            args=(table_id,),
        )
    if view.creator:
        _absent_players(view.table)
    if view.seat is None and view.table.open_seats():
        st.markdown("A seat is open: a bot plays it until you take it.")
        _name_input()
        _seat_buttons(view.table, seated=False)
    finished.scoresheet(view.finished, drawn.players, drawn.seat)
    ended = (table_id, view.table.game_id, len(view.finished))
    wanted = ended if ended[2] > _hands_seen(table_id, view) else None
    if st.session_state.get(SHOWN_KEY) != wanted and not st.session_state.get(WHOLE_RUN_KEY):
        # The hand's summary opens and closes outside this fragment, over the whole page:
        # a whole run is asked for until one has drawn the page as it should be. (The
        # "Next hand" click's own run of the dialog may not come: a look at the table
        # sent with the click in one message reruns this fragment instead.)
        st.rerun(scope="app")


def _match_over(view: SharedView) -> None:
    drawn = view.drawn
    assert drawn is not None and view.outcome is not None
    rules = view.table.rules
    names = side_names(rules, drawn.players, drawn.seat)
    with st.container(key="match_over"):
        st.header("The match is over")
        reason = finished.reason_words(view.outcome.words(drawn.players))
        scores = ", ".join(
            f"{name.lower()} **{points(score)}**"
            for name, score in zip(names, view.scores, strict=True)
        )
        st.markdown(f"{reason}. Final score: {scores}.")
        if view.finished:
            with st.expander(f"The last hand (hand {view.finished[-1].number})"):
                finished.hand_summary(drawn.players, view.finished[-1], drawn.seat)
    finished.scoresheet(view.finished, drawn.players, drawn.seat)


def _hands_seen(table_id: str, view: SharedView) -> int:
    """How many of the match's hands this page has shown the summary of (a page that
    comes to a table in the middle of a match has seen those before it)."""
    seen: dict[tuple[str, str | None], int] = st.session_state.setdefault(SEEN_KEY, {})
    return seen.setdefault((table_id, view.table.game_id), len(view.finished))


def _summary(table_id: str) -> None:
    """The summary of the table's last hand, once, over the page; ``next_hand`` closes it
    (the table itself moves on at its own pace)."""
    cached = st.session_state.get(VIEW_KEY)
    st.session_state.pop(SHOWN_KEY, None)
    if not isinstance(cached, tuple) or cached[0][0] != table_id:
        return
    view: SharedView = cached[1]
    if view.drawn is None or view.outcome is not None:
        return
    if len(view.finished) <= _hands_seen(table_id, view):
        return
    hand = view.finished[-1]
    drawn = view.drawn

    def body() -> None:
        if _hands_seen(table_id, view) >= len(view.finished):
            # Next hand was clicked: a click in a dialog reruns only the dialog.
            st.rerun(scope="app")
        finished.hand_summary(drawn.players, hand, drawn.seat)
        st.button(
            "Next hand",
            key="next_hand",
            type="primary",
            width="stretch",
            on_click=_on_next_hand,
            args=(table_id, view.table.game_id, len(view.finished)),
        )

    st.session_state[SHOWN_KEY] = (table_id, view.table.game_id, len(view.finished))
    dialog = st.dialog(
        f"Hand {hand.number}",
        width="large",
        on_dismiss=functools.partial(
            _on_next_hand, table_id, view.table.game_id, len(view.finished)
        ),
    )
    dialog(body)()


def _absent_players(info: TableInfo) -> None:
    """The creator's buttons to free the seat of an absent person a bot is playing for."""
    for seat in _service().absent(info):
        st.button(
            f"Free {SEAT_NAMES[seat]}'s seat",
            key=f"remove_{seat}",
            help="The seat opens for somebody else; a bot plays it until they join",
            on_click=_on_remove,
            args=(info.table_id, seat),
        )
