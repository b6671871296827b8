"""pandas frames for the Explore pages, aggregated in SQL or pandas from the game store.

Every function takes a :class:`~spades.store.Store` and the games to cover (a
:class:`~spades.store.GameFilter`, or :class:`MyGames` for My stats), or a game's hands,
and returns a small frame or a dict ready for a chart; none loops over stored rows in
Python.

My stats are seen from South: a player sits South in their own games, so South is "you"
and North/South "you and partner". In a game that is not theirs (the bot lab's, or another
person's, when chosen) South stands in for them.

The frames of the partnership game's hands are here; cutthroat's, kept by player, are in
:mod:`spades.stats.analytics_cutthroat`. A game's result (who won, a streak, the list of games)
is read here for both: in cutthroat South wins alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt
import pandas as pd
import sqlalchemy as sa

from spades.engine.cards import SEAT_NAMES, SOUTH, bid_label, card_label
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.store import (
    CUTTHROAT_3,
    CUTTHROAT_4,
    HUMAN,
    PARTNERSHIP,
    SEAT_KEYS,
    TEAM_KEYS,
    GameFilter,
    Store,
    games,
    hand_rows,
    hands,
)

TEAM_NAMES: Final = ("N/S", "E/W")
#: The games as the pages name them (the store's variants).
VARIANT_NAMES: Final = {
    PARTNERSHIP: "Partnership",
    CUTTHROAT_3: "Cutthroat, 3 players",
    CUTTHROAT_4: "Cutthroat, 4 players",
}
#: The seats of three-handed cutthroat as the Play page names them, the player's at South.
THREE_SEATS: Final = ("Left", "Right", "South")
_FOUR_LABELS: Final = np.array(SEAT_NAMES, dtype=object)
_THREE_LABELS: Final = np.array((*THREE_SEATS, ""), dtype=object)
#: The teams of a game seen from the South seat, the player's own.
OUR_TEAMS: Final = ("You and partner", "Opponents")
YOU: Final = "you"


class Selection(Protocol):
    """Which games a query covers: a condition on the ``games`` table."""

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition."""
        ...


@dataclass(frozen=True, slots=True)
class MyGames:
    """The games My stats covers: the player's own, and when chosen the bot lab's and the
    finished games of other people (and of nobody: imported and older ones), all within
    the filters of ``games``. A player id that owns nothing (``""``) leaves only the chosen."""

    games: GameFilter
    player: str
    bot_lab: bool = False
    others: bool = False

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on the ``games`` table."""
        c = games.c
        whose: list[sa.ColumnElement[bool]] = [c.owner == self.player]
        if self.bot_lab:
            whose.append(c.kind == "simulated")
        if self.others:
            # A game in play is only ever its owner's to see.
            whose.append(sa.and_(c.kind != "simulated", c.status != "playing"))
        return sa.and_(self.games.clause(), sa.or_(*whose))


def seat_labels(players: int) -> tuple[str, ...]:
    """The names of the seats of a game of ``players`` players.

    >>> seat_labels(3), seat_labels(4)[:2]
    (('Left', 'Right', 'South'), ('North', 'East'))
    """
    return THREE_SEATS if players == 3 else SEAT_NAMES


def seat_names(seat: pd.Series, three: pd.Series) -> npt.NDArray[np.object_]:
    """The name of each ``seat``: the three-handed game's where ``three`` holds."""
    index = seat.to_numpy(dtype=np.int64)
    names: npt.NDArray[np.object_] = np.where(
        three.to_numpy(dtype=bool), _THREE_LABELS[index], _FOUR_LABELS[index]
    )
    return names


def player_label(level: pd.Series) -> pd.Series:
    """ "you" for a human seat, "bot: <level>" for a bot."""
    return level.where(level == HUMAN, "bot: " + level).replace(HUMAN, YOU)


def you_won() -> sa.ColumnElement[bool]:
    """SQL: South won the game, with North in the partnership game (team 0) or alone in
    cutthroat (seat 2)."""
    g = games.c
    return sa.or_(
        sa.and_(g.variant == PARTNERSHIP, g.winner == 0),
        sa.and_(g.variant != PARTNERSHIP, g.winner == SOUTH),
    )


