"""Where the expert's duplicate margin comes from: its bidding and its play apart, and any
variant paired deal by deal with an earlier run on the same deals.

Two bots made of halves are registered here: ``expert-bids`` bids (and chooses blind
nil and the exchange) as the expert does and plays the cards as standard does;
``expert-plays`` bids as standard does and plays as the expert does. Each is played
against standard in the hand-level duplicate of ``python -m spades arena`` (the same
deals, seeds and seat seeding), so the three margins (expert, expert-bids,
expert-plays, each against standard) split the expert's lead between its two halves.

Every run can keep its deals (``--out``): each deal's margin, both sides' bags, nils and
sets. A later run on the same deals with ``--base`` prints the paired difference, the
mean over the deals of this run's margin minus the earlier one's, whose interval is far
narrower than that of two separate margins: a bot's choices are fixed by the deal, the
seat and what it sees, so a variant plays exactly as before up to its first different
choice.

    python benchmarks/expert_parts.py expert --deals 300 --seed 20000 --out expert.json
    python benchmarks/expert_parts.py expert-bids --deals 300 --seed 20000
    python benchmarks/expert_parts.py expert-plays --deals 300 --seed 20000
    python benchmarks/expert_parts.py expert --options '{"epsilon": 0.2}' \
        --deals 300 --seed 20000 --base expert.json
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from spades.bots import make_bot, register
from spades.engine.cards import Action
from spades.engine.observation import Observation, Phase
from spades.engine.rules import Rules
from spades.sim.arena import BotSpec, DealResult, play_all, play_deal, summarise_deals
from spades.sim.report import format_deals, mean_interval


class _Halves:
    """A bot that bids with one bot and plays the cards with another."""

    name = "halves"

    def __init__(self, bidder: str, player: str, seed: int | None, options: dict[str, Any]):
        self.bidder = make_bot(bidder, seed=seed, **(options if bidder == "expert" else {}))
        self.player = make_bot(player, seed=seed, **(options if player == "expert" else {}))

    def act(self, observation: Observation) -> Action:
        bot = self.player if observation.phase is Phase.PLAYING else self.bidder
        return bot.act(observation)


@register("expert-bids")
def _expert_bids(*, seed: int | None = None, **options: Any) -> _Halves:
    return _Halves("expert", "standard", seed, options)


@register("expert-plays")
def _expert_plays(*, seed: int | None = None, **options: Any) -> _Halves:
    return _Halves("standard", "expert", seed, options)


#: The points each bag is charged in the margin that counts bags (issue 27's measure).
BAG_CHARGE = 10.0


def _row(deal: DealResult) -> dict[str, Any]:
    row: dict[str, Any] = {
        "seed": deal.seed,
        "margin": deal.margin(),
        "charged": deal.margin(per_bag=BAG_CHARGE),
    }
    for name, side in zip("ab", deal.sides, strict=True):
        row[name] = {
            "bags": side.bags,
            "nil_bids": side.nil_bids,
            "nil_made": side.nil_made,
            "contracts": side.contracts,
            "sets": side.under,
        }
    return row


def _paired(rows: list[dict[str, Any]], base: str) -> str:
    """The mean difference, deal by deal, between ``rows`` and the run kept in ``base``,
    at face value and with every bag charged 10 points."""
    with open(base, encoding="utf-8") as file:
        before = {row["seed"]: row for row in json.load(file)}
    pairs = [(row, before[row["seed"]]) for row in rows if row["seed"] in before]
    paired = [row["margin"] - old["margin"] for row, old in pairs]
    mean, low, high = mean_interval(paired)
    charged, charged_low, charged_high = mean_interval(
        [row["charged"] - old["charged"] for row, old in pairs]
    )
    changed = sum(1 for value in paired if value)
    return (
        f"paired with {base} ({changed} of {len(paired)} deals changed): "
        f"{mean:+.1f} points a hand (95% CI {low:+.1f} to {high:+.1f}); with every bag "
        f"charged 10 points {charged:+.1f} (95% CI {charged_low:+.1f} to {charged_high:+.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="side A: expert, expert-bids, expert-plays or any bot")
    parser.add_argument("--options", default="{}", help="side A's options as JSON")
    parser.add_argument("--against", default="standard", help="side B's bot")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="keep each deal's figures in this JSON file")
    parser.add_argument("--base", help="an earlier --out file on the same deals, to pair with")
    args = parser.parse_args()
    rules = Rules()
    bots: tuple[BotSpec, ...] = ((args.bot, json.loads(args.options)), (args.against, {}))
    tasks = [(rules, args.seed + i, bots) for i in range(args.deals)]
    deals = play_all(play_deal, tasks, args.workers, "deals")
    summary = summarise_deals(
        deals, bots=(args.bot, args.against), seed=args.seed, rules=rules, workers=args.workers
    )
    print(format_deals(summary))
    rows = [_row(deal) for deal in deals]
    for name in ("a", "b"):
        total = {key: sum(row[name][key] for row in rows) for key in rows[0][name]}
        print(
            f"{name.upper()} in all: {total['nil_bids']} nils ({total['nil_made']} made), "
            f"{total['sets']} sets of {total['contracts']} contracts, {total['bags']} bags"
        )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            json.dump(rows, file)
    if args.base:
        print(_paired(rows, args.base))


if __name__ == "__main__":
    main()
