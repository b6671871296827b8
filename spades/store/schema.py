"""The store's tables as this version lays them out, and the values their columns take.

Three tables hold the games (rules, seats, bot levels, kind, owner, times, result, undo), the
scored hands (dealer, bids, tricks, points breakdown, bags) and every action, so any game
replays through the engine. A fourth holds the players: a display name, table preferences
and the hash of the secret token a browser presents to be that player again. A
``schema_version`` table names the layout (:data:`SCHEMA_VERSION`). Two more hold the
shared tables, where friends and bots sit at one match, and their seats, two the skill
ratings (:mod:`spades.stats.ratings`) and what each rated game did to them, and the last the
single-use codes through which the server sets a browser's cookies
(:mod:`spades.store.cookies`).

A game is of one :data:`VARIANTS`: the partnership game, or cutthroat for three or four
players. The partnership game keeps its hands and results by team (``hands``, and the
``games`` columns ending in ``_ns`` and ``_ew``); cutthroat keeps them by player
(``player_hands``, one row a player a hand, and the ``games`` columns ending in a seat's
letter), and its team columns hold 0. A three-handed game has no West: its name and level
there are :data:`NO_SEAT`.

A player's profile is kept with them: a handle others know them by (chosen, unique, kept
in lower case), a colour, and the signed-in account it is linked to, if any.
"""

from __future__ import annotations

from typing import Final, Literal

import sqlalchemy as sa

SCHEMA_VERSION: Final = 11
SEAT_KEYS: Final = ("n", "e", "s", "w")
TEAM_KEYS: Final = ("ns", "ew")
#: The games a store keeps apart: the partnership game, and cutthroat for three or four.
PARTNERSHIP: Final = "partnership"
CUTTHROAT_3: Final = "cutthroat3"
CUTTHROAT_4: Final = "cutthroat4"
VARIANTS: Final = (PARTNERSHIP, CUTTHROAT_3, CUTTHROAT_4)
#: The name and level of a seat the game does not have (West, in three-handed cutthroat).
NO_SEAT: Final = ""
#: What the ``games`` table keeps of each player in cutthroat, in a column a seat.
CUTTHROAT_COLUMNS: Final = ("score", "bags", "place")
HUMAN: Final = "human"
Kind = Literal["human", "simulated"]
KINDS: Final = ("human", "simulated")
#: The longest display name a player may have.
NAME_MAX: Final = 40
#: The most a player's preferences may take, as UTF-8 JSON.
PREFS_MAX_BYTES: Final = 4096
#: The shortest and longest handle: lower-case letters, digits and ``_``.
HANDLE_MIN: Final = 3
HANDLE_MAX: Final = 20
#: The longest account id (the issuer and subject of a sign-in's identity token).
ACCOUNT_MAX: Final = 320
#: The colours a new player is given one of (by their id), each ``#rrggbb``.
COLOURS: Final = ("#1f77b4", "#2a9d8f", "#e76f51", "#8e6cc9", "#d4a017", "#c2185b")

metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
)

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    # Only the token's hash is kept: a copy of the database does not let anyone act as
    # the players in it.
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(NAME_MAX), nullable=False),
    sa.Column("prefs", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("seen_at", sa.DateTime, nullable=False),
    # None until the player chooses one; always lower case, so the unique index compares
    # handles without regard to case.
    sa.Column("handle", sa.String(HANDLE_MAX)),
    sa.Column("colour", sa.String(7), nullable=False, server_default=COLOURS[0]),
    # The signed-in account this player is, if they signed in: one player an account.
    sa.Column("account", sa.String(ACCOUNT_MAX)),
)
# Named on their own: the upgrade from version 6 adds them to a table that is already there
# (SQLite cannot add a column that is unique).
PLAYERS_HANDLE_INDEX: Final = sa.Index("ux_players_handle", players.c.handle, unique=True)
PLAYERS_ACCOUNT_INDEX: Final = sa.Index("ux_players_account", players.c.account, unique=True)