# ------------------------------------------------------------------------ overview
def count_true(*conditions: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    """SQL: how many of ``conditions`` hold, summed over the rows."""
    expr: sa.ColumnElement[Any] = sa.case((conditions[0], 1), else_=0)
    for condition in conditions[1:]:
        expr = expr + sa.case((condition, 1), else_=0)
    return sa.func.coalesce(sa.func.sum(expr), 0)


def my_stats(store: Store, selection: Selection) -> dict[str, float | int | None]:
    """Games played and won, points a hand, set rate, your nils and bags a game.

    Seen from South (see the module's note): wins are N/S's, the set rate is N/S's
    contracts, and the nils are South's own, blind ones included.
    """
    g, h = games.c, hands.c
    with store.engine.connect() as conn:
        played, wins, decided = conn.execute(
            sa.select(sa.func.count(), count_true(you_won()), sa.func.count(g.winner)).where(
                selection.clause()
            )
        ).one()
        row = conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.count(sa.distinct(h.game)),
                sa.func.avg(h.points_ns),
                sa.func.avg(h.points_ew),
                count_true(h.made_ns.is_(False)),
                sa.func.count(h.made_ns),
                count_true(h.bid_s == 0),
                count_true(sa.and_(h.bid_s == 0, h.tricks_s == 0)),
                sa.func.coalesce(sa.func.sum(h.bags_ns), 0),
            )
            .join_from(hands, games, h.game == g.num)
            .where(selection.clause())
        ).one()
    return stats_figures((played, wins, decided), tuple(row))


def stats_figures(
    games_row: tuple[Any, ...], hands_row: tuple[Any, ...]
) -> dict[str, float | int | None]:
    """My stats' figures from the counts a query gave: ``games_row`` (games, won, decided)
    and ``hands_row`` (hands, games with a hand, points a hand of ours and of theirs,
    sets, contracts, nils, nils made, bags)."""
    played, wins, decided = (int(n) for n in games_row)
    hand_count, scored_games, pts_us, pts_them, sets, contracts, nils, nils_made, bags = hands_row
    return {
        "games": played,
        "wins": wins,
        "losses": decided - wins,
        "win_rate": wins / decided if decided else None,
        "hands": int(hand_count),
        "points_per_hand": float(pts_us) if pts_us is not None else None,
        "points_per_hand_them": float(pts_them) if pts_them is not None else None,
        "set_rate": int(sets) / int(contracts) if contracts else None,
        "nil_attempts": int(nils),
        "nil_made": int(nils_made),
        # Only games with a scored hand: one abandoned in its first hand took no bags.
        "bags_per_game": int(bags) / int(scored_games) if scored_games else None,
    }


def streaks(store: Store, selection: Selection) -> dict[str, int | bool | None]:
    """The run of wins or losses that the latest decided game ends (``current``, and
    ``current_won``: None with no decided game) and the longest run of wins."""
    g = games.c
    frame = store.frame(
        sa.select(sa.case((you_won(), 1), else_=0).label("won"))
        .where(selection.clause(), g.winner.is_not(None))
        .order_by(g.finished_at, g.num)
    )
    won = frame["won"].to_numpy(dtype=np.int64) == 1
    if not len(won):
        return {"current": 0, "current_won": None, "longest_win": 0}
    starts = np.flatnonzero(np.r_[True, won[1:] != won[:-1]])
    lengths = np.diff(np.r_[starts, len(won)])
    wins = lengths[won[starts]]
    return {
        "current": int(lengths[-1]),
        "current_won": bool(won[-1]),
        "longest_win": int(wins.max()) if len(wins) else 0,
    }


