"""pandas frames for the Explore pages, made from the figures the game store reports.

Every function takes a :class:`~spades.store.Store` and the games to cover (a
:class:`~spades.store.GameFilter`, or :class:`~spades.store.MyGames` for My stats), or a
game's hands, and returns a small frame or a dict ready for a chart. The store counts and
groups in SQL (:mod:`spades.store.reports`) and hands over a few rows, never a whole
history.

My stats are seen from South: a player sits South in their own games, so South is "you"
and North/South the player's team. In a game that is not theirs (the bot lab's, or another
person's, when chosen) South stands in for them. The games chosen say which game's figures
these are: the partnership game's, by team, or cutthroat's (``cutthroat``), South's own.

The frames of one game take its kind from its rules: the partnership game keeps its hands
by team, so its charts draw a line or a bar for each team, and cutthroat by player, so its
charts draw one for each player (:func:`side`); the pages never put the two games in one
figure. A game's result (who won, a streak, the list of games) is read alike for both: in
cutthroat South wins alone.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from spades.engine.cards import SEAT_NAMES, SOUTH, Card, bid_label, card_label
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.store import (
    CUTTHROAT_3,
    CUTTHROAT_4,
    HAND_COLUMNS,
    HUMAN,
    PARTNERSHIP,
    PLAYER_HAND_COLUMNS,
    SEAT_KEYS,
    TEAM_KEYS,
    GameFilter,
    GameInfo,
    Selection,
    Store,
    hand_rows,
    player_hand_rows,
)
from spades.store.reports import BidTally, DayResults, ExtremeHand, Matchup

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
YOU: Final = "you"
#: The start of the name of :func:`hand_table`'s column that says why each side scored
#: what it did.
WHY: Final = "why"
#: The longest player name a chart shows.
NAME_MAX: Final = 20
#: What a side of a game is: a team, or in cutthroat a player.
Side = Literal["team", "player"]


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


def _rows_frame(rows: Sequence[tuple[Any, ...]], fields: tuple[str, ...]) -> pd.DataFrame:
    """The frame of a report's rows, one column a field (none when there are no rows)."""
    return pd.DataFrame(rows, columns=list(fields))


# ------------------------------------------------------------------------ overview
def my_stats(store: Store, selection: Selection) -> dict[str, float | int | None]:
    """Games played, won and lost, points a hand, set rate, your nils and bags a game.

    Seen from South (see the module's note): in the partnership game wins are N/S's, the
    points a hand N/S's and E/W's, the set rate is N/S's contracts and the bags N/S's; in
    cutthroat they are South's own, the others' points a hand their mean, and the figures
    add South's mean place. The nils are South's own, blind ones included.
    """
    counts = store.reports.my_counts(selection)
    figures: dict[str, float | int | None] = {
        "games": counts.games,
        "wins": counts.wins,
        "losses": counts.decided - counts.wins,
        "win_rate": counts.wins / counts.decided if counts.decided else None,
        "hands": counts.hands,
        "points_per_hand": counts.points,
        "points_per_hand_them": counts.points_others,
        "set_rate": counts.sets / counts.contracts if counts.contracts else None,
        "nil_attempts": counts.nils,
        "nil_made": counts.nils_made,
        # Only games with a scored hand: one abandoned in its first hand took no bags.
        "bags_per_game": counts.bags / counts.scored_games if counts.scored_games else None,
    }
    if selection.cutthroat:
        figures["mean_place"] = counts.mean_place
    return figures


def streaks(store: Store, selection: Selection) -> dict[str, int | bool | None]:
    """The run of wins or losses that the latest decided game ends (``current``, and
    ``current_won``: None with no decided game) and the longest run of wins."""
    won = np.array(store.reports.results(selection), dtype=bool)
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
    """The ``count`` hands in which you (and in the partnership game your partner) scored
    most and the ``count`` in which you scored least, best first, the newest first among
    equals, each hand once (fewer when there are not that many hands), with your bid and
    tricks (and your partner's)."""
    found = _rows_frame(store.reports.extreme_hands(selection, count), ExtremeHand._fields)
    columns = ["points", "day", "game", "hand", YOU]
    if not selection.cutthroat:
        columns.append("partner")
    if found.empty:
        return pd.DataFrame(columns=columns)
    found = found.drop_duplicates(["game", "hand"]).sort_values(
        "points", ascending=False, kind="stable", ignore_index=True
    )
    found["day"] = pd.to_datetime(found["started_at"]).dt.date
    found["game"] = found["game"].str[:8]
    found[YOU] = bid_text(found["bid"], found["blind"]) + " / " + found["tricks"].astype(str)
    if not selection.cutthroat:
        found["partner"] = (
            bid_text(found["partner_bid"], found["partner_blind"])
            + " / "
            + found["partner_tricks"].astype(str)
        )
    return found[columns]


