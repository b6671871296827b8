"""AppTest checks of profiles: the Profile page (making a profile, handle, colour, export,
delete, signing in where it is set up), and two profiles on one server keeping their own
settings and stats, with the rating over time in My stats."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from spades.app.cookies import PLAYER_COOKIE, dropped_player_cookie
from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store
from spades.store.profiles import Profiles
from spades.store.tables import Tables
from spades.ui.cookies import OWED_KEY
from spades.ui.identity import STATE_KEY, Identity

pytestmark = pytest.mark.apptest

PAGES = Path(__file__).resolve().parent.parent / "pages"
SHORT = Rules(target_score=100, mercy_score=None)
PLAYERS = ("North", "East", "You", "West")
LINE_UP = {0: "expert", 1: "basic", 3: "random"}
AUTH = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "not-a-secret-only-a-test",
    "client_id": "spades-tests",
    "client_secret": "not-a-secret",
    "server_metadata_url": "https://accounts.example.com/.well-known/openid-configuration",
}
ADA_CLAIMS = {
    "is_logged_in": True,
    "iss": "https://accounts.example.com",
    "sub": "1234567890",
    "email": "ada@example.com",
}


@pytest.fixture
def store(database: str) -> Store:
    return Store.default(database, rater=RATER)


def _page(
    name: str,
    player: str | None = None,
    *,
    secrets: dict[str, Any] | None = None,
    user: dict[str, Any] | None = None,
) -> AppTest:
    """A page in a browser of its own: ``player``'s (a new visitor when None)."""
    at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=60)
    if player is not None:
        at.session_state[STATE_KEY] = Identity(player)
    if secrets is not None:
        at.secrets = secrets
    if user is not None:
        at.user = user
    at.run()
    assert not at.exception
    return at


def _player(at: AppTest) -> str | None:
    identity: Identity = at.session_state[STATE_KEY]
    return identity.player_id


def _games(store: Store, owner: str, count: int, first_seed: int) -> list[str]:
    matches = [play_match(SHORT, s, ["basic"] * 4) for s in range(first_seed, first_seed + count)]
    return store.save_matches([(m, PLAYERS, LINE_UP) for m in matches], kind="human", owner=owner)


def _metric(at: AppTest, label: str) -> str:
    return str(next(m for m in at.metric if m.label == label).value)


# ------------------------------------------------------------------ making a profile
def test_a_visitor_is_told_what_a_profile_is_and_makes_one_by_choosing_a_handle(
    store: Store,
) -> None:
    at = _page("profile")
    assert any("no profile yet" in info.value for info in at.info)
    assert not at.get("download_button")
    at.text_input(key="profile_new_handle").input("Ada_L")
    at.text_input(key="profile_new_name").input("Ada *the* [best](http://x.y)")
    at.button(key="profile_create_submit").click().run()
    assert not at.exception
    player = _player(at)
    assert player is not None
    profile = Profiles(store).profile(player)
    assert (profile.handle, profile.name) == ("ada_l", "Ada *the* [best](http://x.y)")
    assert at.text_input(key="profile_handle").value == "ada_l"
    card = "\n".join(element.proto.body for element in at.get("html"))
    assert "Ada *the* [best](http://x.y)" in card and "<a " not in card


def test_a_visitor_choosing_a_taken_handle_is_told_so_and_gets_no_profile(store: Store) -> None:
    store.new_player("Ada", handle="ada")
    at = _page("profile")
    at.text_input(key="profile_new_handle").input("ADA")
    at.button(key="profile_create_submit").click().run()
    assert not at.exception
    assert any("is taken" in error.value and "choose another" in error.value for error in at.error)
    assert _player(at) is None


# ------------------------------------------------------------------ the profile form
def test_the_profile_page_saves_a_handle_and_colour_and_refuses_a_taken_handle(
    store: Store,
) -> None:
    ada, _ = store.new_player("Ada")
    bob, _ = store.new_player("Bob", handle="bob")
    at = _page("profile", ada)
    assert at.text_input(key="profile_handle").value == ""
    at.text_input(key="profile_handle").input("Ada_99")
    at.text_input(key="profile_name").input("Ada L.")
    at.color_picker(key="profile_colour").pick("#336699")
    at.button(key="profile_save").click().run()
    assert not at.exception and not at.error
    profile = Profiles(store).profile(ada)
    assert (profile.handle, profile.name, profile.colour) == ("ada_99", "Ada L.", "#336699")

    at.text_input(key="profile_handle").input("BOB")
    at.text_input(key="profile_name").input("Not Ada")
    at.button(key="profile_save").click().run()
    assert not at.exception
    assert any("is taken" in error.value and "choose another" in error.value for error in at.error)
    assert Profiles(store).profile(ada) == profile
    assert Profiles(store).profile(bob).handle == "bob"


def test_a_name_typed_on_the_profile_page_is_tidied_as_at_a_shared_table(store: Store) -> None:
    """A name pasted with an invisible character (a zero-width space) or a tab is kept
    tidied, as a shared table and the Play page keep it, not refused; on either form."""
    at = _page("profile")
    at.text_input(key="profile_new_handle").input("ada_l")
    at.text_input(key="profile_new_name").input("Ada\u200b\tLovelace")
    at.button(key="profile_create_submit").click().run()
    assert not at.exception and not at.error
    player = _player(at)
    assert player is not None
    assert Profiles(store).profile(player).name == "Ada Lovelace"

    at.text_input(key="profile_name").input(" Ada \u200bL.\u2060 ")
    at.button(key="profile_save").click().run()
    assert not at.exception and not at.error
    assert Profiles(store).profile(player).name == "Ada L."