def best_and_worst_hands(store: Store, selection: Selection, *, count: int = 3) -> pd.DataFrame:
    """The ``count`` hands in which you and partner scored most and the ``count`` in which
    you scored least, best first (fewer when there are not that many hands)."""
    g, h = games.c, hands.c
    base = (
        sa.select(
            h.points_ns.label("points"),
            g.started_at,
            g.id.label("game"),
            h.hand_no.label("hand"),
            h.bid_s,
            h.blind_s,
            h.tricks_s,
            h.bid_n,
            h.blind_n,
            h.tricks_n,
        )
        .join_from(hands, games, h.game == g.num)
        .where(selection.clause())
    )
    found = extreme_hands(store, base, h.points_ns, h.hand_no, count)
    columns = ["points", "day", "game", "hand", "you", "partner"]
    if found.empty:
        return pd.DataFrame(columns=columns)
    for name, key in (("you", "s"), ("partner", "n")):
        bids = bid_text(found[f"bid_{key}"], found[f"blind_{key}"])
        found[name] = bids + " / " + found[f"tricks_{key}"].astype(str)
    return found[columns]


def extreme_hands(
    store: Store,
    base: sa.Select[Any],
    points: sa.ColumnElement[Any],
    hand_no: sa.ColumnElement[Any],
    count: int,
) -> pd.DataFrame:
    """The ``count`` rows of ``base`` (hands with their game's ``started_at`` and id as
    ``game``, and ``hand``) of most ``points`` and the ``count`` of fewest, best first, the
    newest first among equals, each hand once, with its ``day`` and short game id."""
    newest = (games.c.num.desc(), hand_no)
    found = pd.concat(
        [
            store.frame(base.order_by(points.desc(), *newest).limit(count)),
            store.frame(base.order_by(points, *newest).limit(count)),
        ],
        ignore_index=True,
    )
    if found.empty:
        return found
    found = found.drop_duplicates(["game", "hand"]).sort_values(
        "points", ascending=False, kind="stable", ignore_index=True
    )
    found["day"] = pd.to_datetime(found["started_at"]).dt.date
    found["game"] = found["game"].str[:8]
    return found


def win_rate_over_time(store: Store, selection: Selection) -> pd.DataFrame:
    """Per day: games decided, N/S wins, that day's win rate and the running win rate."""
    g = games.c
    day = sa.func.date(g.started_at).label("day")
    daily = store.frame(
        sa.select(
            day,
            sa.func.count().label("games"),
            count_true(you_won()).label("wins"),
        )
        .where(selection.clause(), g.winner.is_not(None))
        .group_by(day)
        .order_by(day)
    )
    if daily.empty:
        return pd.DataFrame(columns=["day", "games", "wins", "win_rate", "running_win_rate"])
    daily["day"] = pd.to_datetime(daily["day"])
    daily["win_rate"] = daily["wins"] / daily["games"]
    daily["running_win_rate"] = daily["wins"].cumsum() / daily["games"].cumsum()
    return daily


# --------------------------------------------------------------------- game lists
def game_summaries(store: Store, game_filter: GameFilter, *, limit: int = 500) -> pd.DataFrame:
    """The newest games with their result, for pickers and tables.

    A game of the filter's ``owner`` says whether "you" won; a game in play says so in
    place of its score, which the store keeps only once the game is over. A cutthroat
    game names its game and shows each player's score.
    """
    frame = store.list_games(game_filter, limit=limit)
    if frame.empty:
        return frame
    mine = frame["owner"].eq(game_filter.owner) if game_filter.owner else False
    playing = frame["status"] == "playing"
    partnership = frame["variant"] == PARTNERSHIP
    decided = frame["winner"].notna()
    ns_won, ew_won = partnership & (frame["winner"] == 0), partnership & (frame["winner"] == 1)
    seat_won = ~partnership & decided
    seat = frame["winner"].where(seat_won, 0).astype("int64")
    you = ns_won | (seat_won & (seat == SOUTH))
    frame["result"] = np.select(
        [(mine & you).to_numpy(), (mine & decided).to_numpy(), ns_won, ew_won, seat_won],
        [
            "you won",
            "you lost",
            "N/S won",
            "E/W won",
            seat_names(seat, frame["variant"] == CUTTHROAT_3) + " won",
        ],
        default=np.where(playing, "in play", "no winner"),
    )
    team_score = frame["score_ns"].astype(str) + "–" + frame["score_ew"].astype(str)
    seat_scores = [frame[f"score_{k}"].fillna(0).astype("int64").astype(str) for k in SEAT_KEYS]
    west = ("–" + seat_scores[3]).where(frame["score_w"].notna(), "")
    player_score = seat_scores[0] + "–" + seat_scores[1] + "–" + seat_scores[2] + west
    score = team_score.where(partnership, player_score)
    game = frame["variant"].map(VARIANT_NAMES).str.lower()
    frame["label"] = (
        pd.to_datetime(frame["started_at"]).dt.strftime("%Y-%m-%d %H:%M")
        + " · "
        + frame["kind"]
        + (" · " + game).where(~partnership, "")
        + " · "
        + score.where(~playing, "in play")
        + " · "
        + frame["id"].str[:8]
    )
    return frame


