"""The Bot lab page: pick bots and rules, simulate matches, compare the line-ups.

The matches run in a worker process (:class:`spades.app.lab.LabJob`) that stores them in
chunks; a fragment polls its progress twice a second, so the page stays usable meanwhile.
Each poll also tells the worker the page is still open: a run whose page went away stops.
"""

from __future__ import annotations

import random
from typing import Final

import pandas as pd
import streamlit as st

from spades.app import lineups
from spades.app.lab import (
    MAX_MATCHES,
    MAX_RUN_SECONDS,
    LabBusy,
    LabJob,
    LabSpec,
    StopReason,
    running_job,
)
from spades.app.site import GameFilter
from spades.bots import bot_names
from spades.engine.rules import Rules, RulesError, describe_options
from spades.ui import charts, identity, safe, words
from spades.ui.analytics_view import SHARE, query, table
from spades.ui.db import app_site

JOB_KEY: Final = "lab_job"
SHOWN_KEY: Final = "lab_job_shown"
ERROR_KEY: Final = "lab_error"
SEED_KEY: Final = "lab_seed"
MAX_SEED: Final = 2**31
POLL_SECONDS: Final = 0.5
TARGETS: Final = (300, 500, 1000)
MERCIES: Final = (-200, -500, None)
SIMULATED: Final = GameFilter(kinds=("simulated",))
#: How the line-ups' table shows its figures: shares in percents, scores whole.
FORMATS: Final = {
    "ns_win_rate": SHARE,
    "ns_win_low": SHARE,
    "ns_win_high": SHARE,
    "mean_ns": "{:.0f}",
    "mean_ew": "{:.0f}",
    "mean_hands": "{:.1f}",
}
STOPPED: Final = {
    StopReason.ASKED: "Stopped",
    StopReason.UNWATCHED: "Stopped because this page stopped checking on the run",
    StopReason.TIME_LIMIT: f"Stopped at a run's time limit of {MAX_RUN_SECONDS / 60:.0f} minutes",
    StopReason.SERVER_GONE: "Stopped because the server restarted",
}


def _job() -> LabJob | None:
    """The player's run still going (perhaps started on another page), else the last one."""
    owner = identity.player_id()
    current = running_job(owner) if owner is not None else None
    if current is not None:
        st.session_state[JOB_KEY] = current
    job: LabJob | None = st.session_state.get(JOB_KEY)
    return job


def _switches() -> dict[str, tuple[str, str]]:
    """The on/off house options: name -> (label, help)."""
    return {
        name: (label, help_text)
        for name, label, help_text, default in describe_options()
        if isinstance(default, bool)
    }


def _rules(target: int, mercy: int | None, flipped: list[str]) -> Rules:
    standard = Rules()
    changes: dict[str, object] = {"target_score": target, "mercy_score": mercy}
    changes |= {name: not getattr(standard, name) for name in flipped}
    return standard.replace(**changes)


def _start(url: str) -> None:
    """Submit callback: start a run from the form's values, then move the seed on."""
    state = st.session_state
    try:
        rules = _rules(state.lab_target, state.lab_mercy, state.lab_options)
    except RulesError as err:
        state[ERROR_KEY] = f"These options do not go together: {err}"
        return
    state[ERROR_KEY] = None
    spec = LabSpec(
        (state.lab_ns, state.lab_ew, state.lab_ns, state.lab_ew),
        rules,
        matches=int(state.lab_matches),
        seed=int(state[SEED_KEY]),
    )
    try:
        # The lab allows one run a player: the run belongs to the player at this browser.
        owner = identity.ensure_player(str(state.get("player_name") or "You"))
        state[JOB_KEY] = LabJob(url, spec, owner=owner)
    except LabBusy as err:
        state[ERROR_KEY] = str(err)
        return
    # The next run deals new matches unless the player picks a seed again.
    state[SEED_KEY] = min(spec.seed + spec.matches, MAX_SEED)


