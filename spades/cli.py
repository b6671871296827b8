"""Command line: ``python -m spades simulate|arena|bench|ratings``."""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from spades.bots import bot_names
from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.engine.state import HandState


def simulate(matches: int, seed: int, bots: Sequence[str], rules: Rules) -> dict[str, Any]:
    """Play ``matches`` matches and summarise them (by team, or in cutthroat by seat)."""
    from spades.sim.progress import Progress

    sides = len(rules.sides())
    wins = [0] * sides
    draws = hands = unfinished = 0
    finals: list[tuple[int, ...]] = []
    nils = nils_made = sets = contracts = 0
    with Progress(matches, "simulate") as bar:
        for i in range(matches):
            match = play_match(rules, seed + i, bots)
            if not match.is_over:
                unfinished += 1
            elif match.winner is None:
                draws += 1
            else:
                wins[match.winner] += 1
            hands += len(match.finished)
            finals.append(match.scores)
            for finished in match.finished:
                nils += sum(1 for b in finished.bids if b == 0)
                nils_made += sum(
                    1 for s, b in enumerate(finished.bids) if b == 0 and finished.tricks_won[s] == 0
                )
            for result in match.results:
                for side in result.sides:
                    if side.made is not None:
                        contracts += 1
                        sets += side.made is False
            bar.advance()
    means = [statistics.fmean(s[i] for s in finals) if finals else 0.0 for i in range(sides)]
    outcomes: dict[str, Any]
    mean_finals: dict[str, Any]
    if rules.partnerships:
        outcomes = {"wins_ns": wins[0], "wins_ew": wins[1]}
        mean_finals = {"mean_final_ns": means[0], "mean_final_ew": means[1]}
    else:
        outcomes = {"wins_by_seat": wins}
        mean_finals = {"mean_finals": means}
    return {
        "matches": matches,
        "seed": seed,
        "bots": list(bots),
        **outcomes,
        "draws": draws,
        "unfinished": unfinished,
        "hands_per_match": hands / max(matches, 1),
        **mean_finals,
        "nil_bids": nils,
        "nil_success": nils_made / nils if nils else None,
        "set_rate": sets / contracts if contracts else None,
    }


def bench_checked(seconds: float, seed: int = 0) -> float:
    """Random-play full hands a second through ``legal_actions`` and ``apply``: the
    deal, the bids, the 52 cards and the scored result."""
    rules = Rules()
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            hand = HandState.deal(rules, dealer=done % rules.players, seed=done)
            legal = hand.legal_actions()
            while legal:
                hand.apply(legal[int(rng.random() * len(legal))])
                legal = hand.legal_actions()
            hand.result()
            done += 1
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def bench(seconds: float) -> dict[str, Any]:
    """The engine's speed figures as a dict."""
    from spades.bots.playout import bench_playouts

    return {
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "checked_hands_per_s": round(bench_checked(seconds)),
        **bench_playouts(seconds),
    }


_ARENA_A = "expert"
_ARENA_B = "standard"
_ARENA_DEALS = 1000