def latest_game(summaries: pd.DataFrame, player: str | None) -> str:
    """The game to open first: the player's most recently moved or finished one, else the
    most recently changed of those listed."""
    mine = summaries[summaries["owner"] == player] if player else summaries.iloc[:0]
    pool = summaries if mine.empty else mine
    newest = pool.sort_values("updated_at", ascending=False, kind="stable")
    return str(newest["id"].iloc[0])


# ----------------------------------------------------------------------- one game
def game_hands(match: Match) -> pd.DataFrame:
    """The finished hands of a match, in the store's ``hands`` columns."""
    frame = pd.DataFrame(hand_rows(match))
    if frame.empty:
        return pd.DataFrame(columns=[c.name for c in hands.c if c.name != "game"])
    return frame


def score_progression(
    hand_frame: pd.DataFrame, teams: tuple[str, str] = TEAM_NAMES
) -> pd.DataFrame:
    """Long frame (hand, team, score): each team's running score, from 0 before hand 1;
    the teams N/S and E/W are named ``teams``."""
    start = pd.DataFrame({"hand_no": [0], "score_ns": [0], "score_ew": [0]})
    wide = pd.concat([start, hand_frame[["hand_no", "score_ns", "score_ew"]]], ignore_index=True)
    long = wide.melt(id_vars="hand_no", var_name="team", value_name="score")
    long["team"] = long["team"].map({"score_ns": teams[0], "score_ew": teams[1]})
    return long.rename(columns={"hand_no": "hand"})


def bags_progression(hand_frame: pd.DataFrame, teams: tuple[str, str] = TEAM_NAMES) -> pd.DataFrame:
    """Long frame (hand, team, bags, penalty): bags on the count after each hand; the
    teams N/S and E/W are named ``teams``."""
    parts = []
    for team, key in zip(teams, TEAM_KEYS, strict=True):
        part = hand_frame[["hand_no", f"bags_after_{key}", f"penalty_{key}", f"bags_{key}"]]
        part = part.set_axis(["hand", "bags", "penalty", "added"], axis=1).assign(team=team)
        parts.append(part)
    if not parts[0].empty:
        return pd.concat(parts, ignore_index=True)
    return pd.DataFrame(columns=["hand", "bags", "penalty", "added", "team"])


def bid_text(bid: pd.Series, blind: pd.Series) -> pd.Series:
    labels = [bid_label(int(b), bool(f)) for b, f in zip(bid, blind, strict=True)]
    return pd.Series(labels, index=bid.index, dtype=object)


def hand_table(hand_frame: pd.DataFrame) -> pd.DataFrame:
    """A readable hand-by-hand scoresheet."""
    table = pd.DataFrame({"hand": hand_frame["hand_no"]})
    table["dealer"] = hand_frame["dealer"].map(dict(enumerate(SEAT_NAMES)))
    for seat, key in enumerate(SEAT_KEYS):
        bid = bid_text(hand_frame[f"bid_{key}"], hand_frame[f"blind_{key}"])
        table[SEAT_NAMES[seat]] = bid + " / " + hand_frame[f"tricks_{key}"].astype(str)
    for team, key in zip(TEAM_NAMES, TEAM_KEYS, strict=True):
        table[f"{team} points"] = hand_frame[f"points_{key}"]
        table[f"{team} bags"] = hand_frame[f"bags_after_{key}"]
        table[f"{team} score"] = hand_frame[f"score_{key}"]
    table["why (N/S | E/W)"] = hand_frame["breakdown"].map(_breakdown_text)
    return table