def win_rate_over_time(store: Store, selection: Selection) -> pd.DataFrame:
    """Per day: games decided, wins, that day's win rate and the running win rate."""
    daily = _rows_frame(store.reports.daily_results(selection), DayResults._fields)
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
    frame = games_frame(store.list_games(game_filter, limit=limit))
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


def games_frame(found: Sequence[GameInfo]) -> pd.DataFrame:
    """Games as a frame, one column a field of :class:`~spades.store.GameInfo`."""
    names = [field.name for field in dataclasses.fields(GameInfo)]
    return pd.DataFrame({name: [getattr(game, name) for game in found] for name in names})


def latest_game(summaries: pd.DataFrame, player: str | None) -> str:
    """The game to open first: the player's most recently moved or finished one, else the
    most recently changed of those listed."""
    mine = summaries[summaries["owner"] == player] if player else summaries.iloc[:0]
    pool = summaries if mine.empty else mine
    newest = pool.sort_values("updated_at", ascending=False, kind="stable")
    return str(newest["id"].iloc[0])


# ----------------------------------------------------------------------- one game
def line_names(players: Sequence[str], *, mine: bool) -> tuple[str, ...]:
    """A name for each player of a cutthroat game, one a line or bar: their own (cut
    short), "You" at South in the viewer's own game, and their seat's beside any name two
    players share.

    >>> line_names(["Left", "Right", "Ada"], mine=True)
    ('Left', 'Right', 'You')
    >>> line_names(["Bot", "Bot", "Ada", "Bo"], mine=False)
    ('Bot (North)', 'Bot (East)', 'Ada', 'Bo')
    """
    names = [" ".join(str(name).split())[:NAME_MAX] or "?" for name in players]
    if mine:
        names[SOUTH] = "You"
    seats = seat_labels(len(names))
    return tuple(
        f"{name} ({seats[seat]})" if names.count(name) > 1 else name
        for seat, name in enumerate(names)
    )


def side(rules: Rules) -> Side:
    """What a side of a game is, and so the column a frame of one game names it in: a
    team, or in cutthroat a player."""
    return "team" if rules.partnerships else "player"


def game_hands(match: Match) -> pd.DataFrame:
    """The finished hands of a match in the store's columns: a row a hand, by team, in the
    partnership game (``hands``), and a row a player a hand in cutthroat (``player_hands``;
    a player knocked out has none for the hands they sat out)."""
    if match.rules.partnerships:
        rows, columns = hand_rows(match), HAND_COLUMNS
    else:
        rows, columns = player_hand_rows(match), PLAYER_HAND_COLUMNS
    return pd.DataFrame(rows) if rows else pd.DataFrame(columns=list(columns))


def _names(match: Match, names: Sequence[str] | None) -> Sequence[str]:
    """The sides' names given, else the seats' (the partnership game's teams by theirs)."""
    if names:
        return names
    if match.rules.partnerships:
        return TEAM_NAMES
    return line_names(seat_labels(match.rules.players), mine=False)


def score_progression(match: Match, names: Sequence[str] | None = None) -> pd.DataFrame:
    """Long frame (hand, side, score: the side a :func:`side` column): each side's running
    score, from 0 before hand 1, to the last hand it played (a cutthroat player knocked
    out stops there); the sides are named ``names`` (by default by their seats)."""
    hands, names, column = game_hands(match), _names(match, names), side(match.rules)
    if match.rules.partnerships:
        start = pd.DataFrame({"hand_no": [0], "score_ns": [0], "score_ew": [0]})
        wide = pd.concat([start, hands[["hand_no", "score_ns", "score_ew"]]], ignore_index=True)
        long = wide.melt(id_vars="hand_no", var_name=column, value_name="score")
        long[column] = long[column].map({"score_ns": names[0], "score_ew": names[1]})
        return long.rename(columns={"hand_no": "hand"})
    start = pd.DataFrame({"hand_no": 0, "seat": range(len(names)), "score": 0})
    long = pd.concat([start, hands[["hand_no", "seat", "score"]]], ignore_index=True)
    long[column] = long.pop("seat").map(dict(enumerate(names)))
    return long.rename(columns={"hand_no": "hand"})[["hand", column, "score"]]


