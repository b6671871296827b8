"""Player profiles in the store (on SQLite and on PostgreSQL): the handle's rules and its
uniqueness whatever the case, the colour, linking a signed-in account and signing in from
two browsers, a player's export and deletion, and the upgrade from schema 6."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from db_helpers import PLAYERS_V6, run_sql, select_frame

from spades.app.profiles import account_id, sign_in
from spades.bots.drive import play_match
from spades.engine.match import Match
from spades.engine.record import from_json_dict
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import COLOURS, SCHEMA_VERSION, Store, StoreError
from spades.store.profiles import EXPORT_FORMAT, LEFT, Profiles
from spades.store.ratings import person
from spades.store.schema import actions, games, hands, players, rating_events, ratings, seats
from spades.store.tables import Tables

SHORT = Rules(target_score=100, mercy_score=None)
PLAYERS = ("North", "East", "You", "West")
LINE_UP = {0: "expert", 1: "basic", 3: "random"}
ACCOUNT = "https://accounts.example.com 1234567890"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store(db_url, rater=RATER)
    yield opened
    opened.close()


def _matches(count: int, first_seed: int = 1) -> list[Match]:
    return [
        play_match(SHORT, seed, ["basic"] * 4) for seed in range(first_seed, first_seed + count)
    ]


def _count(store: Store, stmt: sa.Select[tuple[int]]) -> int:
    return int(select_frame(store, stmt).iloc[0, 0])


# --------------------------------------------------------------------------- handle
@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("ada", "ada"),
        ("Ada_99", "ada_99"),
        ("  BOB  ", "bob"),
        ("___", "___"),
        ("a" * 20, "a" * 20),
    ],
)
def test_a_handle_is_kept_in_lower_case(store: Store, typed: str, kept: str) -> None:
    ada, _ = store.new_player("Ada")
    assert Profiles(store).update(ada, handle=typed).handle == kept


@pytest.mark.parametrize(
    "typed", ["ab", "a" * 21, "ada lovelace", "adä", "ada-1", "ada.b", "", "\u212aelvin", "a\nb"]
)
def test_a_handle_is_three_to_twenty_letters_digits_or_underscores(
    store: Store, typed: str
) -> None:
    ada, _ = store.new_player("Ada")
    with pytest.raises(StoreError, match=r"handle: .* is not a handle; use 3 to 20 letters"):
        Profiles(store).update(ada, handle=typed)
    assert Profiles(store).profile(ada).handle is None


def test_a_handle_taken_in_any_case_is_refused_and_nothing_changes(store: Store) -> None:
    profiles = Profiles(store)
    ada, _ = store.new_player("Ada")
    bob, _ = store.new_player("Bob")
    profiles.update(ada, handle="Ada")
    before = profiles.profile(bob)
    with pytest.raises(StoreError, match="@ada is taken; choose another"):
        profiles.update(bob, handle="ADA", name="Robert", colour="#000000")
    assert profiles.profile(bob) == before
    # Keeping one's own handle is no clash.
    assert profiles.update(ada, handle="ada", name="Ada L.").name == "Ada L."


def test_a_new_player_with_a_taken_handle_is_not_made(store: Store) -> None:
    ada, _ = store.new_player("Ada", handle="ada")
    with pytest.raises(StoreError, match="taken"):
        store.new_player("Another Ada", handle="ADA")
    assert _count(store, sa.select(sa.func.count()).select_from(players)) == 1
    assert Profiles(store).profile(ada).handle == "ada"


# --------------------------------------------------------------------------- colour
def test_a_new_player_gets_one_of_the_colours_and_may_choose_another(store: Store) -> None:
    profiles = Profiles(store)
    ada, _ = store.new_player("Ada")
    assert profiles.profile(ada).colour in COLOURS
    assert profiles.update(ada, colour="#A1B2C3").colour == "#a1b2c3"


@pytest.mark.parametrize("colour", ["red", "#abc", "#12345g", "#1234567", "", "1f77b4"])
def test_a_colour_is_refused_unless_it_is_rrggbb(store: Store, colour: str) -> None:
    ada, _ = store.new_player("Ada")
    with pytest.raises(StoreError, match="colour: expected a colour like #1f77b4"):
        Profiles(store).update(ada, colour=colour)


# --------------------------------------------------------------------------- accounts
def test_an_account_is_linked_to_one_player_and_finds_it(store: Store) -> None:
    profiles = Profiles(store)
    ada, _ = store.new_player("Ada")
    bob, _ = store.new_player("Bob")
    assert profiles.player_for_account(ACCOUNT) is None
    profiles.link_account(ada, ACCOUNT)
    profiles.link_account(ada, ACCOUNT)
    assert profiles.player_for_account(ACCOUNT) == ada
    assert profiles.profile(ada).account == ACCOUNT
    with pytest.raises(StoreError, match="linked to another profile already"):
        profiles.link_account(bob, ACCOUNT)
    with pytest.raises(StoreError, match="linked to another account already"):
        profiles.link_account(ada, "https://accounts.example.com 999")
    assert profiles.profile(bob).account is None


@pytest.mark.parametrize("account", ["", "   ", "x" * 321, "a\nb", None])
def test_an_account_id_must_be_printable_text_of_bounded_length(
    store: Store, account: object
) -> None:
    with pytest.raises(StoreError, match="account"):
        Profiles(store).player_for_account(account)  # type: ignore[arg-type]


def test_an_account_is_the_issuer_and_subject_of_the_identity_token() -> None:
    claims = {"iss": "https://accounts.example.com", "sub": "1234567890", "email": "a@b.c"}
    assert account_id(claims) == ACCOUNT
    assert account_id({"email": "a@b.c", "sub": "1"}) is None
    assert account_id({"iss": "x", "sub": 5}) is None


def test_two_browsers_signing_in_to_one_account_end_up_on_one_profile(store: Store) -> None:
    laptop, _ = store.new_player("Ada")
    phone, _ = store.new_player("Ada on the phone")
    first = sign_in(store, ACCOUNT, laptop)
    assert (first.player_id, first.new_token) == (laptop, None)
    second = sign_in(store, ACCOUNT, phone)
    assert (second.player_id, second.new_token) == (laptop, None)
    # A browser with no profile of its own finds it too.
    assert sign_in(store, ACCOUNT, None).player_id == laptop
    assert Profiles(store).profile(phone).account is None


def test_signing_in_makes_a_profile_for_a_browser_without_a_free_one(store: Store) -> None:
    fresh = sign_in(store, ACCOUNT, None, name="Ada")
    assert fresh.new_token is not None
    assert store.player_for_token(fresh.new_token) == fresh.player_id
    other = "https://accounts.example.com 42"
    # The browser's profile belongs to another account: it is not taken over.
    moved = sign_in(store, other, fresh.player_id)
    assert moved.player_id != fresh.player_id and moved.new_token is not None
    profiles = Profiles(store)
    assert profiles.player_for_account(ACCOUNT) == fresh.player_id
    assert profiles.player_for_account(other) == moved.player_id


# --------------------------------------------------------------------------- export
def _two_players_with_games(store: Store) -> tuple[str, str, list[str], list[str]]:
    ada, _ = store.new_player("Ada", handle="ada")
    bob, _ = store.new_player("Bob", handle="bob")
    store.save_player_prefs(ada, {"felt": "royal"})
    store.save_player_prefs(bob, {"felt": "plaid"})
    matches = _matches(3)
    ada_games = store.save_matches(
        [(m, PLAYERS, LINE_UP) for m in matches[:2]], kind="human", owner=ada
    )
    bob_games = store.save_matches([(matches[2], PLAYERS, LINE_UP)], kind="human", owner=bob)
    return ada, bob, ada_games, bob_games


def test_the_export_holds_the_player_s_data_and_nothing_of_another_s(store: Store) -> None:
    ada, bob, ada_games, bob_games = _two_players_with_games(store)
    in_play = store.new_game(
        rules=SHORT, seed=9, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada
    )
    text = Profiles(store).export_json(ada)
    data = json.loads(text)
    assert data["format"] == EXPORT_FORMAT
    assert data["profile"]["id"] == ada and data["profile"]["handle"] == "ada"
    assert data["preferences"] == {"felt": "royal"}
    assert data["rating"]["subject"] == person(ada) and data["rating"]["games"] == 2
    assert [e["game_id"] for e in data["rating_history"]] == ada_games
    assert [g["meta"]["game_id"] for g in data["games"]] == ada_games
    # Each game is the store's own record of it, and replays to the stored result.
    for record, game_id in zip(data["games"], ada_games, strict=True):
        assert record == json.loads(store.export_json(game_id))
        assert from_json_dict(record).match.scores == store.load(game_id).match.scores
    for foreign in (bob, *bob_games, in_play, "plaid", "bob"):
        assert foreign not in text


def test_exporting_or_deleting_an_unknown_player_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="no player with id"):
        Profiles(store).export("0" * 32)
    with pytest.raises(StoreError, match="no player with id"):
        Profiles(store).delete("0" * 32)


# --------------------------------------------------------------------------- delete
def _rows(store: Store) -> dict[str, int]:
    """How many rows each table holds."""
    counted = {}
    for table in (players, games, hands, actions, ratings, rating_events):
        counted[table.name] = _count(store, sa.select(sa.func.count()).select_from(table))
    return counted


def _owned_rows(store: Store, owner: str) -> dict[str, int]:
    nums = sa.select(games.c.num).where(games.c.owner == owner)
    return {
        "games": _count(store, sa.select(sa.func.count()).where(games.c.num.in_(nums))),
        "hands": _count(store, sa.select(sa.func.count()).where(hands.c.game.in_(nums))),
        "actions": _count(store, sa.select(sa.func.count()).where(actions.c.game.in_(nums))),
        "events": _count(store, sa.select(sa.func.count()).where(rating_events.c.game.in_(nums))),
    }


def test_deleting_a_player_removes_exactly_their_data(store: Store) -> None:
    ada, bob, _, bob_games = _two_players_with_games(store)
    tables = Tables(store)
    # Ada waits at her own table with Bob; she sits at Bob's, which is in play.
    hers, _ = tables.create(
        creator=ada, name="Ada", rules=SHORT, pace=0, turn_limit=60, bot_level="basic"
    )
    tables.join(hers, 0, player=bob, name="Bob")
    his, _ = tables.create(
        creator=bob, name="Bob", rules=SHORT, pace=0, turn_limit=60, bot_level="basic"
    )
    tables.join(his, 1, player=ada, name="Ada")
    shared_game = tables.start(his, seed=3, bot_level="basic")
    bob_rows, bob_rating = (
        _owned_rows(store, bob),
        select_frame(store, sa.select(ratings).where(ratings.c.subject == person(bob))),
    )
    before = _rows(store)

    Profiles(store).delete(ada)

    with pytest.raises(StoreError, match="no player with id"):
        Profiles(store).profile(ada)
    assert _owned_rows(store, ada) == {"games": 0, "hands": 0, "actions": 0, "events": 0}
    after = _rows(store)
    assert after["players"] == before["players"] - 1
    assert after["games"] == before["games"] - 2
    assert (
        _count(
            store,
            sa.select(sa.func.count()).where(rating_events.c.subject == person(ada)),
        )
        == 0
    )
    assert _count(store, sa.select(sa.func.count()).where(ratings.c.subject == person(ada))) == 0
    # Bob keeps all of his: his games, their hands and actions, and his rating.
    assert _owned_rows(store, bob) == bob_rows
    assert select_frame(store, sa.select(ratings).where(ratings.c.subject == person(bob))).equals(
        bob_rating
    )
    assert [store.load(g).match.scores for g in bob_games]
    assert Profiles(store).profile(bob).handle == "bob"
    # Her seat at Bob's table is open for a bot or a newcomer, and her name is gone.
    seat = tables.info(his).seats[1]
    assert (seat.kind, seat.player, seat.name) == ("open", None, "")
    assert store.load(shared_game).record.players[1] == LEFT
    assert tables.info(hers).status == "closed"
    assert not select_frame(store, sa.select(seats).where(seats.c.player == ada)).shape[0]
    # The handle is free again.
    carol, _ = store.new_player("Carol", handle="ada")
    assert Profiles(store).profile(carol).handle == "ada"


# --------------------------------------------------------------------------- upgrade
def test_a_version_6_database_gets_profiles_with_a_colour_each(db_url: str) -> None:
    store = Store(db_url, rater=RATER)
    ada, ada_token = store.new_player("Ada")
    bob, _ = store.new_player("Bob")
    (match,) = _matches(1)
    store.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    store.close()
    # Version 6's layout: no handle, colour or account.
    for statement in (*PLAYERS_V6, "UPDATE schema_version SET version = 6"):
        run_sql(db_url, statement)

    upgraded = Store(db_url, rater=RATER)
    assert run_sql(db_url, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    profiles = Profiles(upgraded)
    for player in (ada, bob):
        profile = profiles.profile(player)
        assert (profile.handle, profile.account) == (None, None)
        assert profile.colour in COLOURS
    assert upgraded.player_for_token(ada_token) == ada
    profiles.update(ada, handle="Ada")
    with pytest.raises(StoreError, match="taken"):
        profiles.update(bob, handle="ada")
    profiles.link_account(bob, ACCOUNT)
    assert profiles.player_for_account(ACCOUNT) == bob
    assert len(Profiles(upgraded).export(ada)["games"]) == 1
    upgraded.close()
