"""AppTest checks of the Explore pages: empty states, data, filters and the charts' specs."""

from __future__ import annotations

import json
import math
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import UnknownElement

from spades.app.lab import MAX_MATCHES, MAX_RUNS, LabJob, LabSpec, run_lab
from spades.bots.drive import play_match
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import GameFilter, Store
from spades.store.schema import games
from spades.ui.analytics_view import NOTE_LINE_CHARS, NOTE_LINE_HEIGHT, NOTE_WIDTH
from spades.ui.cards import card_html
from spades.ui.identity import STATE_KEY, Identity

pytestmark = pytest.mark.apptest

PAGES = Path(__file__).resolve().parent.parent / "pages"
ANALYTICS_PAGES = ("overview", "explorer", "bids")
HUMAN_LEVELS = {0: "random", 1: "random", 3: "random"}
SIMULATED = 12
HUMAN_GAMES = 4


@pytest.fixture
def store(database: str) -> Store:
    return Store.default(database, rater=RATER)


@pytest.fixture
def filled(store: Store) -> Store:
    run_lab(store, LabSpec(("random",) * 4, Rules(), matches=SIMULATED, seed=1))
    human = [play_match(Rules(), seed, ["random"] * 4) for seed in range(50, 50 + HUMAN_GAMES)]
    store.save_matches(
        [(m, ("North", "East", "You", "West"), HUMAN_LEVELS) for m in human], kind="human"
    )
    run_lab(store, LabSpec(("random",) * 4, Rules(target_score=300), matches=2, seed=90))
    return store


def _page(name: str) -> AppTest:
    at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def _my_stats(*, player: str | None = None, bot_lab: bool = False, others: bool = False) -> AppTest:
    """The Overview (My stats) of ``player`` (a new visitor when None), with the bot lab's
    games and other people's when chosen."""
    at = AppTest.from_file(str(PAGES / "overview.py"), default_timeout=60)
    at.session_state["overview_bot_lab"] = bot_lab
    at.session_state["overview_others"] = others
    if player is not None:
        at.session_state[STATE_KEY] = Identity(player)
    at.run()
    assert not at.exception
    return at


def _own(store: Store, player: str, game_ids: list[str]) -> None:
    """Make finished games ``player``'s, as if played on the Play page."""
    with store.engine.begin() as conn:
        conn.execute(games.update().where(games.c.id.in_(game_ids)).values(owner=player))


def _explorer(
    *, player: str | None = None, others: bool = True, query: dict[str, str] | None = None
) -> AppTest:
    """The Game explorer of ``player`` (a new visitor when None), with or without the
    finished games of others (every game the ``filled`` store holds is nobody's)."""
    at = AppTest.from_file(str(PAGES / "explorer.py"), default_timeout=60)
    at.session_state["explorer_others"] = others
    if player is not None:
        at.session_state[STATE_KEY] = Identity(player)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def _charts(at: AppTest) -> list[UnknownElement]:
    return list(at.get("vega_lite_chart"))  # type: ignore[arg-type]


def _spec(chart: UnknownElement) -> dict[str, Any]:
    assert chart.proto.theme == "streamlit"
    spec: dict[str, Any] = json.loads(chart.proto.spec)
    return spec


def _datasets(chart: UnknownElement) -> list[pd.DataFrame]:
    return [pa.ipc.open_stream(d.data.data).read_pandas() for d in chart.proto.datasets]


def _layers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return spec.get("layer", [spec])


def _shown(table: Any) -> pd.DataFrame:
    """A table's cells as the page shows them (its styler's display values)."""
    data = table.proto.arrow_data.styler.display_values
    frame: pd.DataFrame = pa.ipc.open_stream(data).read_pandas()
    return frame


def _as_percent(rates: pd.Series) -> list[str]:
    return [f"{round(rate * 100)}%" for rate in rates]


def _metric(at: AppTest, label: str) -> str:
    return str(next(m for m in at.metric if m.label == label).value)


@pytest.mark.parametrize("name", ANALYTICS_PAGES)
def test_an_empty_store_shows_how_to_get_games(store: Store, name: str) -> None:
    at = _page(name)
    assert any("No games yet" in info.value for info in at.info)
    assert not _charts(at)