def _arena(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The duplicate arena: two bots in the partnership game, or in cutthroat (--players)
    two bots (A in one seat, B in the others) or one a seat."""
    from spades.sim.arena import run_deals, run_matches
    from spades.sim.report import format_deals, format_matches

    options = json.loads(args.rules)
    if args.players is None:
        names = _partnership_bots(parser, args)
    else:
        options |= {"partnerships": False, "players": args.players}
        names = _cutthroat_bots(parser, args)
    deals = args.deals if args.deals is not None else (0 if args.matches else _ARENA_DEALS)
    if deals < 0 or args.matches < 0:
        parser.error("--deals and --matches count games and cannot be negative")
    if not deals and not args.matches:
        counts = "--deals" if args.players else "--deals or --matches"
        parser.error(f"nothing to play: give {counts} a positive count")
    sides = [json.loads(args.a_options), json.loads(args.b_options)]
    bots = [(name, sides[i] if i < 2 else {}) for i, name in enumerate(names)]
    rules = Rules.from_dict(options)
    common: dict[str, Any] = {"seed": args.seed, "rules": rules, "workers": args.workers}
    deal_summary = run_deals(bots, deals=deals, **common) if deals else None
    match_summary = run_matches(bots, matches=args.matches, **common) if args.matches else None
    if args.json:
        print(
            json.dumps(
                {
                    "deals": None if deal_summary is None else deal_summary.to_dict(),
                    "matches": None if match_summary is None else match_summary.to_dict(),
                }
            )
        )
        return 0
    parts = []
    if deal_summary is not None:
        parts.append(format_deals(deal_summary))
    if match_summary is not None:
        parts.append(format_matches(match_summary))
    print("\n\n".join(parts))
    return 0


def _partnership_bots(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """Sides A's and B's bots, named as BOT arguments or with --a and --b."""
    if len(args.bots) > 2:
        parser.error("arena takes at most two bots, A and B")
    named = [args.a, args.b]
    for index, bot in enumerate(args.bots):
        if named[index] is not None:
            parser.error(f"give side {'AB'[index]}'s bot once, as BOT or as --{'ab'[index]}")
        named[index] = bot
    return [named[0] or _ARENA_A, named[1] or _ARENA_B]


def _cutthroat_bots(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The cutthroat bots, named as BOT arguments: two, or one a seat."""
    if args.matches:
        parser.error("cutthroat plays --deals only; --matches is the partnership game's")
    if args.a is not None or args.b is not None:
        parser.error("name the cutthroat bots as BOT arguments")
    names: list[str] = args.bots or [_ARENA_A, _ARENA_B]
    if len(names) not in (2, args.players):
        parser.error(f"cutthroat takes two bots or {args.players}, one a seat")
    return names


def _ratings(args: argparse.Namespace) -> int:
    from spades.stats.leaderboard import leaderboard
    from spades.stats.ratings import RATER
    from spades.store import BoardFilter, Store

    store = Store(args.db, rater=RATER)
    try:
        if args.rebuild:
            counted = store.rebuild_ratings()
            print(f"rebuilt the ratings from {counted} games")
        board = leaderboard(store, BoardFilter())
    finally:
        store.close()
    for row in board.head(args.top).itertuples():
        print(
            f"{row.rank:>4}  {row.conservative:6.1f}  {row.rating:>12}  {row.games:>5}  {row.name}"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spades", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play bot matches and print a summary")
    sim.add_argument("--matches", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--players",
        type=int,
        choices=(3, 4),
        help="play cutthroat, everyone for themselves, with this many players "
        "(default: the partnership game)",
    )
    sim.add_argument(
        "--bots", help="a bot name a seat, comma-separated: N,E,S,W (default: random in each)"
    )
    sim.add_argument("--rules", default="{}", help="house rules as a JSON object")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    are = commands.add_parser(
        "arena",
        help="duplicate deals (the headline margin) and matches between two bots",
        description=(
            "Bot A against bot B in duplicate: every seed is played twice, the sides "
            "swapping seats. The headline is the margin per hand over --deals deals (one "
            "hand each from 0-0): A's points minus B's, with its 95% interval. With "
            "--matches the arena also plays whole duplicate matches and reports the "
            "match wins; --matches alone plays only the matches."
        ),
    )
    are.add_argument(
        "bots",
        nargs="*",
        metavar="BOT",
        help=f"side A's bot, then side B's (default: {_ARENA_A} {_ARENA_B}); "
        f"one of {', '.join(sorted(bot_names()))}",
    )
    # The named flags are how the arena was first spelled; the documented runs use them.
    are.add_argument("--a", help="side A's bot, as the first BOT")
    are.add_argument("--b", help="side B's bot, as the second BOT")
    are.add_argument("--a-options", default="{}", help="side A's bot options as JSON")
    are.add_argument("--b-options", default="{}", help="side B's bot options as JSON")
    are.add_argument(
        "--deals",
        type=int,
        help=f"duplicate deals to play for the margin per hand (default {_ARENA_DEALS}, "
        "or none when only --matches is given)",
    )
    are.add_argument(
        "--matches", type=int, default=0, help="duplicate match pairs to play (default none)"
    )
    are.add_argument(
        "--seed", type=int, default=0, help="the first seed: deal or match i uses seed + i"
    )
    are.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to play in (default: the machine's cores); only the times change",
    )
    are.add_argument("--rules", default="{}", help="house rules as a JSON object")
    are.add_argument(
        "--players",
        type=int,
        choices=(3, 4),
        help="cutthroat duplicate with this many players: two bots (A in one seat, B in "
        "the others) or one bot a seat, every deal played once for each turn of the "
        "bots round the table; the headline is each pair's margin per hand",
    )
    are.add_argument(
        "--json",
        action="store_true",
        help='print {"deals": summary, "matches": summary} (null for a part not played)',
    )
    ben = commands.add_parser("bench", help="print the engine's speed as JSON")
    ben.add_argument("--seconds", type=float, default=3.0)
    rat = commands.add_parser(
        "ratings",
        help="print the leaderboard; --rebuild first computes every rating again",
        description=(
            "The skill ratings of people and bot levels, best first by mu - 3 sigma: rank, "
            "that conservative rating, mu ± sigma, rated games and name. --rebuild computes "
            "every rating again from the finished games that count, in the order they "
            "finished."
        ),
    )
    rat.add_argument("--rebuild", action="store_true", help="compute every rating again first")
    rat.add_argument("--top", type=int, default=20, help="how many rows to print (default 20)")
    rat.add_argument(
        "--db", help="the database URL (default: SPADES_DB_URL, else the per-user file)"
    )
    args = parser.parse_args(argv)
    if args.command == "simulate":
        options = json.loads(args.rules)
        if args.players is not None:
            options |= {"players": args.players, "partnerships": False}
        rules = Rules.from_dict(options)
        bots = args.bots.split(",") if args.bots else ["random"] * rules.players
        if len(bots) != rules.players:
            parser.error(f"--bots needs {rules.players} names")
        summary = simulate(args.matches, args.seed, bots, rules)
        if args.json:
            print(json.dumps(summary))
        else:
            for key, value in summary.items():
                print(f"{key:>16}: {value}")
        return 0
    if args.command == "arena":
        return _arena(are, args)
    if args.command == "bench":
        print(json.dumps(bench(args.seconds)))
        return 0
    if args.command == "ratings":
        return _ratings(args)
    raise AssertionError(args.command)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
