"""pandas frames for the Explore pages, aggregated in SQL or pandas from the game store.

Every function takes a :class:`~spades.store.Store` and a
:class:`~spades.store.GameFilter` (or a game's hands) and returns a small frame or a
dict ready for a chart; none loops over stored rows in Python.

North/South is "us": in a human game the player sits South, so the N/S win rate is the
player's; in a simulated game it is the N/S bots'.
"""

from __future__ import annotations

import json
from typing import Any, Final

import numpy as np
import pandas as pd
import sqlalchemy as sa

from spades.cards import SEAT_NAMES, bid_label, card_label
from spades.match import Match
from spades.rules import Rules
from spades.store import HUMAN, SEAT_KEYS, TEAM_KEYS, GameFilter, Store, games, hand_rows, hands

TEAM_NAMES: Final = ("N/S", "E/W")
YOU: Final = "you"


def _player_label(level: pd.Series) -> pd.Series:
    """ "you" for a human seat, "bot: <level>" for a bot."""
    return level.where(level == HUMAN, "bot: " + level).replace(HUMAN, YOU)


# ------------------------------------------------------------------------ overview
def _count_true(*conditions: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    """SQL: how many of ``conditions`` hold, summed over the rows."""
    expr: sa.ColumnElement[Any] = sa.case((conditions[0], 1), else_=0)
    for condition in conditions[1:]:
        expr = expr + sa.case((condition, 1), else_=0)
    return sa.func.coalesce(sa.func.sum(expr), 0)


def overview_kpis(store: Store, game_filter: GameFilter) -> dict[str, float | int | None]:
    """Games played, N/S win rate, points and bags per hand, set rate, nil attempts."""
    g = games.c
    with store.engine.connect() as conn:
        played, decided, ns_wins = conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.count(g.winner),
                sa.func.coalesce(sa.func.sum(sa.case((g.winner == 0, 1), else_=0)), 0),
            ).where(game_filter.clause())
        ).one()
        h = hands.c
        nil_bids = [h[f"bid_{k}"] == 0 for k in SEAT_KEYS]
        nil_made = [sa.and_(h[f"bid_{k}"] == 0, h[f"tricks_{k}"] == 0) for k in SEAT_KEYS]
        row = conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.avg(h.points_ns),
                sa.func.avg(h.points_ew),
                _count_true(h.made_ns.is_(False), h.made_ew.is_(False)),
                _count_true(h.made_ns.is_not(None), h.made_ew.is_not(None)),
                _count_true(*nil_bids),
                _count_true(*nil_made),
                sa.func.avg(h.bags_ns),
                sa.func.avg(h.bags_ew),
            )
            .join_from(hands, games, h.game == g.num)
            .where(game_filter.clause())
        ).one()
    hand_count, pts_ns, pts_ew, sets, contracts, nils, nils_made, bags_ns, bags_ew = row
    return {
        "games": int(played),
        "decided": int(decided),
        "win_rate": ns_wins / decided if decided else None,
        "hands": int(hand_count),
        "points_per_hand_ns": float(pts_ns) if pts_ns is not None else None,
        "points_per_hand_ew": float(pts_ew) if pts_ew is not None else None,
        "set_rate": sets / contracts if contracts else None,
        "nil_attempts": int(nils),
        "nil_success": nils_made / nils if nils else None,
        "bags_per_hand_ns": float(bags_ns) if bags_ns is not None else None,
        "bags_per_hand_ew": float(bags_ew) if bags_ew is not None else None,
    }