def test_the_bot_lab_says_how_to_compare_bots_before_any_run(store: Store) -> None:
    at = _page("bot_lab")
    assert any("No simulated games yet" in info.value for info in at.info)
    seed = at.number_input(key="lab_seed").value
    at.run()
    assert at.number_input(key="lab_seed").value == seed


def test_my_stats_count_every_chosen_game_and_draw_the_win_rate(filled: Store) -> None:
    at = _my_stats(bot_lab=True, others=True)
    assert _metric(at, "Games played") == str(SIMULATED + HUMAN_GAMES + 2)
    chart = _charts(at)[0]
    layers = _layers(_spec(chart))
    assert layers[1]["encoding"]["y"]["field"] == "running_win_rate"
    assert layers[1]["encoding"]["y"]["axis"]["format"] == ".0%"
    assert layers[1]["encoding"]["y"]["scale"]["domain"] == [0, 1]
    assert at.get("download_button")
    assert any("South stands in for you" in c.value for c in at.caption)


def test_my_stats_leave_out_the_bot_lab_unless_it_is_chosen(filled: Store) -> None:
    ann, _ = filled.new_player("Ann")
    _own(filled, ann, [g.id for g in filled.list_games(GameFilter(kinds=("human",)))][:2])
    at = _my_stats(player=ann)
    assert _metric(at, "Games played") == "2"
    at.toggle(key="overview_bot_lab").set_value(True).run()
    assert _metric(at, "Games played") == str(2 + SIMULATED + 2)
    at.toggle(key="overview_others").set_value(True).run()
    assert _metric(at, "Games played") == str(SIMULATED + HUMAN_GAMES + 2)
    at.toggle(key="overview_bot_lab").set_value(False).run()
    assert _metric(at, "Games played") == str(HUMAN_GAMES)


def test_two_players_see_only_their_own_games(filled: Store) -> None:
    ann, _ = filled.new_player("Ann")
    bob, _ = filled.new_player("Bob")
    human = [g.id for g in filled.list_games(GameFilter(kinds=("human",)))]
    _own(filled, ann, human[:3])
    _own(filled, bob, human[3:])
    ann_sees, bob_sees = _my_stats(player=ann), _my_stats(player=bob)
    assert _metric(ann_sees, "Games played") == "3"
    assert _metric(bob_sees, "Games played") == "1"
    won = sum(filled.load(gid).match.winner == 0 for gid in human[3:])
    assert _metric(bob_sees, "Won – lost") == f"{won} – {1 - won}"
    visitor = _my_stats()
    assert any("No finished games of yours yet" in info.value for info in visitor.info)
    assert not _charts(visitor)


def test_my_stats_show_the_record_streaks_nils_and_extreme_hands(filled: Store) -> None:
    ann, _ = filled.new_player("Ann")
    human = [g.id for g in filled.list_games(GameFilter(kinds=("human",)))]
    _own(filled, ann, human)
    at = _my_stats(player=ann)
    matches = [filled.load(gid).match for gid in human]
    wins = sum(m.winner == 0 for m in matches)
    assert _metric(at, "Won – lost") == f"{wins} – {len(matches) - wins}"
    nils = [(h.bids[2], h.tricks_won[2]) for m in matches for h in m.finished if h.bids[2] == 0]
    made = sum(tricks == 0 for _, tricks in nils)
    assert _metric(at, "Your nils") == f"{made} of {len(nils)}"
    bags = sum(r.teams[0].bags for m in matches for r in m.results)
    assert _metric(at, "Bags a game") == f"{bags / len(matches):.1f}"
    extremes = next(frame.value for frame in at.dataframe if "partner" in frame.value.columns)
    points = [r.teams[0].points for m in matches for r in m.results]
    assert (extremes["points"].max(), extremes["points"].min()) == (max(points), min(points))


def test_the_explore_tables_show_rates_as_whole_percents(filled: Store) -> None:
    daily = _my_stats(bot_lab=True).dataframe[0]
    assert _shown(daily)["win rate"].tolist() == _as_percent(daily.value["win rate"])
    bids = _page("bids")
    rates, nils = bids.dataframe
    assert _shown(rates)["rate"].tolist() == _as_percent(rates.value["rate"])
    assert _shown(nils)["success"].tolist() == _as_percent(nils.value["success"])
    assert all(text.endswith("%") for text in _shown(rates)["rate"])


