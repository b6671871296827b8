"""AppTest checks of the Leaderboard: the ranking of a seeded set of games (as openskill
itself rates them), the filters, the player's own row and the rating history chart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from openskill.models import PlackettLuce
from streamlit.testing.v1 import AppTest

from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.stats import leaderboard
from spades.stats.ratings import RATER
from spades.store import GameFilter, Store
from spades.ui.identity import STATE_KEY, Identity

pytestmark = pytest.mark.apptest

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "pages" / "leaderboard.py")
SHORT = Rules(target_score=100, mercy_score=None)
PLAYERS = ("North", "East", "South", "West")
# Each game's four seats hold four different subjects: openskill's plain team update is
# what the board must show, with no seat folded into another.
ADA_LINE_UP = {0: "expert", 1: "basic", 3: "random"}
BOB_LINE_UP = {0: "random", 1: "expert", 3: "basic"}


@pytest.fixture
def store(database: str) -> Store:
    return Store.default(database, rater=RATER)


class Seeded:
    """The seeded store, its people, and the ratings openskill gives their games."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ada, _ = store.new_player("Ada *the* [best](http://x.y)")
        self.bob, _ = store.new_player("Bob")
        model = PlackettLuce()
        self.model = model
        self.ratings: dict[str, Any] = {}
        self.games: dict[str, int] = {}
        plan = [(self.ada, ADA_LINE_UP)] * 5 + [(self.bob, BOB_LINE_UP)] * 3
        plan.insert(2, (self.bob, BOB_LINE_UP))
        for seed, (owner, levels) in enumerate(plan, start=20):
            match = play_match(SHORT, seed, ["basic"] * 4)
            store.save_match(match, players=PLAYERS, kind="human", bot_levels=levels, owner=owner)
            seats = [f"bot:{levels.get(seat, '')}" for seat in range(4)]
            seats[2] = f"person:{owner}"
            self._rate(seats, match.winner)
        # Neither simulations nor an imported record move anything.
        lab = [play_match(SHORT, seed, ["basic"] * 4) for seed in range(40, 44)]
        store.save_matches([(m, PLAYERS, ADA_LINE_UP) for m in lab], kind="simulated")
        (human,) = [g.id for g in store.list_games(GameFilter(kinds=("human",)), limit=1)]
        record = json.loads(store.export_json(human))
        record["meta"]["game_id"] = "f" * 32
        store.import_json(json.dumps(record))

    def _rate(self, seats: list[str], winner: int | None) -> None:
        teams = [[seats[0], seats[2]], [seats[1], seats[3]]]
        before = [[self.ratings.get(s, self.model.rating()) for s in team] for team in teams]
        ranks = [0.0, 0.0] if winner is None else [float(winner != 0), float(winner != 1)]
        for team, rated in zip(teams, self.model.rate(before, ranks=ranks), strict=True):
            for subject, rating in zip(team, rated, strict=True):
                self.ratings[subject] = rating
                self.games[subject] = self.games.get(subject, 0) + 1

    def order(self, *, people_only: bool = False) -> list[str]:
        """The subjects best first by openskill's ordinal, mu - 3 sigma."""
        subjects = [s for s in self.ratings if s.startswith("person:") or not people_only]
        return sorted(subjects, key=lambda s: self.ratings[s].ordinal(), reverse=True)

    def name(self, subject: str) -> str:
        names = {f"person:{self.ada}": "Ada *the* [best](http://x.y)", f"person:{self.bob}": "Bob"}
        return names.get(subject, subject.removeprefix("bot:") + " bot")


@pytest.fixture
def seeded(store: Store) -> Seeded:
    return Seeded(store)


def _page(player: str | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    if player is not None:
        at.session_state[STATE_KEY] = Identity(player)
    at.run()
    assert not at.exception
    return at


def _board(at: AppTest) -> pd.DataFrame:
    (table,) = at.dataframe
    frame: pd.DataFrame = table.value
    return frame


def test_an_empty_store_says_how_games_get_rated(store: Store) -> None:
    at = _page()
    assert any("No rated games yet" in info.value for info in at.info)
    assert not at.dataframe


def test_the_board_ranks_the_seeded_games_as_openskill_rates_them(seeded: Seeded) -> None:
    board = _board(_page())
    order = seeded.order()
    assert list(board["Name"]) == [seeded.name(s) for s in order]
    assert list(board["Rank"]) == list(range(1, len(order) + 1))
    ratings = [seeded.ratings[s] for s in order]
    assert list(board["Rating"]) == [f"{r.mu:.1f} ± {r.sigma:.1f}" for r in ratings]
    assert list(board["μ − 3σ"]) == pytest.approx([r.ordinal() for r in ratings])
    assert list(board["Games"]) == [seeded.games[s] for s in order]
    assert board["Win rate"].between(0, 1).all()
    assert board["Bags per hand"].ge(0).all()


def test_people_only_leaves_the_bots_out_and_ranks_the_people_among_themselves(
    seeded: Seeded,
) -> None:
    at = _page()
    at.toggle(key="board_people").set_value(True).run()
    board = _board(at)
    assert list(board["Name"]) == [seeded.name(s) for s in seeded.order(people_only=True)]
    assert list(board["Rank"]) == [1, 2]


def test_a_period_or_rules_without_rated_games_say_so(seeded: Seeded) -> None:
    at = _page()
    at.radio(key="board_period").set_value("Last 7 days").run()
    assert len(_board(at)) == len(seeded.ratings)
    at.selectbox(key="board_rules").set_value("Jokers").run()
    assert not at.dataframe
    assert any("No rated games match" in info.value for info in at.info)


def test_the_players_own_row_is_marked_and_their_history_drawn(seeded: Seeded) -> None:
    at = _page(seeded.ada)
    board = _board(at)
    mine = seeded.name(f"person:{seeded.ada}")
    assert list(board.loc[board[""] == "You", "Name"]) == [mine]
    assert at.selectbox(key="board_subject").value == f"person:{seeded.ada}"
    (chart,) = at.get("vega_lite_chart")
    proto: Any = chart.proto
    x = json.loads(proto.spec)["layer"][0]["encoding"]["x"]
    assert (x["field"], x["axis"]["format"]) == ("game", "d")
    history = pa.ipc.open_stream(proto.datasets[0].data.data).read_pandas()
    assert list(history["game"]) == list(range(6))
    final = seeded.ratings[f"person:{seeded.ada}"]
    assert history["mu"].iloc[-1] == pytest.approx(final.mu)
    # The name is shown as the text it is, never as a link or emphasis.
    shown = " ".join(m.value for m in at.markdown)
    assert "\\[best\\]" in shown and "\\*the\\*" in shown


def test_nil_success_is_a_percent_and_no_nils_yet_for_a_subject_who_bid_none(
    seeded: Seeded,
) -> None:
    board = _board(_page())
    every = leaderboard.board_filter("All time", None, people_only=False)
    rates = leaderboard.leaderboard(seeded.store, every).set_index("name")["nil_success"]
    expected = ["no nils yet" if pd.isna(rates[n]) else f"{rates[n]:.0%}" for n in board["Name"]]
    assert list(board["Nil success"]) == expected
    assert "no nils yet" in expected


def test_a_subject_with_one_rated_game_has_one_rated_game_not_games(store: Store) -> None:
    cy, _ = store.new_player("Cy")
    match = play_match(SHORT, 5, ["basic"] * 4)
    store.save_match(match, players=PLAYERS, kind="human", bot_levels=ADA_LINE_UP, owner=cy)
    at = _page(cy)
    assert at.selectbox(key="board_subject").value == f"person:{cy}"
    assert any("**Cy**: 1 rated game, now" in m.value for m in at.markdown)


def test_a_visitor_without_a_profile_has_no_marked_row(seeded: Seeded) -> None:
    board = _board(_page())
    assert set(board[""]) == {""}


def test_a_broken_database_shows_the_plain_fault_on_the_leaderboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database at all " * 200)
    monkeypatch.setenv("SPADES_DB_URL", f"sqlite:///{broken}")
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    at.run()
    at.switch_page("pages/leaderboard.py").run()
    assert not at.exception
    assert any("damaged" in e.value for e in at.error)
    assert "store_fault_retry" in {b.key for b in at.button}