def _breakdown_text(text: str) -> str:
    data = json.loads(text)
    return " | ".join(
        "; ".join(f"{line['text']} ({line['points']:+d})" for line in data[key]) or "—"
        for key in TEAM_KEYS
    )


def trick_table(match: Match, hand_index: int) -> pd.DataFrame:
    """Trick by trick for one finished hand: the card each seat played, who led and won
    (the seats named as :func:`seat_labels` names them)."""
    hand = match.finished[hand_index]
    jokers = match.rules.jokers
    names = seat_labels(match.rules.players)
    rows = []
    for number, trick in enumerate(hand.tricks, 1):
        row: dict[str, Any] = {"trick": number, "leader": names[trick.leader]}
        for seat, card in trick.plays():
            row[names[seat]] = card_label(card, jokers=jokers)
        row["winner"] = names[trick.winner]
        rows.append(row)
    if hand.claimed_by is not None:
        rows.append(
            {"trick": len(hand.tricks) + 1, "leader": "", "winner": names[hand.claimed_by]}
            | {name: "claimed" for name in names}
        )
    return pd.DataFrame(rows, columns=["trick", "leader", *names, "winner"])


def rule_lines(rules: Rules) -> pd.DataFrame:
    """The score lines a chart marks: the target and, if on, the mercy score."""
    rows = [{"rule": f"target {rules.target_score}", "score": rules.target_score}]
    if rules.mercy_score is not None:
        rows.append({"rule": f"mercy {rules.mercy_score}", "score": rules.mercy_score})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------- bid accuracy
def seat_stats(store: Store, game_filter: GameFilter) -> pd.DataFrame:
    """How often each (seat, player, bid, blind, tricks taken) occurred, in one query.

    Grouping each seat's columns in SQL keeps the result to a few hundred rows however
    many hands are stored. The bid, blind flag and tricks are grouped as one number
    (``bid * 28 + blind * 14 + tricks``), which SQLite groups faster than three columns.
    """
    h = hands.c
    parts = []
    for seat, key in enumerate(SEAT_KEYS):
        level = games.c[f"level_{key}"]
        code = (
            h[f"bid_{key}"] * 28 + sa.cast(h[f"blind_{key}"], sa.Integer) * 14 + h[f"tricks_{key}"]
        ).label("code")
        parts.append(
            sa.select(
                sa.literal(seat).label("seat"),
                level.label("level"),
                code,
                sa.func.count().label("n"),
            )
            .join_from(hands, games, h.game == games.c.num)
            .where(game_filter.clause())
            .group_by(level, code)
        )
    frame = store.frame(sa.union_all(*parts))
    if frame.empty:
        return pd.DataFrame(columns=["seat", "player", "bid", "blind", "taken", "n"])
    bid, rest = np.divmod(frame.pop("code").to_numpy(dtype=np.int64), 28)
    blind, taken = np.divmod(rest, 14)
    return pd.DataFrame(
        {
            "seat": frame["seat"].map(dict(enumerate(SEAT_NAMES))),
            "player": player_label(frame["level"]),
            "bid": bid,
            "blind": blind.astype(bool),
            "taken": taken,
            "n": frame["n"],
        }
    )


def bid_counts(stats: pd.DataFrame) -> pd.DataFrame:
    """Counts of (seat, player, bid, taken) for numeric bids (nil bids left out)."""
    numeric = stats[stats["bid"] > 0]
    counts = numeric.groupby(["seat", "player", "bid", "taken"], as_index=False).agg(n=("n", "sum"))
    counts["diff"] = counts["taken"] - counts["bid"]
    return counts


def by_group(counts: pd.DataFrame, group: str) -> pd.DataFrame:
    """Bid counts summed by ``group`` ("seat" or "player") and (bid, taken)."""
    return counts.groupby([group, "bid", "taken", "diff"], as_index=False).agg(n=("n", "sum"))