def test_overview_rule_set_filter_keeps_those_rules(filled: Store) -> None:
    at = _my_stats(bot_lab=True)
    at.multiselect(key="overview_rules").set_value(["target_score=300"]).run()
    assert _metric(at, "Games played") == "2"


def test_a_date_range_without_games_says_so(filled: Store) -> None:
    at = _my_stats(bot_lab=True)
    at.date_input(key="overview_dates").set_value((date(2020, 1, 1), date(2020, 1, 2))).run()
    assert any("No games match these filters" in info.value for info in at.info)


def test_explorer_draws_score_with_rule_lines_and_an_interactive_legend(filled: Store) -> None:
    at = _explorer()
    score, bags = _charts(at)
    spec = _spec(score)
    assert spec["params"][0]["bind"] == "legend"
    assert spec["params"][0]["select"]["fields"] == ["team"]
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["line", "rule", "text"]
    rule_values = {tuple(frame.columns): frame for frame in _datasets(score)}[("rule", "score")]
    rules = filled.load(at.selectbox(key="explorer_game").value).match.rules
    assert sorted(rule_values["score"]) == [rules.mercy_score, rules.target_score]
    bag_layers = _spec(bags)["layer"]
    assert bag_layers[1]["mark"]["shape"] == "triangle-down"
    assert bag_layers[1]["transform"] == [{"filter": "(datum.penalty > 0)"}]


@pytest.mark.parametrize(("mine", "sides"), [(True, ("Us", "Them")), (False, ("N/S", "E/W"))])
def test_explorer_names_the_sides_alike_in_its_metrics_charts_and_scoresheet(
    filled: Store, mine: bool, sides: tuple[str, str]
) -> None:
    ann, _ = filled.new_player("Ann")
    game_id = filled.list_games(GameFilter(kinds=("human",)))[0].id
    if mine:
        _own(filled, ann, [game_id])
    at = _explorer(player=ann, query={"game": game_id})
    assert [m.label for m in at.metric][:2] == list(sides)
    for chart in _charts(at):
        assert _layers(_spec(chart))[0]["encoding"]["color"]["scale"]["domain"] == list(sides)
    hands = at.dataframe[0].value
    us, them = sides
    assert {f"{us} points", f"{them} score", f"why ({us} | {them})"} <= set(hands.columns)


def _replay(at: AppTest) -> str:
    """The HTML of the explorer's trick-by-trick replay."""
    (body,) = [str(h.proto.body) for h in at.get("html") if "data-trick" in h.proto.body]
    return body


def test_explorer_shows_the_hands_and_replays_a_hand_trick_by_trick(filled: Store) -> None:
    at = _explorer()
    game_id = at.selectbox(key="explorer_game").value
    match = filled.load(game_id).match
    (hands_table,) = (frame.value for frame in at.dataframe)
    assert len(hands_table) == len(match.finished)
    hand = match.finished[0]
    assert _replay(at).count("data-trick=") == len(hand.tricks) + (hand.claimed_by is not None)
    at.slider(key="explorer_tricks").set_value(3).run()
    assert _replay(at).count("data-trick=") == 3
    assert at.download_button(key="explorer_tricks_table_csv")
    assert at.download_button(key="explorer_export")


