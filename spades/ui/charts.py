"""Altair charts of the analytics frames; drawn with ``theme="streamlit"`` at full width.

A count (hands, bids, tricks, bags, games) is drawn on an axis or legend of whole numbers,
and a share on a percent axis that steps by at least one percent: left to itself, Vega
labels a scale of few values in fractions (a bid of 2.5, "0.000000%").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import altair as alt
import pandas as pd
import streamlit as st

AnyChart = alt.Chart | alt.LayerChart | alt.FacetChart
#: The two teams' colours, the player's team (or N/S) first.
TEAM_RANGE = ["#1f77b4", "#d62728"]
#: Cutthroat's players' colours, seat by seat.
PLAYER_RANGE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"]
#: What a line of the score and bags charts is: a team, or in cutthroat a player.
Series = Literal["team", "player"]
#: Where a share runs: every rate drawn lies between none and all.
WHOLE = alt.Scale(domain=[0, 1])


def show(chart: AnyChart, *, key: str) -> None:
    """Draw a chart the way every Explore page does."""
    st.altair_chart(chart, theme="streamlit", width="stretch", key=key)


def _count_axis(title: str) -> alt.Axis:
    """An axis of whole numbers."""
    return alt.Axis(title=title, tickMinStep=1, format="d")


def _count_size(field: str, title: str) -> alt.Size:
    """Circles sized by a count, with a legend of whole numbers. The scale starts at one,
    the least a circle counts: from zero, the legend would offer a circle of none."""
    return alt.Size(
        f"{field}:Q",
        scale=alt.Scale(domainMin=1),
        legend=alt.Legend(title=title, tickMinStep=1, format="d"),
    )


def _share_axis(title: str) -> alt.Axis:
    """A percent axis with whole percents."""
    return alt.Axis(title=title, tickMinStep=0.01, format=".0%")


def _series_colour(frame: pd.DataFrame, series: Series) -> alt.Color:
    """The colour of each team (or player) of a frame, in the order they come."""
    return alt.Color(
        f"{series}:N",
        scale=_series_scale(frame[series], PLAYER_RANGE if series == "player" else TEAM_RANGE),
        title=series.capitalize(),
    )


def _series_scale(names: Iterable[str], colours: list[str]) -> alt.Scale:
    return alt.Scale(domain=list(dict.fromkeys(names)), range=colours)


def _legend_selection(field: str) -> alt.Parameter:
    """Click a legend entry to highlight that series (shift-click for more)."""
    return alt.selection_point(fields=[field], bind="legend")


def score_chart(
    progression: pd.DataFrame, rules: pd.DataFrame, series: Series = "team"
) -> AnyChart:
    """Running score per team (or in cutthroat per player) per hand, with the target and
    mercy lines."""
    pick = _legend_selection(series)
    lines = (
        alt.Chart(progression)
        .mark_line(point=True)
        .encode(
            x=alt.X("hand:Q", axis=_count_axis("Hand")),
            y=alt.Y("score:Q", title="Score"),
            color=_series_colour(progression, series),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=[f"{series}:N", "hand:Q", "score:Q"],
        )
        .add_params(pick)
    )
    marks = alt.Chart(rules).mark_rule(strokeDash=[6, 4], color="gray").encode(y="score:Q")
    labels = (
        alt.Chart(rules)
        .mark_text(align="left", dx=4, dy=-6, color="gray")
        .encode(y="score:Q", x=alt.value(0), text="rule:N")
    )
    return alt.layer(lines, marks, labels)


def bags_chart(bags: pd.DataFrame, bag_limit: int | None, series: Series = "team") -> AnyChart:
    """Bags on the count per team (or in cutthroat per player) after each hand, with a
    marker where a penalty hit."""
    pick = _legend_selection(series)
    y = alt.Y("bags:Q", axis=_count_axis("Bags on the count"))
    base = alt.Chart(bags).encode(
        x=alt.X("hand:Q", axis=_count_axis("Hand")),
        y=y,
        color=_series_colour(bags, series),
    )
    lines = (
        base.mark_line(point=True)
        .encode(
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=[f"{series}:N", "hand:Q", "bags:Q", "added:Q"],
        )
        .add_params(pick)
    )
    penalties = (
        base.transform_filter(alt.datum.penalty > 0)
        .mark_point(shape="triangle-down", size=160, filled=True)
        .encode(
            tooltip=[f"{series}:N", "hand:Q", alt.Tooltip("penalty:Q", title="penalty points")],
        )
    )
    layers: list[alt.Chart] = [lines, penalties]
    if bag_limit is not None:
        limit = alt.Chart(pd.DataFrame({"bags": [bag_limit], "rule": [f"bag limit: {bag_limit}"]}))
        layers.append(limit.mark_rule(strokeDash=[6, 4], color="gray").encode(y=y))
        layers.append(
            limit.mark_text(align="left", dx=4, dy=-6, color="gray").encode(
                y=y, x=alt.value(0), text="rule:N"
            )
        )
    return alt.layer(*layers)


def win_rate_chart(daily: pd.DataFrame) -> AnyChart:
    """The win rate of you and partner each day (circles sized by games) and so far (line)."""
    base = alt.Chart(daily).encode(x=alt.X("day:T", title="Day"))
    axis = _share_axis("Win rate")
    running = base.mark_line(point=True, color=TEAM_RANGE[0]).encode(
        y=alt.Y("running_win_rate:Q", axis=axis, scale=WHOLE),
        tooltip=[
            alt.Tooltip("day:T"),
            "games:Q",
            "wins:Q",
            alt.Tooltip("win_rate:Q", format=".0%", title="that day"),
            alt.Tooltip("running_win_rate:Q", format=".0%", title="so far"),
        ],
    )
    daily_points = base.mark_circle(color="gray", opacity=0.5).encode(
        y=alt.Y("win_rate:Q", axis=axis, scale=WHOLE),
        size=_count_size("games", "Games that day"),
    )
    return alt.layer(daily_points, running)


def bid_scatter(counts: pd.DataFrame, group: str) -> AnyChart:
    """Bid against tricks taken: one circle a (bid, taken), sized by how often."""
    pick = _legend_selection(group)
    top = int(max(counts["bid"].max(), counts["taken"].max(), 1))
    diagonal = pd.DataFrame({"bid": [0, top], "taken": [0, top]})
    x = alt.X("bid:Q", axis=_count_axis("Bid"), scale=alt.Scale(domain=[0, top]))
    y = alt.Y("taken:Q", axis=_count_axis("Tricks taken"), scale=alt.Scale(domain=[0, top]))
    dots = (
        alt.Chart(counts)
        .mark_circle()
        .encode(
            x=x,
            y=y,
            size=_count_size("n", "Hands"),
            color=alt.Color(f"{group}:N", title=group.capitalize()),
            opacity=alt.condition(pick, alt.value(0.7), alt.value(0.05)),
            tooltip=[f"{group}:N", "bid:Q", "taken:Q", alt.Tooltip("n:Q", title="hands")],
        )
        .add_params(pick)
    )
    exact = alt.Chart(diagonal).mark_line(color="gray", strokeDash=[4, 4]).encode(x=x, y=y)
    return alt.layer(exact, dots)


def diff_chart(dist: pd.DataFrame, group: str) -> AnyChart:
    """Distribution of (taken − bid) per group, as grouped bars of shares."""
    chart: AnyChart = (
        alt.Chart(dist)
        .mark_bar()
        .encode(
            x=alt.X("diff:O", title="Tricks taken − bid"),
            xOffset=alt.XOffset(f"{group}:N"),
            y=alt.Y("share:Q", axis=_share_axis("Share of bids")),
            color=alt.Color(f"{group}:N", title=group.capitalize()),
            tooltip=[f"{group}:N", "diff:O", "n:Q", alt.Tooltip("share:Q", format=".1%")],
        )
    )
    return chart


def rates_chart(rates: pd.DataFrame, group: str) -> AnyChart:
    """Exact, over and under rates per group, as stacked bars."""
    chart: AnyChart = (
        alt.Chart(rates)
        .mark_bar()
        .encode(
            y=alt.Y(f"{group}:N", title=None),
            x=alt.X("rate:Q", axis=_share_axis("Share of numeric bids"), scale=WHOLE),
            color=alt.Color(
                "outcome:N",
                scale=alt.Scale(
                    domain=["under", "exact", "over"], range=["#d62728", "#2ca02c", "#ff7f0e"]
                ),
                title="Tricks vs bid",
            ),
            order=alt.Order("outcome:N"),
            tooltip=[f"{group}:N", "outcome:N", "n:Q", alt.Tooltip("rate:Q", format=".1%")],
        )
    )
    return chart


def nil_chart(outcomes: pd.DataFrame) -> AnyChart:
    """Nils made and missed per bidder and kind of nil, as bars of shares that fill the
    width: a bidder who made none shows a bar all missed."""
    chart: AnyChart = (
        alt.Chart(outcomes)
        .mark_bar()
        .encode(
            y=alt.Y("who:N", title=None, axis=alt.Axis(labelLimit=320)),
            x=alt.X("share:Q", axis=_share_axis("Nil bids"), scale=WHOLE),
            color=alt.Color(
                "outcome:N",
                scale=alt.Scale(domain=["made", "missed"], range=["#2ca02c", "#d62728"]),
                title="Nil",
            ),
            order=alt.Order("outcome:N"),
            tooltip=["who:N", "outcome:N", "n:Q", alt.Tooltip("share:Q", format=".0%")],
        )
    )
    return chart


def matchup_chart(results: pd.DataFrame) -> AnyChart:
    """N/S win rate per bot line-up and rule set (:func:`spades.app.lineups.lineups`), each
    bar with its 95% interval, and a line at one half: a line-up whose interval crosses it
    has not shown it wins more."""
    y = alt.Y(
        "matchup:N",
        title="N+S vs E+W",
        sort=alt.EncodingSortField("ns_win_rate", op="max", order="descending"),
        axis=alt.Axis(labelLimit=320),
    )
    x = alt.X("ns_win_rate:Q", axis=_share_axis("N/S win rate (95% interval)"), scale=WHOLE)
    tooltip: list[str | alt.Tooltip] = [
        "matchup:N",
        "rule_set:N",
        "games:Q",
        alt.Tooltip("ns_wins:Q", title="N/S won"),
        alt.Tooltip("decided:Q", title="decided"),
        alt.Tooltip("ns_win_rate:Q", format=".0%"),
        alt.Tooltip("ns_win_low:Q", format=".0%", title="95% interval from"),
        alt.Tooltip("ns_win_high:Q", format=".0%", title="to"),
        alt.Tooltip("finding:N", title="the matches show"),
        alt.Tooltip("mean_ns:Q", format=".0f", title="mean N/S score"),
        alt.Tooltip("mean_ew:Q", format=".0f", title="mean E/W score"),
        alt.Tooltip("mean_hands:Q", format=".1f", title="hands a game"),
    ]
    base = alt.Chart(results).encode(y=y, yOffset=alt.YOffset("rule_set:N"), tooltip=tooltip)
    bars = base.mark_bar(opacity=0.6).encode(x=x, color=alt.Color("rule_set:N", title="Rules"))
    intervals = base.mark_rule(strokeWidth=2, color="black").encode(
        x=alt.X("ns_win_low:Q", axis=_share_axis("N/S win rate (95% interval)"), scale=WHOLE),
        x2="ns_win_high:Q",
    )
    even = (
        alt.Chart(pd.DataFrame({"ns_win_rate": [0.5]}))
        .mark_rule(strokeDash=[4, 4], color="gray")
        .encode(x=x)
    )
    return alt.layer(bars, intervals, even)


def rating_chart(history: pd.DataFrame) -> AnyChart:
    """A rating after each rated game (``spades.stats.leaderboard.rating_history``): μ as a line,
    with the band of one σ either side."""
    x = alt.X("game:Q", axis=_count_axis("Rated games"))
    base = alt.Chart(history).encode(x=x)
    band = base.mark_area(opacity=0.25).encode(
        y=alt.Y("low:Q", title="Rating (μ ± σ)"), y2="high:Q"
    )
    line = base.mark_line(point=True).encode(
        y="mu:Q",
        tooltip=[
            alt.Tooltip("game:Q", title="game", format="d"),
            alt.Tooltip("mu:Q", title="μ", format=".1f"),
            alt.Tooltip("sigma:Q", title="σ", format=".1f"),
        ],
    )
    return alt.layer(band, line)