def bags_progression(match: Match, names: Sequence[str] | None = None) -> pd.DataFrame:
    """Long frame (hand, bags, penalty, added, side: the side a :func:`side` column): each
    side's bags on the count after each hand it played, the penalty paid and the bags
    added then; the sides are named ``names`` (by default by their seats)."""
    hands, names, column = game_hands(match), _names(match, names), side(match.rules)
    shown = ["hand", "bags", "penalty", "added"]
    if match.rules.partnerships:
        parts = [
            hands[["hand_no", f"bags_after_{key}", f"penalty_{key}", f"bags_{key}"]]
            .set_axis(shown, axis=1)
            .assign(**{column: name})
            for name, key in zip(names, TEAM_KEYS, strict=True)
        ]
        if parts[0].empty:
            return pd.DataFrame(columns=[*shown, column])
        return pd.concat(parts, ignore_index=True)
    frame = hands[["hand_no", "bags_after", "penalty", "bags", "seat"]].set_axis(
        [*shown, "seat"], axis=1
    )
    frame[column] = frame.pop("seat").map(dict(enumerate(names)))
    return frame.reset_index(drop=True)


def bid_text(bid: pd.Series, blind: pd.Series) -> pd.Series:
    labels = [bid_label(int(b), bool(f)) for b, f in zip(bid, blind, strict=True)]
    return pd.Series(labels, index=bid.index, dtype=object)


def hand_table(match: Match, names: Sequence[str] | None = None) -> pd.DataFrame:
    """A readable hand-by-hand scoresheet: each seat's bid / tricks, and each side's
    points and score (and in the partnership game its bags), and why. The sides are named
    ``names`` (by default by their seats); the partnership game's seats are named by their
    places, and cutthroat marks a player knocked out as out."""
    hands = game_hands(match)
    names = _names(match, names)
    if match.rules.partnerships:
        table = pd.DataFrame({"hand": hands["hand_no"]})
        table["dealer"] = hands["dealer"].map(dict(enumerate(SEAT_NAMES)))
        for seat, key in enumerate(SEAT_KEYS):
            bid = bid_text(hands[f"bid_{key}"], hands[f"blind_{key}"])
            table[SEAT_NAMES[seat]] = bid + " / " + hands[f"tricks_{key}"].astype(str)
        for team, key in zip(names, TEAM_KEYS, strict=True):
            table[f"{team} points"] = hands[f"points_{key}"]
            table[f"{team} bags"] = hands[f"bags_after_{key}"]
            table[f"{team} score"] = hands[f"score_{key}"]
        table[f"{WHY} ({' | '.join(names)})"] = [
            " | ".join(_lines_text(lines[key]) for key in TEAM_KEYS)
            for lines in hands["breakdown"].map(json.loads)
        ]
        return table
    if hands.empty:
        return pd.DataFrame(columns=["hand", "dealer"])
    frame = hands.assign(
        name=hands["seat"].map(dict(enumerate(names))),
        bid_tricks=bid_text(hands["bid"], hands["blind"]) + " / " + hands["tricks"].astype(str),
        why=hands["breakdown"].map(lambda text: _lines_text(json.loads(text))),
    )
    wide = frame.pivot(index="hand_no", columns="name")
    table = pd.DataFrame({"hand": wide.index})
    dealers = frame[frame["dealt"].astype(bool)].set_index("hand_no")["name"]
    table["dealer"] = table["hand"].map(dealers).fillna("")
    for name in names:
        if name not in wide["bid_tricks"]:
            continue
        table[name] = wide["bid_tricks"][name].fillna("out").to_numpy()
        table[f"{name} points"] = wide["points"][name].astype("Int64").reset_index(drop=True)
        table[f"{name} score"] = wide["score"][name].astype("Int64").reset_index(drop=True)
    why = [(name + ": " + wide["why"][name]).fillna("") for name in names if name in wide["why"]]
    table[WHY] = (
        pd.concat(why, axis=1)
        .agg(lambda parts: " | ".join(p for p in parts if p), axis=1)
        .to_numpy()
    )
    return table