def test_the_replay_draws_the_tables_card_faces(filled: Store) -> None:
    at = _explorer()
    match = filled.load(at.selectbox(key="explorer_game").value).match
    replay = _replay(at)
    cards = [card for trick in match.finished[0].tricks for _, card in trick.plays()]
    # Each card is its own face from the table's deck, whose hearts and diamonds are red.
    for card in cards:
        assert card_html(card, classes="sp-small") in replay
    assert replay.count('class="sp-card sp-f-') == len(cards)


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(players=3, partnerships=False), Rules(partnerships=False)]
)
def test_explorers_why_column_is_wide_and_its_rows_hold_the_longest_reason(
    filled: Store, rules: Rules
) -> None:
    match = play_match(rules, 5, ["basic"] * rules.players)
    seats = ("North", "East", "South", "West")[: rules.players]
    (game_id,) = filled.save_matches([(match, seats, {})], kind="human")
    hands = _explorer(query={"game": game_id}).dataframe[0]
    columns = json.loads(hands.proto.columns)
    (why,) = [name for name in hands.value.columns if name.startswith("why")]
    assert columns[why]["width"] == NOTE_WIDTH
    lines = math.ceil(hands.value[why].str.len().max() / NOTE_LINE_CHARS)
    assert lines >= 2
    assert hands.proto.row_height >= lines * NOTE_LINE_HEIGHT
    # Streamlit wraps a cell's text only in rows taller than 4rem.
    assert hands.proto.row_height > 64
    # The hand's number stays in view while the table scrolls to the reasons.
    assert columns["hand"]["pinned"]


def test_explorer_opens_the_game_named_in_the_url(filled: Store) -> None:
    oldest = filled.list_games()[-1].id
    at = _explorer(query={"game": oldest})
    assert at.selectbox(key="explorer_game").value == oldest


def test_bid_accuracy_draws_scatter_distribution_rates_and_nils(filled: Store) -> None:
    at = _page("bids")
    scatter, diff, rates, nils = (_spec(chart) for chart in _charts(at))
    dots = scatter["layer"][1]
    assert dots["mark"]["type"] == "circle"
    assert dots["encoding"]["size"]["field"] == "n"
    assert dots["encoding"]["color"]["field"] == "player"
    assert diff["encoding"]["x"]["field"] == "diff"
    assert diff["encoding"]["xOffset"]["field"] == "player"
    assert rates["encoding"]["color"]["scale"]["domain"] == ["under", "exact", "over"]
    assert nils["encoding"]["x"]["field"] == "share"
    assert nils["encoding"]["color"]["scale"]["domain"] == ["made", "missed"]


def test_bid_accuracy_compares_you_with_the_bots_and_by_seat(filled: Store) -> None:
    at = _page("bids")
    players = set(_datasets(_charts(at)[2])[0]["player"])
    assert players == {"you", "bot: random"}
    at.radio(key="bids_group").set_value("seat").run()
    spec = _spec(_charts(at)[0])
    assert spec["layer"][1]["encoding"]["color"]["field"] == "seat"


def test_the_bot_lab_runs_matches_and_compares_the_line_ups(store: Store) -> None:
    at = _page("bot_lab")
    at.number_input(key="lab_matches").set_value(4)
    at.number_input(key="lab_seed").set_value(7)
    at.multiselect(key="lab_options").set_value(["jokers"])
    at.button(key="lab_run").click().run()
    job = at.session_state["lab_job"]
    assert job.wait(timeout=120)
    at.run()
    assert not at.exception
    assert any("Stored 4 of 4" in s.value for s in at.success)
    games = store.list_games()
    assert len(games) == 4
    assert {g.rule_set for g in games} == {"jokers=True"}
    assert at.number_input(key="lab_seed").value == 7 + 4
    (chart,) = _charts(at)
    assert [layer["encoding"]["x"]["field"] for layer in _layers(_spec(chart))] == [
        "ns_win_rate",
        "ns_win_low",
        "ns_win_rate",
    ]


def test_the_bot_lab_says_which_line_ups_played_too_few_matches_to_tell(store: Store) -> None:
    # Two matches never tell: even two wins leave N/S's true rate from 34% to 100%.
    run_lab(store, LabSpec(("random",) * 4, Rules(), matches=2, seed=1))
    # Twenty matches of basic bots against random ones tell that N/S win more.
    run_lab(store, LabSpec(("basic", "random") * 2, Rules(), matches=20, seed=1))
    at = _page("bot_lab")
    (few,) = [i.value for i in at.info if "Too few matches to tell" in i.value]
    assert "random\\+random vs random\\+random (standard): N/S won" in few
    assert "of 2 decided matches" in few
    assert "basic" not in few
    (table,) = at.dataframe
    assert _shown(table)["ns win low"].tolist() == _as_percent(table.value["ns win low"])
    shown = table.value.set_index("matchup")["finding"]
    assert shown["basic+basic vs random+random"] == "N/S win more"
    assert shown["random+random vs random+random"] == "too few matches to tell"


