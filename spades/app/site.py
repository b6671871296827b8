"""The pages' way to the game store: the store every page of one database shares, and what
the pages read and change in it.

The UI opens a :class:`Site` by the database's URL and never holds the store itself: the
games, the players and their profiles, the reports of :mod:`spades.stats`, and the app's
services that keep their own state in the store (the Play controller, the shared tables,
the cookie codes) are all reached through it. The names the pages need of the store (its
filters and limits) are given here too, and its errors in :mod:`spades.app.errors`.

>>> site = Site(Store("sqlite://", rater=RATER))
>>> player, _ = site.new_player("Ada", handle="ada")
>>> site.profile(player).handle, site.has_games()
('ada', False)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar
from weakref import WeakKeyDictionary

from spades.app import prefs
from spades.app.cookies import CookieService
from spades.app.play import GameController
from spades.app.prefs import TablePrefs
from spades.app.profiles import Arrival, sign_in
from spades.app.seats import person_name
from spades.app.tables import TableService
from spades.engine.cards import Seat
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import (
    HANDLE_MAX,
    HANDLE_MIN,
    KINDS,
    NAME_MAX,
    SEAT_KEYS,
    VARIANTS,
    GameFilter,
    MyGames,
    Store,
    rule_set_label,
)
from spades.store.profiles import Profile, Profiles
from spades.store.ratings import person

if TYPE_CHECKING:
    from spades.app.explorer import ExploredGame

__all__ = [
    "HANDLE_MAX",
    "HANDLE_MIN",
    "KINDS",
    "NAME_MAX",
    "SEAT_KEYS",
    "VARIANTS",
    "GameFilter",
    "MyGames",
    "Profile",
    "Report",
    "Site",
    "person",
    "rule_set_label",
]

About = TypeVar("About")
Result = TypeVar("Result")
#: The table service of each open store (see :meth:`Site.tables`).
_SERVICES: WeakKeyDictionary[Store, TableService] = WeakKeyDictionary()
_SERVICES_LOCK = threading.Lock()
#: A report of :mod:`spades.stats`: a frame or figures of the store's games, given what it
#: is about (the games chosen, the board's filter, a rated subject).
Report = Callable[[Store, About], Result]


class Site:
    """What the pages read and change in the games and players of one store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @classmethod
    def of(cls, url: str | None) -> Site:
        """The site of the database ``url`` (None: the default one), on the store every
        page of this server shares, which moves the ratings (:mod:`spades.stats.ratings`)
        as games finish."""
        return cls(Store.default(url, rater=RATER))

    @property
    def url(self) -> str:
        """The database's URL, which opens this site again (:meth:`of`)."""
        return self._store.url

    # ----------------------------------------------------------------------- games
    def revision(self) -> tuple[int, int, str]:
        """Changes whenever a game is added, moves on, is taken back or ends (a cache key)."""
        return self._store.revision()

    def choices(self) -> dict[str, list[str]]:
        """The distinct variants, rule sets and bot levels stored (for filter widgets)."""
        return self._store.choices()

    def has_games(self) -> bool:
        """Whether any game is over (or given up) yet."""
        return bool(self._store.list_games(GameFilter(), limit=1))

    def read(self, report: Report[About, Result], about: About) -> Result:
        """A report of :mod:`spades.stats` on this site's games."""
        return report(self._store, about)

    def explore(self, game_id: str) -> ExploredGame:
        """A stored game as the game explorer shows it (:mod:`spades.app.explorer`)."""
        # Imported here: its frames bring pandas, which a server playing games never needs.
        from spades.app.explorer import ExploredGame

        loaded = self._store.load(game_id)
        return ExploredGame.of(loaded.match, loaded.record.players)

    def export_json(self, game_id: str) -> str:
        """A game that is over, as a JSON record."""
        return self._store.export_json(game_id)

    def import_many(self, texts: Iterable[str | bytes]) -> list[str]:
        """Import JSON records, all or none; their game ids."""
        return self._store.import_many(texts)

    # -------------------------------------------------------------------- players
    def new_player(self, name: str, *, handle: str | None = None) -> tuple[str, str]:
        """A new player named ``name`` as typed (:func:`~spades.app.seats.person_name`):
        ``(player_id, token)``, the token to hand to the browser now."""
        return self._store.new_player(person_name(name), handle=handle)

    def player_for_token(self, token: str) -> str | None:
        """The player whose token this is, if any."""
        return self._store.player_for_token(token)

    def player_name(self, player_id: str) -> str:
        """A player's display name."""
        return self._store.player_name(player_id)

    def rename_player(self, player_id: str, name: str) -> None:
        """Change a player's display name to ``name`` as typed (:func:`person_name`)."""
        self._store.rename_player(player_id, person_name(name))

    def table_prefs(self, player_id: str | None) -> TablePrefs:
        """A player's table preferences (the defaults for a visitor)."""
        return prefs.load(self._store, player_id)

    def save_table_prefs(self, player_id: str, chosen: TablePrefs) -> None:
        """Keep a player's table preferences."""
        prefs.save(self._store, player_id, chosen)

    def sign_in(self, account: str, current: str | None) -> Arrival:
        """The profile a signed-in account plays as (:func:`spades.app.profiles.sign_in`)."""
        return sign_in(self._store, account, current)

    def profile(self, player_id: str) -> Profile:
        """A player's profile: handle, display name, colour and account."""
        return Profiles(self._store).profile(player_id)

    def update_profile(
        self, player_id: str, *, handle: str | None, name: str, colour: str
    ) -> Profile:
        """Change a player's handle (None leaves it), display name (as typed:
        :func:`person_name`) and colour."""
        return Profiles(self._store).update(
            player_id, handle=handle, name=person_name(name), colour=colour
        )

    def export_profile(self, player_id: str) -> str:
        """Everything kept about a player, as one JSON document."""
        return Profiles(self._store).export_json(player_id)

    def delete_profile(self, player_id: str) -> None:
        """Delete a player and everything kept about them."""
        Profiles(self._store).delete(player_id)

    # ------------------------------------------------------------- the app's services
    def unfinished_game(self, owner: str) -> str | None:
        """The player's newest game still in play, if they have one."""
        return self._store.unfinished_game(owner)

    def new_game(
        self,
        rules: Rules,
        *,
        seed: int,
        player_name: str,
        bot_levels: dict[Seat, str],
        undo_allowed: bool,
        owner: str | None,
    ) -> GameController:
        """A fresh Play-page game, stored here with the human's first move."""
        return GameController.new(
            rules,
            seed=seed,
            player_name=player_name,
            bot_levels=bot_levels,
            undo_allowed=undo_allowed,
            service=self.tables(),
            owner=owner,
        )

    def resume(self, game_id: str, *, viewer: str | None) -> GameController:
        """A stored game reopened on the Play page (:meth:`GameController.resume`)."""
        return GameController.resume(self.tables(), game_id, viewer=viewer)

    def tables(self) -> TableService:
        """The shared tables and their seats: one service a store, which every page of
        this server and its clock share, so that the matches it keeps serve them all."""
        with _SERVICES_LOCK:
            service = _SERVICES.get(self._store)
            if service is None:
                service = _SERVICES[self._store] = TableService(self._store)
            return service

    def cookies(self) -> CookieService:
        """The single-use codes through which the server sets a browser's cookies."""
        return CookieService(self._store)
