"""Altair charts of the analytics frames; drawn with ``theme="streamlit"`` at full width."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

AnyChart = alt.Chart | alt.LayerChart | alt.FacetChart
TEAM_COLORS = alt.Scale(domain=["N/S", "E/W"], range=["#1f77b4", "#d62728"])


def show(chart: AnyChart, *, key: str) -> None:
    """Draw a chart the way every Explore page does."""
    st.altair_chart(chart, theme="streamlit", width="stretch", key=key)


def _legend_selection(field: str) -> alt.Parameter:
    """Click a legend entry to highlight that series (shift-click for more)."""
    return alt.selection_point(fields=[field], bind="legend")


def score_chart(progression: pd.DataFrame, rules: pd.DataFrame) -> AnyChart:
    """Running score per team per hand, with the target and mercy lines."""
    pick = _legend_selection("team")
    lines = (
        alt.Chart(progression)
        .mark_line(point=True)
        .encode(
            x=alt.X("hand:Q", title="Hand", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("score:Q", title="Score"),
            color=alt.Color("team:N", scale=TEAM_COLORS, title="Team"),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=["team:N", "hand:Q", "score:Q"],
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


def bags_chart(bags: pd.DataFrame, bag_limit: int | None) -> AnyChart:
    """Bags on the count per team after each hand, with a marker where a penalty hit."""
    pick = _legend_selection("team")
    base = alt.Chart(bags).encode(
        x=alt.X("hand:Q", title="Hand", axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("team:N", scale=TEAM_COLORS, title="Team"),
    )
    lines = (
        base.mark_line(point=True)
        .encode(
            y=alt.Y("bags:Q", title="Bags on the count"),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=["team:N", "hand:Q", "bags:Q", "added:Q"],
        )
        .add_params(pick)
    )
    penalties = (
        base.transform_filter(alt.datum.penalty > 0)
        .mark_point(shape="triangle-down", size=160, filled=True)
        .encode(
            y="bags:Q",
            tooltip=["team:N", "hand:Q", alt.Tooltip("penalty:Q", title="penalty points")],
        )
    )
    layers: list[alt.Chart] = [lines, penalties]
    if bag_limit is not None:
        limit = pd.DataFrame({"bags": [bag_limit]})
        layers.append(
            alt.Chart(limit).mark_rule(strokeDash=[6, 4], color="gray").encode(y="bags:Q")
        )
    return alt.layer(*layers)


def win_rate_chart(daily: pd.DataFrame) -> AnyChart:
    """N/S win rate per day (bars: games) and the running win rate (line)."""
    base = alt.Chart(daily).encode(x=alt.X("day:T", title="Day"))
    running = base.mark_line(point=True, color="#1f77b4").encode(
        y=alt.Y("running_win_rate:Q", title="N/S win rate", axis=alt.Axis(format="%")),
        tooltip=[
            alt.Tooltip("day:T"),
            "games:Q",
            "wins:Q",
            alt.Tooltip("win_rate:Q", format=".0%", title="that day"),
            alt.Tooltip("running_win_rate:Q", format=".0%", title="so far"),
        ],
    )
    daily_points = base.mark_circle(color="gray", opacity=0.5).encode(
        y="win_rate:Q", size=alt.Size("games:Q", title="Games that day")
    )
    return alt.layer(daily_points, running)


def bid_scatter(counts: pd.DataFrame, group: str) -> AnyChart:
    """Bid against tricks taken: one circle a (bid, taken), sized by how often."""
    pick = _legend_selection(group)
    top = int(max(counts["bid"].max(), counts["taken"].max(), 1))
    diagonal = pd.DataFrame({"bid": [0, top], "taken": [0, top]})
    dots = (
        alt.Chart(counts)
        .mark_circle()
        .encode(
            x=alt.X("bid:Q", title="Bid", scale=alt.Scale(domain=[0, top])),
            y=alt.Y("taken:Q", title="Tricks taken", scale=alt.Scale(domain=[0, top])),
            size=alt.Size("n:Q", title="Hands"),
            color=alt.Color(f"{group}:N", title=group.capitalize()),
            opacity=alt.condition(pick, alt.value(0.7), alt.value(0.05)),
            tooltip=[f"{group}:N", "bid:Q", "taken:Q", alt.Tooltip("n:Q", title="hands")],
        )
        .add_params(pick)
    )
    exact = (
        alt.Chart(diagonal)
        .mark_line(color="gray", strokeDash=[4, 4])
        .encode(x="bid:Q", y="taken:Q")
    )
    return alt.layer(exact, dots)


def diff_chart(dist: pd.DataFrame, group: str) -> AnyChart:
    """Distribution of (taken − bid) per group, as grouped bars of shares."""
    chart: AnyChart = (
        alt.Chart(dist)
        .mark_bar()
        .encode(
            x=alt.X("diff:O", title="Tricks taken − bid"),
            xOffset=alt.XOffset(f"{group}:N"),
            y=alt.Y("share:Q", title="Share of bids", axis=alt.Axis(format="%")),
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
            x=alt.X("rate:Q", title="Share of numeric bids", axis=alt.Axis(format="%")),
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


def nil_chart(nils: pd.DataFrame) -> AnyChart:
    """Nil success rate per bidder, split into nil and blind nil."""
    chart: AnyChart = (
        alt.Chart(nils)
        .mark_bar()
        .encode(
            y=alt.Y("bidder:N", title=None),
            yOffset=alt.YOffset("bid:N"),
            x=alt.X(
                "success:Q", title="Made", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])
            ),
            color=alt.Color("bid:N", title="Bid"),
            tooltip=[
                "bidder:N",
                "bid:N",
                "attempts:Q",
                "made:Q",
                alt.Tooltip("success:Q", format=".0%"),
            ],
        )
    )
    return chart


def matchup_chart(results: pd.DataFrame) -> AnyChart:
    """N/S win rate per bot line-up and rule set."""
    chart: AnyChart = (
        alt.Chart(results)
        .mark_bar()
        .encode(
            y=alt.Y("matchup:N", title="N+S vs E+W", sort="-x", axis=alt.Axis(labelLimit=320)),
            x=alt.X(
                "ns_win_rate:Q",
                title="N/S win rate",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color("rule_set:N", title="Rules"),
            yOffset=alt.YOffset("rule_set:N"),
            tooltip=[
                "matchup:N",
                "rule_set:N",
                "games:Q",
                alt.Tooltip("ns_win_rate:Q", format=".0%"),
                alt.Tooltip("mean_ns:Q", format=".0f", title="mean N/S score"),
                alt.Tooltip("mean_ew:Q", format=".0f", title="mean E/W score"),
                alt.Tooltip("mean_hands:Q", format=".1f", title="hands a game"),
            ],
        )
    )
    return chart