def test_the_bot_lab_refuses_options_that_contradict_each_other(store: Store) -> None:
    at = _page("bot_lab")
    at.multiselect(key="lab_options").set_value(["nil_allowed"])
    at.button(key="lab_run").click().run()
    assert any("do not go together: blind_nil" in error.value for error in at.error)
    assert "lab_job" not in at.session_state
    assert not store.list_games()


def test_the_bot_lab_says_so_when_the_server_runs_all_the_runs_it_may(store: Store) -> None:
    spec = LabSpec(("random",) * 4, Rules(), matches=MAX_MATCHES, seed=0)
    others = [LabJob(store.url, spec, owner=f"other player {n}") for n in range(MAX_RUNS)]
    try:
        at = _page("bot_lab")
        at.button(key="lab_run").click().run()
        assert any("The lab is busy with other players' runs" in e.value for e in at.error)
        assert "lab_job" not in at.session_state
    finally:
        for job in others:
            job.stop()
        assert all(job.wait(timeout=120) for job in others)


def test_the_bot_lab_offers_to_stop_the_players_run_started_on_another_page(
    store: Store,
) -> None:
    spec = LabSpec(("random",) * 4, Rules(), matches=MAX_MATCHES, seed=0)
    ann, _ = store.new_player("Ann")
    job = LabJob(store.url, spec, owner=ann)
    at = AppTest.from_file(str(PAGES / "bot_lab.py"), default_timeout=60)
    at.session_state[STATE_KEY] = Identity(ann)
    at.run()
    assert at.button(key="lab_run").disabled
    at.button(key="lab_stop").click().run()
    assert job.wait(timeout=120)
    at.run()
    assert any(f"Stopped: {job.done} of {MAX_MATCHES}" in w.value for w in at.warning)


def test_explorer_opens_on_the_players_latest_game(filled: Store) -> None:
    ann, _ = filled.new_player("Ann")
    (older,) = filled.save_matches(
        [(play_match(Rules(), 60, ["random"] * 4), ("N", "E", "Ann", "W"), HUMAN_LEVELS)],
        kind="human",
        started_at=datetime(2024, 5, 1, 12, 0),
    )
    _own(filled, ann, [older])
    # Every game of the lab is newer than Ann's, but hers is the one to open.
    assert _explorer(player=ann).selectbox(key="explorer_game").value == older
    playing, _ = _in_play(filled, ann, seed=61)
    # A game she is playing, with hands scored but none stored as rows yet, is newer still.
    assert _explorer(player=ann).selectbox(key="explorer_game").value == playing


def test_explorer_opens_the_latest_game_listed_for_a_player_with_none(filled: Store) -> None:
    newest = filled.list_games()[0].id
    filled.new_game(
        rules=Rules(), seed=5, players=("N", "E", "S", "W"), kind="human", bot_levels=HUMAN_LEVELS
    )
    at = _explorer()
    assert at.selectbox(key="explorer_game").value == newest
    assert len(_charts(at)) == 2


def test_a_game_in_play_shows_as_in_play_with_its_running_score(filled: Store) -> None:
    ann, _ = filled.new_player("Ann")
    playing, match = _in_play(filled, ann, seed=64)
    assert filled.game_info(playing).score_ns == 0 and match.scores != (0, 0)
    at = _explorer(player=ann, others=False)
    assert "in play" in at.selectbox(key="explorer_game").options[0]
    assert _metric(at, "Result") == "in play"
    assert _metric(at, "Us") == str(match.scores[0])
    assert _metric(at, "Them") == str(match.scores[1])
    assert _metric(at, "Hands") == str(len(match.finished))
    score = {tuple(f.columns): f for f in _datasets(_charts(at)[0])}[("hand", "team", "score")]
    last = score[score["hand"] == len(match.finished)].set_index("team")["score"]
    assert (last["Us"], last["Them"]) == match.scores