def win_rate_over_time(store: Store, game_filter: GameFilter) -> pd.DataFrame:
    """Per day: games decided, N/S wins, that day's win rate and the running win rate."""
    g = games.c
    day = sa.func.date(g.started_at).label("day")
    daily = store.frame(
        sa.select(
            day,
            sa.func.count().label("games"),
            sa.func.sum(sa.case((g.winner == 0, 1), else_=0)).label("wins"),
        )
        .where(game_filter.clause(), g.winner.is_not(None))
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
    """The newest games with their result, for pickers and tables."""
    frame = store.list_games(game_filter, limit=limit)
    if frame.empty:
        return frame
    result = np.select(
        [frame["winner"] == 0, frame["winner"] == 1],
        ["N/S won", "E/W won"],
        default=np.where(frame["status"] == "playing", "in play", "no winner"),
    )
    frame["result"] = result
    frame["label"] = (
        pd.to_datetime(frame["started_at"]).dt.strftime("%Y-%m-%d %H:%M")
        + " · "
        + frame["kind"]
        + " · "
        + frame["score_ns"].astype(str)
        + "–"
        + frame["score_ew"].astype(str)
        + " · "
        + frame["id"].str[:8]
    )
    return frame


# ----------------------------------------------------------------------- one game
def game_hands(match: Match) -> pd.DataFrame:
    """The finished hands of a match, in the store's ``hands`` columns."""
    frame = pd.DataFrame(hand_rows(match))
    if frame.empty:
        return pd.DataFrame(columns=[c.name for c in hands.c if c.name != "game"])
    return frame


def score_progression(hand_frame: pd.DataFrame) -> pd.DataFrame:
    """Long frame (hand, team, score): each team's running score, from 0 before hand 1."""
    start = pd.DataFrame({"hand_no": [0], "score_ns": [0], "score_ew": [0]})
    wide = pd.concat([start, hand_frame[["hand_no", "score_ns", "score_ew"]]], ignore_index=True)
    long = wide.melt(id_vars="hand_no", var_name="team", value_name="score")
    long["team"] = long["team"].map({"score_ns": TEAM_NAMES[0], "score_ew": TEAM_NAMES[1]})
    return long.rename(columns={"hand_no": "hand"})


def bags_progression(hand_frame: pd.DataFrame) -> pd.DataFrame:
    """Long frame (hand, team, bags, penalty): bags on the count after each hand."""
    parts = []
    for team, key in zip(TEAM_NAMES, TEAM_KEYS, strict=True):
        part = hand_frame[["hand_no", f"bags_after_{key}", f"penalty_{key}", f"bags_{key}"]]
        part = part.set_axis(["hand", "bags", "penalty", "added"], axis=1).assign(team=team)
        parts.append(part)
    if not parts[0].empty:
        return pd.concat(parts, ignore_index=True)
    return pd.DataFrame(columns=["hand", "bags", "penalty", "added", "team"])


def _bid_text(bid: pd.Series, blind: pd.Series) -> pd.Series:
    labels = [bid_label(int(b), bool(f)) for b, f in zip(bid, blind, strict=True)]
    return pd.Series(labels, index=bid.index, dtype=object)


def hand_table(hand_frame: pd.DataFrame) -> pd.DataFrame:
    """A readable hand-by-hand scoresheet."""
    table = pd.DataFrame({"hand": hand_frame["hand_no"]})
    table["dealer"] = hand_frame["dealer"].map(dict(enumerate(SEAT_NAMES)))
    for seat, key in enumerate(SEAT_KEYS):
        bid = _bid_text(hand_frame[f"bid_{key}"], hand_frame[f"blind_{key}"])
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
    """Trick by trick for one finished hand: the card each seat played, who led and won."""
    hand = match.finished[hand_index]
    jokers = match.rules.jokers
    rows = []
    for number, trick in enumerate(hand.tricks, 1):
        row: dict[str, Any] = {"trick": number, "leader": SEAT_NAMES[trick.leader]}
        for seat, card in trick.plays():
            row[SEAT_NAMES[seat]] = card_label(card, jokers=jokers)
        row["winner"] = SEAT_NAMES[trick.winner]
        rows.append(row)
    if hand.claimed_by is not None:
        rows.append(
            {"trick": len(hand.tricks) + 1, "leader": "", "winner": SEAT_NAMES[hand.claimed_by]}
            | {name: "claimed" for name in SEAT_NAMES}
        )
    return pd.DataFrame(rows, columns=["trick", "leader", *SEAT_NAMES, "winner"])


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
            "player": _player_label(frame["level"]),
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
        .where(game_filter.clause(), g.kind == "simulated")
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
