"""The Explore pages: Overview, Game explorer and Bid accuracy.

Each page reads frames from :mod:`spades.stats.analytics` through a cache keyed by the
store's revision, so a rerun with nothing new stored costs one small query. My stats and
Bid accuracy show one game at a time, the partnership game or cutthroat for three or four,
chosen above their filters: a figure never mixes teams with players. The explorer shows
any game, each in its own terms.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import partial
from typing import Any, Final, TypeVar

import pandas as pd
import streamlit as st

from spades.app import table_view
from spades.app.errors import StoreError
from spades.app.explorer import ExploredGame
from spades.app.site import KINDS, SEAT_KEYS, VARIANTS, GameFilter, MyGames, Report, Site
from spades.engine.cards import JokerRanking
from spades.engine.rules import Rules
from spades.stats import analytics
from spades.ui import charts, identity, rating_view, safe, style, words
from spades.ui.cards import trick_cards_html
from spades.ui.db import app_site

EMPTY: Final = (
    "No games yet: play one on the Play page, or simulate 50 in the Bot lab, "
    "and they will be charted here."
)
EMPTY_FILTERED: Final = "No games match these filters. Widen the dates or clear a filter."
NONE_OF_YOURS: Final = (
    "No finished games of yours yet: play one on the Play page. To look at the bot lab's "
    "games or other people's meanwhile, switch them on above."
)

#: A share (from 0 to 1) as a table shows it: a whole percent.
SHARE: Final = "{:.0%}"
#: A table's column of sentences (:func:`table`'s ``notes``): its width in pixels, the
#: characters that fit one of its lines, and the pixels a line and a cell's margins take.
NOTE_WIDTH: Final = 520
NOTE_LINE_CHARS: Final = 80
NOTE_LINE_HEIGHT: Final = 20
NOTE_MARGINS: Final = 16
#: Streamlit wraps a table's text only in rows taller than 4rem, 64 pixels.
WRAPPED_ROW: Final = 65

Result = TypeVar("Result")
#: The explorer's choice of every game.
ANY_GAME: Final = "any"
#: What each choice of game is called above the filters.
GAME_NAMES: Final = {ANY_GAME: "Any game", **analytics.VARIANT_NAMES}


@st.cache_data(max_entries=256, show_spinner=False)
def _read(
    _report: Report[Any, Any], name: str, url: str, revision: tuple[int, int, str], games: Any
) -> Any:
    """``name`` keys the cache for ``_report`` (Streamlit cannot hash a function), and
    ``revision`` only keys it: a new game gives a new revision."""
    return Site.of(url).read(_report, games)


def _cached(
    report: Report[Any, Result], url: str, revision: tuple[int, int, str], games: Any
) -> Result:
    """A report of the ``games`` chosen, from the cache while the revision stands."""
    name = f"{report.__module__}.{report.__qualname__}"
    found: Result = _read(report, name, url, revision, games)
    return found


def query(report: Report[Any, Result], site: Site, games: GameFilter | MyGames) -> Result:
    """An analytics frame (or dict) of the ``games`` chosen, cached until the store
    changes."""
    return _cached(report, site.url, site.revision(), games)


@st.cache_data(max_entries=64, show_spinner=False)
def _choices(url: str, revision: tuple[int, int, str]) -> dict[str, list[str]]:
    return Site.of(url).choices()


def filter_panel(
    site: Site,
    key: str,
    *,
    finished_only: bool = True,
    kinds: bool = True,
    any_game: bool = False,
) -> GameFilter:
    """The filters shared by the Explore pages; an empty choice means no restriction.
    ``kinds`` offers the choice of human or simulated games (My stats has its own).

    The game (partnership, or cutthroat for three or four) is always one, the partnership
    game unless another is chosen; ``any_game`` offers every game at once, for a page
    that draws one game at a time."""
    choices = _choices(site.url, site.revision())
    today = datetime.now(UTC).date()
    games = [ANY_GAME, *VARIANTS] if any_game else list(VARIANTS)
    game = st.radio(
        "Game",
        games,
        format_func=GAME_NAMES.__getitem__,
        horizontal=True,
        key=f"{key}_variant",
        help="Cutthroat's charts show each player where the partnership game's show teams.",
    )
    with st.expander("Filters", expanded=False):
        *kind_col, date_col, rules_col, level_col = st.columns(4 if kinds else 3)
        picked = (
            kind_col[0].multiselect(
                "Games",
                KINDS,
                key=f"{key}_kinds",
                placeholder="human and simulated",
                help="Your games against the bots, the Bot lab's simulated ones, or both.",
            )
            if kinds
            else []
        )
        dates = date_col.date_input(
            "Dates", value=[], max_value=today, key=f"{key}_dates", help="Leave empty for all."
        )
        rule_sets = rules_col.multiselect(
            "Rule sets", choices["rule_sets"], key=f"{key}_rules", placeholder="all rule sets"
        )
        levels = level_col.multiselect(
            "Bot levels",
            choices["bot_levels"],
            key=f"{key}_levels",
            placeholder="all bots",
            help="Games whose bots are all among these levels.",
        )
    start, end = _date_range(dates)
    return GameFilter(
        kinds=tuple(picked) or None,
        variants=None if (game or games[0]) == ANY_GAME else (str(game or games[0]),),
        start=start,
        end=end,
        rule_sets=tuple(rule_sets) or None,
        bot_levels=tuple(levels) or None,
        finished_only=finished_only,
    )


def _date_range(value: Any) -> tuple[date | None, date | None]:
    picked = [d for d in (value if isinstance(value, tuple | list) else (value,)) if d]
    if not picked:
        return None, None
    return picked[0], picked[-1]


def empty_state(site: Site) -> None:
    """Say why there is nothing to chart and how to get something."""
    if not site.has_games():
        st.info(EMPTY, icon=":material/style:")
    else:
        st.info(EMPTY_FILTERED, icon=":material/filter_alt_off:")


def _heading(name: object) -> str:
    return str(name).replace("_", " ")


def table(
    frame: pd.DataFrame,
    *,
    key: str,
    file_name: str,
    formats: Mapping[str, str] | None = None,
    notes: Sequence[str] = (),
    pinned: Sequence[str] = (),
) -> None:
    """A table with a CSV download of the frame under it. ``formats`` shows the columns it
    names by a format string (:data:`SHARE` shows a share as a whole percent); ``notes``
    are columns of sentences, shown wide and wrapped on rows tall enough for the longest;
    ``pinned`` columns stay in view while the table scrolls sideways."""
    shown = frame.rename(columns=_heading)
    data: Any = (
        shown.style.format({_heading(name): text for name, text in formats.items()})
        if formats
        else shown
    )
    config: dict[str, Any] = {
        **{_heading(name): st.column_config.Column(pinned=True) for name in pinned},
        **{_heading(name): st.column_config.TextColumn(width=NOTE_WIDTH) for name in notes},
    }
    st.dataframe(
        data,
        hide_index=True,
        width="stretch",
        key=f"{key}_table",
        column_config=config or None,
        row_height=_note_rows(frame, notes),
    )
    _csv(frame, key=key, file_name=file_name)


def _csv(frame: pd.DataFrame, *, key: str, file_name: str) -> None:
    """A button that downloads the frame as CSV."""
    st.download_button(
        "Download CSV",
        frame.to_csv(index=False).encode(),
        file_name=file_name,
        mime="text/csv",
        key=f"{key}_csv",
        icon=":material/download:",
    )


def _note_rows(frame: pd.DataFrame, notes: Sequence[str]) -> int | None:
    """The height of rows that hold the longest of the ``notes`` columns' sentences (the
    table's own when there are none)."""
    if frame.empty or not notes:
        return None
    longest = max(int(frame[name].astype(str).str.len().max()) for name in notes)
    lines = -(-longest // NOTE_LINE_CHARS)
    return max(lines * NOTE_LINE_HEIGHT + NOTE_MARGINS, WRAPPED_ROW)


def _pct(value: float | None) -> str:
    return "—" if value is None else SHARE.format(value)


def _num(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


# ------------------------------------------------------------------------ overview
def overview_page() -> None:
    """My stats: record and streaks, win rate over time, points, sets, nils, bags, the
    player's rating over time and the best and worst hands, of the player's own games
    unless they choose others too."""
    site = app_site()
    st.title("My stats")
    lab_col, others_col = st.columns(2)
    bot_lab = lab_col.toggle(
        "Include the bot lab",
        key="overview_bot_lab",
        help="Add the games simulated between bots; their South seat counts as yours.",
    )
    others = others_col.toggle(
        "Include other people's games",
        key="overview_others",
        help="Add the finished games of other players and imported ones; "
        "their South seat counts as yours.",
    )
    player = identity.player_id()
    selection = MyGames(
        filter_panel(site, "overview", kinds=False),
        # A visitor with no player yet owns nothing: the empty id matches no game.
        player=player or "",
        bot_lab=bot_lab,
        others=others,
    )
    cutthroat = selection.cutthroat
    stats = query(analytics.my_stats, site, selection)
    if not stats["games"]:
        _no_stats(site, selection)
        return
    if bot_lab or others:
        st.caption("In the games that are not yours, South stands in for you.")
    _record(stats, query(analytics.streaks, site, selection), cutthroat=cutthroat)
    st.subheader("Win rate over time")
    daily = query(analytics.win_rate_over_time, site, selection)
    if daily.empty:
        st.info("None of these games has a winner yet.")
    else:
        charts.show(charts.win_rate_chart(daily), key="overview_win_rate_chart")
        table(
            daily.assign(day=daily["day"].dt.date),
            key="overview_daily",
            file_name="win_rate_by_day.csv",
            formats={"win_rate": SHARE, "running_win_rate": SHARE},
        )
    if player is not None:
        _rating(site, player)
    extremes = query(analytics.best_and_worst_hands, site, selection)
    if not extremes.empty:
        st.subheader("Best and worst hands")
        whose = "you" if cutthroat else "you and your partner"
        st.caption(f"The points {whose} scored; bids are shown as bid / tricks.")
        table(extremes, key="overview_hands", file_name="best_and_worst_hands.csv")


def _rating(site: Site, player: str) -> None:
    """The player's rating over time, once a game has rated them (whatever the filters)."""
    history = rating_view.player_history(site, player)
    if history is not None:
        st.subheader("Rating over time")
        rating_view.show(history, key="overview_rating_chart")


def _no_stats(site: Site, selection: MyGames) -> None:
    """Say why My stats has nothing to show: no games at all, none of the player's (and
    nothing else chosen), or none that the filters let through."""
    unfiltered = dataclasses.replace(selection, games=GameFilter())
    if not site.has_games():
        st.info(EMPTY, icon=":material/style:")
    elif query(analytics.my_stats, site, unfiltered)["games"]:
        st.info(EMPTY_FILTERED, icon=":material/filter_alt_off:")
    else:
        st.info(NONE_OF_YOURS, icon=":material/person:")


def _streak(streaks: dict[str, Any]) -> str:
    if streaks["current_won"] is None:
        return "—"
    return words.count(streaks["current"], "win" if streaks["current_won"] else "loss")


def _record(stats: dict[str, Any], streaks: dict[str, Any], *, cutthroat: bool) -> None:
    """The metrics of My stats, three to a row; in cutthroat they are the player's own."""
    row = [*st.columns(3), *st.columns(3), *st.columns(3)]
    row[0].metric(
        "Games played", stats["games"], help="Finished and abandoned games matching the filters."
    )
    row[1].metric(
        "Won – lost",
        f"{stats['wins']} – {stats['losses']}",
        help=f"Games won and lost by you{'' if cutthroat else ' and your partner'}."
        + (f" Your mean place: {_num(stats['mean_place'])}." if cutthroat else ""),
    )
    row[2].metric("Win rate", _pct(stats["win_rate"]), help="Of the games with a winner.")
    row[3].metric("Current streak", _streak(streaks), help="Your latest games with a winner.")
    row[4].metric("Longest win streak", streaks["longest_win"])
    them = _num(stats["points_per_hand_them"])
    us_name, them_name = table_view.TEAM_NAMES
    row[5].metric(
        "Points a hand",
        _num(stats["points_per_hand"]),
        help=f"Yours; the others': {them}"
        if cutthroat
        else f"{us_name} (you and your partner); {them_name}: {them}",
    )
    row[6].metric(
        "Your nils", f"{stats['nil_made']} of {stats['nil_attempts']}", help="Nils made, blind too."
    )
    row[7].metric(
        "Set rate",
        _pct(stats["set_rate"]),
        help="Your contracts that went set."
        if cutthroat
        else "Your team's contracts that went set.",
    )
    row[8].metric(
        "Bags a game",
        _num(stats["bags_per_game"]),
        help="Bags you took, on average a game."
        if cutthroat
        else "Bags taken by you and your partner, on average a game.",
    )
    st.caption(words.count(stats["hands"], "hand"))


# ------------------------------------------------------------------------ explorer
def _side_names(rules: Rules, players: Sequence[str], *, mine: bool) -> tuple[str, ...]:
    """A name for each side of a game whose seats hold ``players``, one a line or bar: in
    the player's own game the partnership game's teams as the Play table names them (Us,
    then Them: the player sits South), in another game by their seats; cutthroat's
    players (:func:`spades.stats.analytics.line_names`)."""
    if not rules.partnerships:
        return analytics.line_names(players, mine=mine)
    return table_view.side_names(rules, players) if mine else analytics.TEAM_NAMES


@st.cache_data(max_entries=64, show_spinner=False)
def _game_view(
    url: str, game_id: str, updated: str, mine: bool
) -> tuple[charts.AnyChart, charts.AnyChart, pd.DataFrame] | None:
    """One game's score and bags charts and its scoresheet, seen by its owner when
    ``mine`` (``updated``, the game's last change, keys the cache: a game in play gets a
    new view with every stored action)."""
    game = Site.of(url).explore(game_id)
    if not game.hands:
        return None
    rules = game.rules
    names = _side_names(rules, game.players, mine=mine)
    side = analytics.side(rules)
    score = charts.score_chart(game.score_progression(names), analytics.rule_lines(rules), side)
    bags = charts.bags_chart(game.bags_progression(names), rules.bag_limit, side)
    return score, bags, game.hand_table(names)


def explorer_page() -> None:
    """One game: score progression, bags, the scoresheet, and trick-by-trick replay."""
    site = app_site()
    st.title("Game explorer")
    player = identity.player_id()
    others = st.toggle(
        "Also show finished games of others and of the bot lab",
        key="explorer_others",
        help="Your own games are always listed. A game still in play is only ever yours.",
    )
    game_filter = dataclasses.replace(
        filter_panel(site, "explorer", finished_only=False, any_game=True),
        # A visitor with no player yet owns nothing: the empty id matches no game.
        owner=player or "",
        others_finished=others,
    )
    summaries = query(analytics.game_summaries, site, game_filter)
    if summaries.empty:
        empty_state(site)
        _import_panel(site)
        return
    ids = list(summaries["id"])
    labels = dict(zip(summaries["id"], summaries["label"], strict=True))
    wanted = st.query_params.get("game")
    if wanted not in ids:
        wanted = analytics.latest_game(summaries, player)
    game_id = st.selectbox(
        "Game",
        ids,
        index=ids.index(wanted),
        format_func=labels.__getitem__,
        key="explorer_game",
        help="The newest 500 games matching the filters.",
    )
    try:
        game = site.explore(game_id)
    except StoreError as err:
        st.error(safe.md(err, limit=300))
        return
    info = summaries.set_index("id").loc[game_id]
    # The player sits South in their own games.
    mine = player is not None and info["owner"] == player
    names = _side_names(game.rules, game.players, mine=mine)
    _game_header(info, game, _sides(game, names))
    view = _game_view(site.url, game_id, str(info["updated_at"]), mine)
    if view is None:
        st.info("No hand of this game has been finished yet.")
    else:
        score, bags, hand_table = view
        st.subheader("Score")
        charts.show(score, key="explorer_score_chart")
        st.subheader("Bags")
        charts.show(bags, key="explorer_bags_chart")
        st.caption("▼ marks a hand where the bags reached the limit and cost the penalty.")
        st.subheader("Hand by hand")
        table(
            hand_table,
            key="explorer_hands",
            file_name=f"game_{game_id[:8]}_hands.csv",
            notes=[name for name in hand_table.columns if str(name).startswith(analytics.WHY)],
            pinned=["hand"],
        )
        _trick_replay(game, game_id)
    if info["status"] == "playing":
        # The record holds every hand and the seed, so every deal still to come.
        st.caption("A game in play can be exported once it is over.")
    else:
        st.download_button(
            "Export this game (JSON)",
            partial(site.export_json, game_id),
            file_name=f"spades_game_{game_id}.json",
            mime="application/json",
            key="explorer_export",
            icon=":material/file_download:",
        )
    _import_panel(site)


def _sides(game: ExploredGame, names: Sequence[str]) -> list[tuple[str, str]]:
    """Each side's name (a team's, or in cutthroat a player's), with its bags so far for
    its help: a team's seats too, and whether a player is knocked out."""
    if game.rules.partnerships:
        return [
            (team, f"bags {bags}" if team == seats else f"{seats}, bags {bags}")
            for team, seats, bags in zip(names, analytics.TEAM_NAMES, game.bags, strict=True)
        ]
    return [
        (name, f"bags {game.bags[seat]}" + (" · knocked out" if seat in game.out else ""))
        for seat, name in enumerate(names)
    ]


def _game_header(info: pd.Series, game: ExploredGame, sides: list[tuple[str, str]]) -> None:
    """The score of each of the ``sides`` (name, help: a team, or in cutthroat a player),
    the result and the hands so far, from the replayed match (the store writes a game's
    result only once it is over), and the game's facts: kind, rules and bot levels."""
    cols = st.columns(len(sides) + 2)
    for col, (name, help_text), score in zip(cols, sides, game.scores, strict=False):
        col.metric(name, score, help=help_text)
    cols[-2].metric("Result", str(info["result"]), help=game.reason or None)
    cols[-1].metric("Hands", game.hands, help="Hands scored so far.")
    undo = " · undo used" if info["undo_used"] else ""
    seats = analytics.seat_labels(game.rules.players)
    levels = ", ".join(
        f"{name} {safe.md(info[f'level_{key}'], limit=40)}"
        for name, key in zip(seats, SEAT_KEYS, strict=False)
    )
    variant = analytics.VARIANT_NAMES.get(str(info["variant"]), "")
    st.caption(
        f"{safe.md(info['kind'])} game · {variant.lower()} · "
        f"rules: {safe.md(info['rule_set'], limit=300)} · {levels}{undo}"
    )


def _trick_replay(game: ExploredGame, game_id: str) -> None:
    """A hand's tricks one after another, each seat's card drawn as the table draws it."""
    st.subheader("Trick by trick")
    hand_no = st.selectbox("Hand", range(1, game.hands + 1), key="explorer_hand")
    tricks = game.tricks(hand_no - 1)
    shown = (
        st.slider(
            "Tricks shown",
            1,
            len(tricks),
            len(tricks),
            key="explorer_tricks",
            help="Step through the hand one trick at a time.",
        )
        if len(tricks) > 1
        else len(tricks)
    )
    style.inject()
    with st.container(key="explorer_replay"):
        st.html(_tricks_html(tricks[:shown], jokers=game.rules.joker_deck))
    _csv(
        game.trick_table(hand_no - 1).head(shown),
        key="explorer_tricks_table",
        file_name=f"game_{game_id[:8]}_hand_{hand_no}_tricks.csv",
    )


def _tricks_html(tricks: Sequence[analytics.ReplayedTrick], *, jokers: JokerRanking | None) -> str:
    """The tricks side by side, each its number, who led and won, and its cards in the
    order played under their seats' names (:func:`spades.ui.cards.trick_cards_html`)."""
    blocks = []
    for trick in tricks:
        if trick.plays:
            about = f"{trick.leader} led, {trick.winner} won"
            cards = trick_cards_html(trick.plays, jokers=jokers)
        else:
            about, cards = f"{trick.winner} claimed the rest", ""
        blocks.append(
            f'<div data-trick="{trick.number}" style="display: flex; flex-direction: column; '
            f'gap: 0.2rem"><small><b>Trick {trick.number}</b> · {html.escape(about)}</small>'
            f"{cards}</div>"
        )
    return f'<div style="display: flex; flex-wrap: wrap; gap: 1rem 2rem">{"".join(blocks)}</div>'


def _import_panel(site: Site) -> None:
    with st.expander("Import games"):
        files = st.file_uploader(
            "JSON game records",
            type="json",
            accept_multiple_files=True,
            key="explorer_import_files",
            help="Every record is replayed and checked; one bad record imports none.",
        )
        if files and st.button("Import", key="explorer_import"):
            try:
                ids = site.import_many([f.getvalue() for f in files])
            except StoreError as err:
                st.error(safe.md(err, limit=400))
            else:
                st.success(f"Imported {words.count(len(ids), 'game')}.")


# -------------------------------------------------------------------- bid accuracy
@dataclass(frozen=True, slots=True)
class _BidView:
    """Everything the Bid accuracy page draws for one filter and grouping."""

    empty: bool
    scatter: charts.AnyChart | None = None
    diff: charts.AnyChart | None = None
    rates_chart: charts.AnyChart | None = None
    rates: pd.DataFrame | None = None
    nil_chart: charts.AnyChart | None = None
    nils: pd.DataFrame | None = None


@st.cache_data(max_entries=64, show_spinner=False)
def _bid_view(
    url: str, revision: tuple[int, int, str], game_filter: GameFilter, group: str
) -> _BidView:
    """The page's frames and charts, built once a store revision (``revision`` keys it)."""
    stats = _cached(analytics.seat_stats, url, revision, game_filter)
    if stats.empty:
        return _BidView(empty=True)
    counts = analytics.bid_counts(stats)
    view: dict[str, Any] = {}
    if not counts.empty:
        rates = analytics.accuracy_rates(counts, group)
        view |= {
            "scatter": charts.bid_scatter(analytics.by_group(counts, group), group),
            "diff": charts.diff_chart(analytics.diff_distribution(counts, group), group),
            "rates_chart": charts.rates_chart(rates, group),
            "rates": rates,
        }
    nils = analytics.nil_success(stats)
    if not nils.empty:
        by_bidder = analytics.nil_by(nils, group)
        view |= {
            "nil_chart": charts.nil_chart(analytics.nil_outcomes(by_bidder)),
            "nils": by_bidder,
        }
    return _BidView(empty=False, **view)


def bids_page() -> None:
    """Bid against tricks taken per seat or for you against the bots, and nil success, in
    one game at a time (in cutthroat every player bids for themselves)."""
    site = app_site()
    st.title("Bid accuracy")
    game_filter = filter_panel(site, "bids")
    group = st.radio(
        "Compare",
        ["player", "seat"],
        format_func={"player": "you against the bots", "seat": "each seat"}.__getitem__,
        horizontal=True,
        key="bids_group",
    )
    view = _bid_view(site.url, site.revision(), game_filter, group)
    if view.empty:
        empty_state(site)
        return
    if (
        view.scatter is not None
        and view.diff is not None
        and view.rates_chart is not None
        and view.rates is not None
    ):
        st.subheader("Bid against tricks taken")
        charts.show(view.scatter, key="bids_scatter_chart")
        st.caption("On the dashed line the bid was exact; above it, over (bags); below, set.")
        left, right = st.columns(2)
        with left:
            st.subheader("Tricks taken − bid")
            charts.show(view.diff, key="bids_diff_chart")
        with right:
            st.subheader("Exact, over and under")
            charts.show(view.rates_chart, key="bids_rates_chart")
        table(
            view.rates,
            key="bids_rates",
            file_name=f"bid_accuracy_by_{group}.csv",
            formats={"rate": SHARE},
        )
    st.subheader("Nil success by bidder")
    if view.nil_chart is None or view.nils is None:
        st.info("No nil bids in these games.")
        return
    charts.show(view.nil_chart, key="bids_nil_chart")
    table(
        view.nils,
        key="bids_nils",
        file_name=f"nil_success_by_{group}.csv",
        formats={"success": SHARE},
    )