def test_explorer_names_a_corrupt_game_instead_of_failing(filled: Store) -> None:
    newest = filled.list_games()[0].id
    with filled.engine.begin() as conn:
        conn.exec_driver_sql(
            "UPDATE actions SET action = 999 WHERE ply = 0"
            " AND game = (SELECT num FROM games WHERE id = ?)",
            (newest,),
        )
    at = _explorer()
    assert at.selectbox(key="explorer_game").value == newest
    assert any(f"game {newest} is corrupt" in error.value for error in at.error)


def test_a_game_started_after_the_page_was_drawn_is_listed_on_the_next_rerun(
    filled: Store,
) -> None:
    ann, _ = filled.new_player("Ann")
    at = _explorer(player=ann)
    started = _owned_game(filled, ann, seed=6)
    at.run()
    assert started[:8] in at.selectbox(key="explorer_game").options[0]


def test_the_bot_lab_stop_button_ends_the_run_and_says_so(store: Store) -> None:
    at = _page("bot_lab")
    at.number_input(key="lab_matches").set_value(10_000)
    at.button(key="lab_run").click().run()
    at.button(key="lab_stop").click().run()
    job = at.session_state["lab_job"]
    assert job.wait(timeout=120)
    at.run()
    assert any(f"Stopped: {job.done} of 10000" in w.value for w in at.warning)
    assert len(store.list_games()) == job.done


def _in_play(store: Store, owner: str, seed: int) -> tuple[str, Match]:
    """A game in play of ``owner``'s with two hands scored, stored move by move as the
    Play page stores it, and its match (basic bots play it: random ones often end a match
    at the mercy score within two hands)."""
    match = play_match(Rules(), seed, ["basic"] * 4, max_hands=2)
    assert not match.is_over
    game_id = _owned_game(store, owner, seed)
    for ply, action in enumerate(match.history):
        store.append_action(game_id, action, after=match.history[:ply])
    return game_id, match


def _owned_game(store: Store, owner: str, seed: int) -> str:
    """A game in play of ``owner``'s, with no move yet."""
    return store.new_game(
        rules=Rules(),
        seed=seed,
        players=("N", "E", store.player_name(owner), "W"),
        kind="human",
        bot_levels=HUMAN_LEVELS,
        owner=owner,
    )


def test_explorer_lists_only_the_players_own_games_unless_asked_for_finished_ones(
    filled: Store,
) -> None:
    ann, _ = filled.new_player("Ann")
    bob, _ = filled.new_player("Bob")
    mine = _owned_game(filled, ann, seed=7)
    theirs = _owned_game(filled, bob, seed=8)
    own = _explorer(player=ann, others=False).selectbox(key="explorer_game").options
    assert len(own) == 1 and mine[:8] in own[0]
    everyone = _explorer(player=ann, others=True).selectbox(key="explorer_game").options
    assert len(everyone) == SIMULATED + HUMAN_GAMES + 3
    assert mine[:8] in " ".join(everyone) and theirs[:8] not in " ".join(everyone)
    stranger = _explorer(player=bob, others=False, query={"game": mine})
    assert mine[:8] not in " ".join(stranger.selectbox(key="explorer_game").options)


def test_a_game_in_play_is_never_exported(filled: Store) -> None:
    ann, _ = filled.new_player("Ann")
    playing = _owned_game(filled, ann, seed=7)
    at = _explorer(player=ann, others=False, query={"game": playing})
    assert at.selectbox(key="explorer_game").value == playing
    assert not [b for b in at.get("download_button") if "Export" in b.proto.label]
    assert any("exported once it is over" in c.value for c in at.caption)


# ------------------------------------------------------------------------ cutthroat
THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)


@pytest.fixture
def cutthroat(filled: Store) -> tuple[str, list[Match]]:
    """Ann's three-handed games beside the partnership ones, and four-handed lab games."""
    ann, _ = filled.new_player("Ann")
    three = [play_match(THREE, seed, ["random"] * 3) for seed in (7, 8, 9)]
    filled.save_matches(
        [(m, ("Left", "Right", "Ann"), {0: "random", 1: "basic"}) for m in three],
        kind="human",
        owner=ann,
    )
    four = [play_match(FOUR, seed, ["random"] * 4) for seed in (20, 21)]
    everyone = {seat: "random" for seat in range(4)}
    filled.save_matches([(m, ("N", "E", "S", "W"), everyone) for m in four], kind="simulated")
    return ann, three