def _lines_text(lines: list[dict[str, Any]]) -> str:
    """A side's breakdown (as the store keeps it) in a line of text."""
    return "; ".join(f"{line['text']} ({line['points']:+d})" for line in lines) or "—"


@dataclass(frozen=True, slots=True)
class ReplayedTrick:
    """A trick of a finished hand, as a replay shows it: its number, who led and who won
    (the seats named as :func:`seat_labels` names them), and each seat's card in the order
    played. The tricks a claim took are one last trick with no card, led by nobody."""

    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]
    winner: str


def replayed_tricks(match: Match, hand_index: int) -> list[ReplayedTrick]:
    """The tricks of one finished hand, in the order they were played."""
    hand = match.finished[hand_index]
    names = seat_labels(match.rules.players)
    tricks = [
        ReplayedTrick(
            number,
            names[trick.leader],
            tuple((names[seat], card) for seat, card in trick.plays()),
            names[trick.winner],
        )
        for number, trick in enumerate(hand.tricks, 1)
    ]
    if hand.claimed_by is not None:
        tricks.append(ReplayedTrick(len(hand.tricks) + 1, "", (), names[hand.claimed_by]))
    return tricks


def trick_table(match: Match, hand_index: int) -> pd.DataFrame:
    """Trick by trick for one finished hand (:func:`replayed_tricks`): the card each seat
    played, who led and won, and "claimed" under every seat for the tricks of a claim."""
    jokers = match.rules.joker_deck
    names = seat_labels(match.rules.players)
    rows = [
        {"trick": trick.number, "leader": trick.leader, "winner": trick.winner}
        | (
            {name: card_label(card, jokers=jokers) for name, card in trick.plays}
            if trick.plays
            else dict.fromkeys(names, "claimed")
        )
        for trick in replayed_tricks(match, hand_index)
    ]
    return pd.DataFrame(rows, columns=["trick", "leader", *names, "winner"])


def rule_lines(rules: Rules) -> pd.DataFrame:
    """The score lines a chart marks: the target and, if on, the mercy score."""
    rows = [{"rule": f"target {rules.target_score}", "score": rules.target_score}]
    if rules.mercy_score is not None:
        rows.append({"rule": f"mercy {rules.mercy_score}", "score": rules.mercy_score})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------- bid accuracy
def seat_stats(store: Store, game_filter: GameFilter) -> pd.DataFrame:
    """How often each (seat, player, bid, blind, tricks taken) occurred in the games of the
    filter, the partnership game's or cutthroat's (its seats named as the game names them).

    The store counts them in one query, which keeps the frame to a few hundred rows however
    many hands are stored.
    """
    frame = _rows_frame(store.reports.bid_tallies(game_filter), BidTally._fields)
    if frame.empty:
        return pd.DataFrame(columns=["seat", "player", "bid", "blind", "taken", "n"])
    return pd.DataFrame(
        {
            "seat": seat_names(frame["seat"], frame["three"]),
            "player": player_label(frame["level"]),
            "bid": frame["bid"],
            "blind": frame["blind"].astype(bool),
            "taken": frame["taken"],
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
#: The columns of :func:`matchup_results`.
MATCHUP_COLUMNS: Final = (
    "matchup",
    "rule_set",
    "games",
    "ns_wins",
    "decided",
    "ns_win_rate",
    "mean_ns",
    "mean_ew",
    "mean_hands",
)


def matchup_results(store: Store, game_filter: GameFilter) -> pd.DataFrame:
    """Simulated matchups: games, N/S wins of the decided ones and their rate, mean final
    scores and hands, per line-up."""
    frame = _rows_frame(store.reports.matchups(game_filter), Matchup._fields)
    if frame.empty:
        return pd.DataFrame(columns=list(MATCHUP_COLUMNS))
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
    return frame[list(MATCHUP_COLUMNS)].sort_values("games", ascending=False, ignore_index=True)


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