# ------------------------------------------------------------------ export
@pytest.fixture
def media(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[MediaFileManager]]:
    """The media file managers of the AppTest runs, kept to read a download from."""
    made: list[MediaFileManager] = []

    class Kept(MediaFileManager):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr("streamlit.testing.v1.app_test.MediaFileManager", Kept)
    yield made


def _downloaded(at: AppTest, media: list[MediaFileManager], key: str) -> bytes:
    """What a click on a deferred download button gives the browser."""
    button = at.get("download_button")
    (proto,) = [b.proto for b in button if b.proto.id.endswith(key)]
    url = media[-1].execute_deferred(proto.deferred_file_id)
    found = media[-1].read_file(url.rsplit("/", 1)[-1].split(".")[0])
    assert found is not None
    return found.content


def test_the_export_downloads_json_with_the_player_s_games(
    store: Store, media: list[MediaFileManager]
) -> None:
    ada, _ = store.new_player("Ada", handle="ada")
    bob, _ = store.new_player("Bob")
    ada_games = _games(store, ada, 2, 1)
    bob_games = _games(store, bob, 1, 5)
    at = _page("profile", ada)
    data = json.loads(_downloaded(at, media, "profile_export"))
    assert data["profile"]["handle"] == "ada"
    assert [g["meta"]["game_id"] for g in data["games"]] == ada_games
    assert bob_games[0] not in json.dumps(data)


# ------------------------------------------------------------------ delete
def test_delete_asks_first_and_then_removes_the_player(store: Store) -> None:
    ada, _ = store.new_player("Ada", handle="ada")
    bob, _ = store.new_player("Bob")
    _games(store, ada, 1, 1)
    at = _page("profile", ada)
    at.button(key="profile_delete").click().run()
    assert not at.exception
    assert Profiles(store).profile(ada).handle == "ada"
    at.text_input(key="profile_delete_typed").input("bob")
    at.button(key="profile_delete_confirm").click().run()
    assert any("to confirm" in error.value for error in at.error)
    assert Profiles(store).profile(ada).handle == "ada"
    at.text_input(key="profile_delete_typed").input("ADA")
    at.button(key="profile_delete_confirm").click().run()
    assert not at.exception
    assert any("Your data is deleted" in s.value for s in at.success)
    assert _player(at) is None
    assert at.session_state[OWED_KEY][PLAYER_COOKIE] == (dropped_player_cookie(), None)
    assert any("no profile yet" in info.value for info in at.info)
    assert not store.list_games()
    assert Profiles(store).profile(bob).name == "Bob"


def test_keeping_the_data_closes_the_question_and_deletes_nothing(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    at = _page("profile", ada)
    at.button(key="profile_delete").click().run()
    at.button(key="profile_delete_keep").click().run()
    assert not at.exception
    assert not [t for t in at.text_input if t.key == "profile_delete_typed"]
    assert Profiles(store).profile(ada).name == "Ada"


# ------------------------------------------------------------------ signing in
def test_without_sign_in_set_up_no_sign_in_button_shows(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    for at in (_page("profile"), _page("profile", ada)):
        assert not [b for b in at.button if "sign" in (b.key or "")]
        assert not any("Sign in" in b.label for b in at.button)


def test_with_sign_in_set_up_a_visitor_may_sign_in(store: Store) -> None:
    at = _page("profile", secrets={"auth": AUTH}, user={"is_logged_in": False})
    assert at.button(key="profile_sign_in").label == "Sign in"
    assert _player(at) is None


def test_two_browsers_signed_in_to_one_account_play_as_one_profile(store: Store) -> None:
    laptop, _ = store.new_player("Ada")
    phone, _ = store.new_player("Ada's phone")
    first = _page("profile", laptop, secrets={"auth": AUTH}, user=ADA_CLAIMS)
    second = _page("profile", phone, secrets={"auth": AUTH}, user=ADA_CLAIMS)
    assert _player(first) == _player(second) == laptop
    assert second.text_input(key="profile_name").value == "Ada"
    assert second.button(key="profile_sign_out")
    # Signed out, the phone is its own profile again.
    assert _player(_page("profile", phone, secrets={"auth": AUTH}, user={})) == phone


# ------------------------------------------------------------------ two profiles
def test_two_profiles_on_one_server_keep_their_own_settings_and_stats(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    bob, _ = store.new_player("Bob")
    store.save_player_prefs(ada, {"felt": "royal"})
    store.save_player_prefs(bob, {"felt": "emerald"})
    _games(store, ada, 3, 1)
    _games(store, bob, 1, 7)
    ada_stats, bob_stats = _page("overview", ada), _page("overview", bob)
    assert _metric(ada_stats, "Games played") == "3"
    assert _metric(bob_stats, "Games played") == "1"
    ada_rating = Profiles(store).export(ada)["rating"]
    shown = f"{ada_rating['mu']:.1f} ± {ada_rating['sigma']:.1f}"
    assert _metric(ada_stats, "Rating") == shown
    assert ada_stats.get("vega_lite_chart")
    assert _metric(bob_stats, "Rating") != shown
    assert _page("play", ada).selectbox(key="felt").value == "royal"
    assert _page("play", bob).selectbox(key="felt").value == "emerald"


def test_my_stats_shows_no_rating_before_a_rated_game(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    given_up = store.new_game(
        rules=SHORT, seed=3, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada
    )
    tables = Tables(store)
    tables.close(tables.play(given_up, ada), "closed")
    at = _page("overview", ada)
    assert _metric(at, "Games played") == "1"
    assert not [m for m in at.metric if m.label == "Rating"]