def test_my_stats_show_the_partnership_game_unless_cutthroat_is_chosen(
    cutthroat: tuple[str, list[Match]],
) -> None:
    ann, three = cutthroat
    at = _my_stats(player=ann, bot_lab=True)
    assert _metric(at, "Games played") == str(SIMULATED + 2)
    at.radio(key="overview_variant").set_value("cutthroat3").run()
    assert not at.exception
    wins = sum(m.winner == 2 for m in three)
    decided = sum(m.winner is not None for m in three)
    assert _metric(at, "Games played") == "3"
    assert _metric(at, "Won – lost") == f"{wins} – {decided - wins}"
    nils = [h for m in three for h in m.finished if 2 not in h.out and h.bids[2] == 0]
    made = sum(h.tricks_won[2] == 0 for h in nils)
    assert _metric(at, "Your nils") == f"{made} of {len(nils)}"
    extremes = next(frame.value for frame in at.dataframe if "you" in frame.value.columns)
    points = [
        r.players[2].points
        for m in three
        for r, h in zip(m.results, m.finished, strict=True)
        if 2 not in h.out
    ]
    assert extremes["points"].max() == max(points) and extremes["points"].min() == min(points)
    at.radio(key="overview_variant").set_value("cutthroat4").run()
    # The lab's four-handed games, where South stands in for her.
    assert _metric(at, "Games played") == "2"


def test_explorer_charts_a_cutthroat_game_a_line_a_player(
    cutthroat: tuple[str, list[Match]], filled: Store
) -> None:
    ann, three = cutthroat
    at = _explorer(player=ann, others=False)
    game_id = at.selectbox(key="explorer_game").value
    assert "cutthroat, 3 players" in at.selectbox(key="explorer_game").options[0]
    match = next(m for m in three if m.history == filled.load(game_id).match.history)
    assert [_metric(at, name) for name in ("Left", "Right", "You")] == [
        str(score) for score in match.scores
    ]
    score, bags = _charts(at)
    spec = _spec(score)
    assert spec["params"][0]["select"]["fields"] == ["player"]
    assert spec["layer"][0]["encoding"]["color"]["title"] == "Player"
    lines = {tuple(f.columns): f for f in _datasets(score)}[("hand", "player", "score")]
    for seat, name in enumerate(("Left", "Right", "You")):
        mine = lines[lines["player"] == name].sort_values("hand")
        assert mine["score"].iloc[-1] == match.scores[seat]
    bag_lines = {tuple(f.columns): f for f in _datasets(bags)}
    assert set(next(f for k, f in bag_lines.items() if "player" in k)["player"]) <= {
        "Left",
        "Right",
        "You",
    }
    hands_table = at.dataframe[0].value
    assert len(hands_table) == len(match.finished)
    assert {"Left", "Right", "You", "You score"} <= set(hands_table.columns)


def test_bid_accuracy_of_cutthroat_compares_each_player_with_no_partnership_hand(
    cutthroat: tuple[str, list[Match]],
) -> None:
    at = _page("bids")
    partnership = _dots(at)
    at.radio(key="bids_variant").set_value("cutthroat3").run()
    assert not at.exception
    scatter = _dots(at)
    assert set(scatter["player"]) == {"you", "bot: basic", "bot: random"}
    _, three = cutthroat
    taken = [
        h.tricks_won[s]
        for m in three
        for h in m.finished
        for s in range(3)
        if s not in h.out and h.bids[s]
    ]
    assert max(scatter["taken"]) == max(taken) and max(scatter["bid"]) <= 17
    at.radio(key="bids_group").set_value("seat").run()
    seats = set(_dots(at)["seat"])
    assert seats <= {"Left", "Right", "South"} and len(seats) == 3
    # The partnership game's were the four seats' of its own hands, none over 13.
    assert set(partnership["player"]) == {"you", "bot: random"}
    assert partnership["taken"].max() <= 13


def _dots(at: AppTest) -> pd.DataFrame:
    """The circles of the Bid accuracy page's scatter: (bid, taken, n) by group."""
    return next(f for f in _datasets(_charts(at)[0]) if "n" in f.columns)