def diff_distribution(counts: pd.DataFrame, group: str) -> pd.DataFrame:
    """Share of bids per (taken − bid) within each group."""
    dist = counts.groupby([group, "diff"], as_index=False).agg(n=("n", "sum"))
    dist["share"] = dist["n"] / dist.groupby(group)["n"].transform("sum")
    return dist


def accuracy_rates(counts: pd.DataFrame, group: str) -> pd.DataFrame:
    """Exact, over and under rates of numeric bids per group (long: group, outcome, rate)."""
    outcome = np.select([counts["diff"] == 0, counts["diff"] > 0], ["exact", "over"], "under")
    tally = (
        counts.assign(outcome=outcome)
        .groupby([group, "outcome"], as_index=False)
        .agg(n=("n", "sum"))
    )
    tally["rate"] = tally["n"] / tally.groupby(group)["n"].transform("sum")
    return tally


def nil_success(stats: pd.DataFrame) -> pd.DataFrame:
    """Nil and blind nil bids by bidder (seat and player): attempts, made, success rate."""
    nils = stats[stats["bid"] == 0].assign(made=lambda f: f["n"].where(f["taken"] == 0, 0))
    frame = nils.groupby(["seat", "player", "blind"], as_index=False).agg(
        attempts=("n", "sum"), made=("made", "sum")
    )
    frame["bid"] = [bid_label(0, blind=bool(f)) for f in frame.pop("blind")]
    frame["success"] = frame["made"] / frame["attempts"]
    return frame


# ------------------------------------------------------------------------ bot lab
def matchup_results(store: Store, game_filter: GameFilter) -> pd.DataFrame:
    """Simulated matchups: games, N/S win rate, mean final scores and hands, per line-up."""
    g = games.c
    lineup = (g.level_n, g.level_s, g.level_e, g.level_w, g.rule_set)
    frame = store.frame(
        sa.select(
            *lineup,
            sa.func.count().label("games"),
            sa.func.sum(sa.case((g.winner == 0, 1), else_=0)).label("ns_wins"),
            sa.func.count(g.winner).label("decided"),
            sa.func.avg(g.score_ns).label("mean_ns"),
            sa.func.avg(g.score_ew).label("mean_ew"),
            sa.func.avg(g.hands_count).label("mean_hands"),
        )
        .where(game_filter.clause(), g.kind == "simulated", g.variant == PARTNERSHIP)
        .group_by(*lineup)
    )
    if frame.empty:
        return pd.DataFrame(
            columns=["matchup", "rule_set", "games", "ns_win_rate", "mean_ns", "mean_ew"]
        )
    frame["matchup"] = (
        frame["level_n"]
        + "+"
        + frame["level_s"]
        + " vs "
        + frame["level_e"]
        + "+"
        + frame["level_w"]
    )
    frame["ns_win_rate"] = frame["ns_wins"] / frame["decided"].where(frame["decided"] > 0)
    return frame[
        ["matchup", "rule_set", "games", "ns_win_rate", "mean_ns", "mean_ew", "mean_hands"]
    ].sort_values("games", ascending=False, ignore_index=True)


def nil_by(nils: pd.DataFrame, group: str) -> pd.DataFrame:
    """Nil attempts, made and success rate per bidder ("seat" or "player") and kind of nil."""
    out = nils.groupby([group, "bid"], as_index=False).agg(
        attempts=("attempts", "sum"), made=("made", "sum")
    )
    out["success"] = out["made"] / out["attempts"]
    return out.rename(columns={group: "bidder"})


def nil_outcomes(by_bidder: pd.DataFrame) -> pd.DataFrame:
    """Long frame (who, outcome, n, share) of :func:`nil_by`'s rows: each bidder's nils
    made and missed, so that a bidder who never made one still has a bar to show it."""
    who = by_bidder["bidder"].astype(str) + " · " + by_bidder["bid"]
    made = pd.DataFrame({"who": who, "outcome": "made", "n": by_bidder["made"]})
    missed = made.assign(outcome="missed", n=by_bidder["attempts"] - by_bidder["made"])
    frame = pd.concat([made, missed], ignore_index=True)
    frame["share"] = frame["n"] / frame.groupby("who")["n"].transform("sum")
    return frame
