"""Games of every kind the store holds, written to a database and dumped as SQL text.

``tests/golden/stored_games.sql`` was written by this script with the code of the commit
before the engine's undo and one event log (which took a Play move back and gave a game
up through the store itself, as its private table does today). ``test_stored_games``
loads it with the code of today: every game stored then must still load and replay. Run
it again only when a change of the store's tables is meant to be checked against the
games of an older one:

    python tests/stored_games.py tests/golden/stored_games.sql
"""

from __future__ import annotations

import random
import sqlite3
import sys
import tempfile
from pathlib import Path

from spades.engine.cards import CLAIM, bid_action
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store
from spades.store.tables import Tables

#: The games' rules: the defaults, house rules of every kind, and the cutthroat games.
RULES = {
    "standard": Rules(),
    "house": Rules(
        target_score=300,
        blind_nil=True,
        blind_nil_deficit=0,
        blind_nil_exchange=True,
        bag_limit=5,
        bag_penalty=50,
        no_spades_first_trick=True,
        ten_for_two_hundred=True,
        jokers=True,
        joker_ranking="deuces",
    ),
    "mirror": Rules(mirror=True, blind_nil=False, target_score=300),
    "cutthroat_three": Rules(players=3, partnerships=False, mercy_score=-100, target_score=300),
    "cutthroat_four": Rules(players=4, partnerships=False, target_score=300),
    "cutthroat_jokers": Rules(players=3, partnerships=False, jokers=True, set_aside="random"),
}
LEVELS = {0: "standard", 1: "random", 2: "basic", 3: "expert"}


def play(match: Match, rng: random.Random, actions: int) -> None:
    """Up to ``actions`` random moves (a claim when it is sound, now and then), with low
    bids mostly, so that contracts are made and matches end."""
    for _ in range(actions):
        if match.is_over:
            return
        if match.hand.can_claim() and rng.random() < 0.3:
            match.apply(CLAIM)
            continue
        legal = match.legal_actions()
        low = [a for a in legal if a in (bid_action(1), bid_action(2))]
        match.apply(rng.choice(low) if low and rng.random() < 0.7 else rng.choice(legal))


def write(store: Store) -> None:
    """Finished matches of every rule set, games stopped short, one given up, one in play
    with a move taken back, and a shared table's game in play."""
    owner, _ = store.new_player("Ada")
    for index, (name, rules) in enumerate(RULES.items()):
        rng = random.Random(index)
        names = tuple(f"{name} {seat}" for seat in range(rules.players))
        levels = {seat: LEVELS[seat] for seat in range(rules.players)}
        match = Match(rules, seed=index)
        play(match, rng, 5_000)
        store.save_match(match, players=names, kind="simulated", bot_levels=levels)
        short = Match(rules, seed=200 + index)
        play(short, rng, 130)
        store.save_match(short, players=names, kind="simulated", bot_levels=levels)
    rules = RULES["standard"]
    kept = store.new_game(
        rules=rules,
        seed=7,
        players=("Ada", "West bot", "North bot", "East bot"),
        kind="human",
        bot_levels={1: "random", 2: "basic", 3: "standard"},
        owner=owner,
    )
    match = Match(rules, seed=7)
    play(match, random.Random(7), 40)
    for ply, action in enumerate(match.history):
        store.append_action(kept, action, after=match.history[:ply])
    tables = Tables(store)
    tables.take_back(tables.play(kept, owner), 33, after=match.history)
    given_up = store.new_game(
        rules=rules,
        seed=8,
        players=("Ada", "West bot", "North bot", "East bot"),
        kind="human",
        bot_levels={1: "random", 2: "basic", 3: "standard"},
        owner=owner,
    )
    tables.close(tables.play(given_up, owner), "closed")
    table, _ = tables.create(
        creator=owner, name="Friday", rules=rules, pace=0.9, turn_limit=30, bot_level="basic"
    )
    tables.start(table, seed=9, bot_level="basic")
    match = Match(rules, seed=9)
    for _ in range(20):
        seat = match.current_player
        assert seat is not None
        action = match.legal_actions()[0]
        tables.act(table, seat, action, after=match.history, person=False)
        match.apply(action)


def dump(path: Path) -> None:
    """Write the games to a fresh SQLite database and its SQL text to ``path``."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        store = Store(f"sqlite:///{db}", rater=RATER)
        write(store)
        store.close()
        with sqlite3.connect(db) as conn:
            path.write_text("\n".join(conn.iterdump()) + "\n", encoding="utf-8")


if __name__ == "__main__":
    dump(Path(sys.argv[1]))