games = sa.Table(
    "games",
    metadata,
    # Actions and hands refer to a game by this small number rather than by its id, which
    # keeps the one-row-per-action table compact.
    sa.Column("num", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(32), nullable=False, unique=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("started_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
    sa.Column("finished_at", sa.DateTime),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("rule_set", sa.Text, nullable=False),
    *(sa.Column(f"player_{k}", sa.String(200), nullable=False) for k in SEAT_KEYS),
    *(sa.Column(f"level_{k}", sa.String(40), nullable=False) for k in SEAT_KEYS),
    sa.Column("bot_levels", sa.String(200), nullable=False),
    sa.Column("undo_allowed", sa.Boolean, nullable=False),
    sa.Column("undo_used", sa.Boolean, nullable=False),
    sa.Column("actions_count", sa.Integer, nullable=False),
    # The digest of the stored actions (spades.store.digest), which guarded writes compare.
    sa.Column("digest", sa.String(16), nullable=False, server_default=""),
    sa.Column("hands_count", sa.Integer, nullable=False),
    sa.Column("score_ns", sa.Integer, nullable=False),
    sa.Column("score_ew", sa.Integer, nullable=False),
    sa.Column("bags_ns", sa.Integer, nullable=False),
    sa.Column("bags_ew", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer),
    sa.Column("outcome", sa.String(200), nullable=False),
    # Which game it is (VARIANTS); every game stored before version 8 was a partnership one.
    sa.Column("variant", sa.String(16), nullable=False, server_default=PARTNERSHIP),
    # Cutthroat's score and bags a player, and once the game is over each player's place
    # (1 the winner's; None in the partnership game and at a seat the game does not have).
    *(sa.Column(f"{name}_{k}", sa.Integer) for name in CUTTHROAT_COLUMNS for k in SEAT_KEYS),
    # Simulated, imported and older games belong to nobody.
    sa.Column("owner", sa.String(32), sa.ForeignKey("players.id", ondelete="SET NULL")),
    # A game that came in as a record (Store.import_json): anyone could have written it,
    # so it never moves a rating.
    sa.Column("imported", sa.Boolean, nullable=False, server_default=sa.false()),
    # A shared table's match: it belongs to the table, so only the table moves it, and the
    # Play page never offers it or opens it to play.
    sa.Column("at_table", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_games_kind_started", "kind", "started_at"),
)
# Named on its own: the upgrade from version 2 adds it to a table that is already there.
GAMES_OWNER_INDEX: Final = sa.Index("ix_games_owner", games.c.owner)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("game", sa.Integer, sa.ForeignKey("games.num", ondelete="CASCADE"), primary_key=True),
    sa.Column("hand_no", sa.Integer, primary_key=True),
    sa.Column("dealer", sa.Integer, nullable=False),
    sa.Column("claimed_by", sa.Integer),
    *(sa.Column(f"bid_{k}", sa.Integer, nullable=False) for k in SEAT_KEYS),
    *(sa.Column(f"blind_{k}", sa.Boolean, nullable=False) for k in SEAT_KEYS),
    *(sa.Column(f"tricks_{k}", sa.Integer, nullable=False) for k in SEAT_KEYS),
    *(
        sa.Column(f"{name}_{t}", sa.Integer, nullable=False)
        for t in TEAM_KEYS
        for name in (
            "team_bid",
            "team_tricks",
            "points",
            "bags",
            "bags_before",
            "bags_after",
            "penalty",
            "score",
        )
    ),
    *(sa.Column(f"made_{t}", sa.Boolean) for t in TEAM_KEYS),
    sa.Column("breakdown", sa.Text, nullable=False),
    sqlite_with_rowid=False,
)

# A hand of a cutthroat game, one row a player in it: what the partnership game keeps by
# team in ``hands``, kept by player. A player knocked out of a three-handed game has no row
# for the hands after.
player_hands = sa.Table(
    "player_hands",
    metadata,
    sa.Column("game", sa.Integer, sa.ForeignKey("games.num", ondelete="CASCADE"), primary_key=True),
    sa.Column("hand_no", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    # Whether this player dealt the hand, and claimed the rest of its tricks.
    sa.Column("dealt", sa.Boolean, nullable=False),
    sa.Column("claimed", sa.Boolean, nullable=False),
    sa.Column("bid", sa.Integer, nullable=False),
    sa.Column("blind", sa.Boolean, nullable=False),
    sa.Column("tricks", sa.Integer, nullable=False),
    *(
        sa.Column(name, sa.Integer, nullable=False)
        for name in ("points", "bags", "bags_before", "bags_after", "penalty", "score")
    ),
    sa.Column("made", sa.Boolean),
    sa.Column("breakdown", sa.Text, nullable=False),
    sqlite_with_rowid=False,
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game", sa.Integer, sa.ForeignKey("games.num", ondelete="CASCADE"), primary_key=True),
    # The key (game, ply) is what makes two actions for one ply impossible, whatever the
    # writers do; the ply check in each write makes the loser hear about it.
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    # Clustered on (game, ply): SQLite keeps the rows in that order, with no second index.
    sqlite_with_rowid=False,
)

#: What a shared table's seat holds: nobody yet, a person, or a bot.
SEAT_KINDS: Final = ("open", "human", "bot")
#: Where a shared table stands: people joining, a match in play, or done.
TABLE_STATUSES: Final = ("waiting", "playing", "finished", "closed")

shared_tables = sa.Table(
    "tables",
    metadata,
    sa.Column("num", sa.Integer, primary_key=True, autoincrement=True),
    # The id is the table's address: random (secrets.token_urlsafe), so it cannot be guessed.
    sa.Column("id", sa.String(32), nullable=False, unique=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("creator", sa.String(32), sa.ForeignKey("players.id", ondelete="SET NULL")),
    sa.Column("game", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL")),
    # Seconds between two bot moves, and how long a person may take before a bot stands in.
    sa.Column("pace", sa.Float, nullable=False),
    sa.Column("turn_limit", sa.Integer, nullable=False),
    # Moved on by every change at the table: a page polls it to know when to redraw.
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
    # The last sign of life from any person at the table; a table without one is closed.
    sa.Column("human_at", sa.DateTime, nullable=False),
    # Listed in the lobby for anyone to join; a private table is joined by its link only.
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    # The table's options, set by its creator before the start: hints, and undo.
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("undo", sa.Boolean, nullable=False, server_default=sa.false()),
    # The Play page's private table: one person and the bots, moved by that person's page
    # alone (no clock, never closed for idleness), its game offered on the Play page.
    sa.Column("solo", sa.Boolean, nullable=False, server_default=sa.false()),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column(
        "table_num", sa.Integer, sa.ForeignKey("tables.num", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="SET NULL")),
    # Only the hash of the seat's secret token is kept, as for players.
    sa.Column("token_hash", sa.String(64), unique=True),
    sa.Column("name", sa.String(NAME_MAX), nullable=False),
    # The bot's level; for a person, the level of the bot that stands in while they are away.
    sa.Column("level", sa.String(40), nullable=False),
    sa.Column("seen_at", sa.DateTime),
    sa.Column("stand_in", sa.Boolean, nullable=False),
    sqlite_with_rowid=False,
)

#: The longest subject a rating may have: ``person:`` and a player id, or ``bot:`` and a level.
SUBJECT_MAX: Final = 48

ratings = sa.Table(
    "ratings",
    metadata,
    # spades.store.ratings names the subjects: ``person:<players.id>`` or ``bot:<level>``. No key
    # to players: a rating is rebuilt from the games, which keep no more than the id either.
    sa.Column("subject", sa.String(SUBJECT_MAX), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
)

rating_events = sa.Table(
    "rating_events",
    metadata,
    # The key makes rating a game twice impossible, whatever the writers do.
    sa.Column("game", sa.Integer, sa.ForeignKey("games.num", ondelete="CASCADE"), primary_key=True),
    sa.Column("subject", sa.String(SUBJECT_MAX), primary_key=True),
    # The seats the subject held, a bit a seat (N = 1, E = 2, S = 4, W = 8): the leaderboard
    # reads its bids and tricks from the hands by them.
    sa.Column("seats", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    # When the game finished, so that a rebuild writes the same events again.
    sa.Column("at", sa.DateTime, nullable=False),
    sa.Index("ix_rating_events_subject", "subject", "at"),
    sa.Index("ix_rating_events_at", "at"),
)

#: The longest name of a cookie the store keeps a code for, and the longest value.
COOKIE_NAME_MAX: Final = 64
COOKIE_VALUE_MAX: Final = 128

cookie_codes = sa.Table(
    "cookie_codes",
    metadata,
    # The SHA-256 of a single-use code a page hands back to have a cookie set; the code
    # itself is never kept.
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(COOKIE_NAME_MAX), nullable=False),
    # The cookie's value sealed under a key drawn from the code (hex): the row alone gives
    # no usable token.
    sa.Column("sealed", sa.String(2 * COOKIE_VALUE_MAX), nullable=False),
    # The cookie's lifetime in seconds; 0 drops it.
    sa.Column("max_age", sa.Integer, nullable=False),
    sa.Column("expires_at", sa.DateTime, nullable=False),
    sa.Index("ix_cookie_codes_expires", "expires_at"),
)

#: The tables of a store: a database holding any of them is taken for one.
OUR_TABLES: Final = frozenset(
    {
        "schema_version",
        "games",
        "hands",
        "player_hands",
        "actions",
        "players",
        "tables",
        "seats",
        "ratings",
        "rating_events",
        "cookie_codes",
    }
)