def _form(url: str, running: bool) -> None:
    names = bot_names()
    switches = _switches()
    # The seed lives in the session, where a run moves it on; the widget shows it.
    st.session_state.setdefault(SEED_KEY, random.randrange(2**20))
    # Enter in a number field only takes the number: a run starts from its button alone.
    with st.form("lab_form", enter_to_submit=False):
        ns_col, ew_col, count_col = st.columns(3)
        ns_col.selectbox("North/South bots", names, key="lab_ns")
        ew_col.selectbox("East/West bots", names, key="lab_ew")
        count_col.number_input(
            "Matches", min_value=1, max_value=MAX_MATCHES, value=50, step=10, key="lab_matches"
        )
        target_col, mercy_col, seed_col = st.columns(3)
        target_col.selectbox("Target score", TARGETS, index=1, key="lab_target")
        mercy_col.selectbox(
            "Mercy score",
            MERCIES,
            format_func=lambda m: "off" if m is None else str(m),
            key="lab_mercy",
        )
        seed_col.number_input(
            "First seed",
            min_value=0,
            max_value=MAX_SEED,
            key=SEED_KEY,
            help="Match i is dealt from seed + i: the same seed replays the same matches.",
        )
        st.multiselect(
            "House options switched from the standard game",
            list(switches),
            format_func=lambda name: switches[name][0],
            key="lab_options",
            help="; ".join(f"{label}: {text}" for label, text in switches.values()),
        )
        st.form_submit_button(
            "Run",
            key="lab_run",
            type="primary",
            disabled=running,
            icon=":material/play_arrow:",
            on_click=_start,
            args=(url,),
        )
    if st.session_state.get(ERROR_KEY):
        st.error(st.session_state[ERROR_KEY])


def _progress() -> None:
    job = _job()
    if job is None:
        return
    total = job.spec.matches
    if job.running:
        job.beat()
        st.progress(
            job.done / total,
            text=f"Simulating: {job.done} of {words.count(total, 'match')} stored",
        )
        st.button("Stop", key="lab_stop", on_click=job.stop, icon=":material/stop:")
        return
    if job.failed:
        st.error(
            "The simulation stopped with an error: "
            f"{job.done} of {words.count(total, 'simulated match')} stored."
        )
    elif job.stop_reason is not None and job.done < total:
        st.warning(
            f"{STOPPED[job.stop_reason]}: "
            f"{job.done} of {words.count(total, 'simulated match')} stored."
        )
    else:
        st.success(f"Stored {job.done} of {words.count(total, 'simulated match')}.")
    if st.session_state.get(SHOWN_KEY) is not job:
        # The run just ended: one full rerun brings its games into the charts below.
        st.session_state[SHOWN_KEY] = job
        st.rerun()


def bot_lab_page() -> None:
    """Simulate matches between bots and compare the line-ups."""
    site = app_site()
    st.title("Bot lab")
    st.write(
        "Pit bots against each other. Every match is stored as a simulated game: switch "
        "on the bot lab in My stats, or other games in the Game explorer, to see them there."
    )
    job = _job()
    running = job is not None and job.running
    _form(site.url, running)
    st.fragment(run_every=POLL_SECONDS if running else None)(_progress)()
    st.subheader("Line-ups compared")
    results = query(lineups.lineups, site, SIMULATED)
    if results.empty:
        st.info(
            "No simulated games yet: run 50 matches above to compare the bots.",
            icon=":material/smart_toy:",
        )
        return
    charts.show(charts.matchup_chart(results), key="lab_matchups_chart")
    st.caption(
        "Each bar is the share of decided matches N/S won; the black line across it is its "
        "95% interval, where the true rate lies. Few matches give a wide interval, and one "
        "that crosses the dashed 50% line has not shown which side wins more."
    )
    _too_few(results)
    table(results, key="lab_matchups", file_name="bot_lab_matchups.csv", formats=FORMATS)


def _too_few(results: pd.DataFrame) -> None:
    """Say plainly which line-ups have played too few matches to tell which side wins more."""
    few = results[results["finding"] == lineups.TOO_FEW]
    if few.empty:
        return
    columns = ["matchup", "rule_set", "ns_wins", "decided", "ns_win_low", "ns_win_high"]
    lines = [
        f"- {safe.md(matchup)} ({safe.md(rules)}): N/S won {wins} of "
        f"{words.count(decided, 'decided match')}, a true rate anywhere from "
        f"{SHARE.format(low)} to {SHARE.format(high)}"
        for matchup, rules, wins, decided, low, high in few[columns].itertuples(
            index=False, name=None
        )
    ]
    st.info(
        "Too few matches to tell which side wins more:\n"
        + "\n".join(lines)
        + "\n\nRun more matches of these line-ups.",
        icon=":material/help:",
    )
