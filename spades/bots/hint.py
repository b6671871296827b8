"""Hints: the best bot's choice for a seat, with a short reason a person can read.

``hint(observation)`` asks the ``expert`` bot (or ``standard`` where no expert is
registered) for the action, then explains it from the same observation: what the card
does to the trick, the seat's contract, the nils at the table and the bags.

A hint never advises a textbook blunder (:func:`blunder`): nil with an unguarded ace or
king (:func:`~spades.bots.knowledge.unguarded_honours`: any ace or joker, and a king with
fewer than two smaller cards of its suit), or taking a trick off a partner whose card is
sure to win it. Should the bot choose one, the hint gives the best of the other actions
by the bot's own evaluation (or the standard bot's choice) and says why not the blunder.

>>> from spades.engine.rules import Rules
>>> from spades.engine.state import HandState
>>> h = HandState.deal(Rules(), dealer=0, seed=1)
>>> tip = hint(h.observation(h.current_player))
>>> tip.action in h.legal_actions() and tip.reason.startswith("Bid")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.bots.base import Bot, bot_names, live_bot, require_turn
from spades.bots.expert import ExpertBot
from spades.bots.knowledge import Knowledge, closest_bid, passes_for_nil, unguarded_honours
from spades.bots.standard import BID_BIAS, choose_play, read_hand, wanted_tricks
from spades.engine.cards import (
    BLIND_NIL,
    LOOK,
    NIL,
    SEAT_NAMES,
    SUIT_NAMES,
    Action,
    Card,
    action_card,
    bid_of,
    card_action,
    passed_card,
)
from spades.engine.observation import Observation
from spades.engine.state import SPADES, Phase

# Reasons stay short enough to read at a glance.
MAX_REASON = 110
# SUIT_NAMES are plural ("you have no hearts"); these name one card's suit.
_SINGULAR = ("club", "diamond", "heart", "spade")


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why, in one sentence."""

    action: Action
    reason: str


def hint_bot_name() -> str:
    """The bot whose choices the hints show: ``expert`` once it is registered."""
    return "expert" if "expert" in bot_names() else "standard"


def hint(observation: Observation) -> Hint:
    """The suggested action for the observing seat, which must be the one to act."""
    require_turn(observation)
    bot = live_bot(hint_bot_name(), seed=0)
    return advise(observation, bot.act(observation), bot)


def advise(observation: Observation, action: Action, bot: Bot) -> Hint:
    """The hint for ``action``, the choice of ``bot``: the action and its reason, or,
    when it is a textbook blunder, the best other action and why not the blunder."""
    why_not = blunder(observation, action)
    if why_not is None:
        return Hint(action, explain(observation, action))
    sound = [a for a in observation.legal_actions if blunder(observation, a) is None]
    if not sound:
        return Hint(action, explain(observation, action))
    choice = _best_sound(observation, bot, sound)
    reason = explain(observation, choice)
    bid = bid_of(choice)
    if bid is not None:
        # "Bid 3: you count ..." becomes "Bid 3, not nil: the A♣ could win a trick; you
        # count ...".
        head, _, rest = reason.partition(": ")
        reason = f"{head}, {why_not}"
        if rest and len(reason) + len(rest) + 2 <= MAX_REASON:
            reason += "; " + rest
    elif len(reason) + len(why_not) + 2 <= MAX_REASON:
        reason += "; " + why_not
    return Hint(choice, reason)


def blunder(observation: Observation, action: Action) -> str | None:
    """Why ``action`` is a textbook blunder for the observing seat, in a player's words,
    or None when it is not one.

    Two are caught: a nil bid with an unguarded ace or king in the hand (blind nil is
    bid unseen, so it is never one), and a card that takes the trick off a partner whose
    card is sure to win it (trumping or overtaking a partner's winner), unless the
    partner bid nil and has no trick yet, when taking the trick is the point.
    """
    if action == NIL and observation.hand is not None:
        k = Knowledge(observation)
        honours = unguarded_honours(observation.hand, k.deck)
        if honours:
            return f"not nil: the {_join([k.label(c) for c in honours])} could win a trick"
        return None
    card = action_card(action)
    if observation.phase is not Phase.PLAYING or card is None:
        return None
    k = Knowledge(observation)
    if k.nil_alive(k.partner) or not k.partner_sure_winner() or not k.wins_now(card):
        return None
    if k.suit(card) == SPADES and k.led_suit != SPADES:
        return "trumping your partner's sure winner wastes a trick"
    return "overtaking your partner's sure winner wastes a trick"


def _best_sound(observation: Observation, bot: Bot, sound: list[Action]) -> Action:
    """The best of the ``sound`` actions: by the expert's own evaluation when the bot is
    the expert and rates them, else the standard bot's choice, else the cheapest."""
    if isinstance(bot, ExpertBot):
        if observation.phase is Phase.BIDDING:
            scores = bot.bid_values(observation)
        else:
            scores = {card_action(c): v for c, v in bot.evaluate(observation).items()}
        rated = [a for a in sound if a in scores]
        if rated:
            return max(rated, key=lambda a: (scores[a], -a))
    k = Knowledge(observation)
    if observation.phase is Phase.BIDDING:
        value = read_hand(k)
        choice = closest_bid(observation.legal_actions, wanted_tricks(k, value, BID_BIAS))
    else:
        choice = choose_play(k)
    if choice in sound:
        return choice
    return min(sound, key=lambda a: (k.power(c) if (c := action_card(a)) is not None else 0, a))


def explain(observation: Observation, action: Action) -> str:
    """Why ``action`` is a sensible choice, read from the seat's observation."""
    k = Knowledge(observation)
    if action == LOOK:
        return _explain_look(k)
    if action == BLIND_NIL:
        trails = "your team trails" if k.partner is not None else "you trail the leader"
        return (
            f"Blind nil: {trails} by {k.deficit()}, and 200 points "
            "would bring you back into the match"
        )
    bid = bid_of(action)
    if bid is not None:
        return _explain_bid(k, bid)
    passed = passed_card(action)
    if passed is not None:
        label = k.label(passed)
        team = (k.seat, k.partner) if k.partner is not None else (k.seat,)
        blind = any(observation.blind[seat] for seat in team)
        if passes_for_nil(observation):
            bidder = "blind nil bidder" if blind else "nil bidder"
            return f"Pass the {label}: as the {bidder}, give away your highest cards"
        mate = "blind-nil partner" if blind else "nil partner"
        return f"Pass the {label}: give your {mate} low cards to duck with"
    card = action_card(action)
    if card is not None:
        return _explain_play(k, card)
    return "Claim the rest: every remaining trick is yours"


# ----------------------------------------------------------------- bidding
def _explain_look(k: Knowledge) -> str:
    if BLIND_NIL in k.obs.legal_actions:
        who = "your team is" if k.partner is not None else "you are"
        return f"Look at your cards: {who} not far enough behind to gamble on blind nil"
    return "Look at your cards before you bid"


def _explain_bid(k: Knowledge, bid: int) -> str:
    obs = k.obs
    numbers = [b for a in obs.legal_actions if (b := bid_of(a))]
    partner_bid = k.partner_bid()
    if obs.rules.mirror:
        if bid == 0:
            return "Nil: Mirror makes you bid your spades, and you hold none"
        return f"Bid {bid}: Mirror makes you bid your {bid} spade{'s' if bid != 1 else ''}"
    if bid == 0 and not numbers:
        if obs.rules.suicide:
            return "Nil: under Suicide one partner must bid nil, and yours bid a number"
        return "Nil: the house rules leave you no other bid"
    assert obs.hand is not None
    value = read_hand(k)
    if bid == 0:
        risky = [k.label(c) for c in value.dangers]
        if not risky:
            why = "no card in your hand is likely to win a trick"
        else:
            why = f"only the {_join(risky)} could win a trick"
        cover = (
            f", and your partner's bid of {partner_bid} can cover you"
            if partner_bid and partner_bid >= 4
            else ""
        )
        return f"Nil: {why}{cover}"
    if obs.rules.whiz:
        return f"Bid {bid}: Whiz makes you bid nil or your {bid} spades, and nil is too risky"
    count = round(value.tricks)
    sources = [f"{k.label(card)} {_share(share)}" for card, share in value.shares]
    if value.length:
        sources.append(f"long spades {_share(value.length)}")
    if value.ruffs:
        sources.append(f"ruffs {_share(value.ruffs)}")
    sentence = f"Bid {bid}: you count about {count} trick{'s' if count != 1 else ''}"
    if sources:
        sentence += f" ({', '.join(sources)})"
    clauses = []
    lowest = min(numbers)
    if bid > count and bid == lowest:
        clauses.append(f"the rules ask for at least {bid}")
    elif bid < count:
        clauses.append("bidding under your count is safer than a set")
    elif bid > count:
        clauses.append("bidding over your count keeps bags off and points coming")
    if partner_bid:
        clauses.append(f"with your partner's {partner_bid} your team bids {partner_bid + bid}")
    elif partner_bid == 0:
        clauses.append("your partner bid nil, so your tricks carry the team")
    for clause in clauses:
        if len(sentence) + len(clause) + 2 <= MAX_REASON:
            sentence += "; " + clause
    return sentence


def _share(tricks: float) -> str:
    """A share of the count in quarters of a trick, as people write it; a share under
    a quarter still shows as one, since the count rests on it.

    >>> _share(0.95), _share(0.6), _share(1.7), _share(0.1), _share(2.0)
    ('1', '½', '1¾', '¼', '2')
    """
    quarters = max(1, round(tricks * 4))
    whole, part = divmod(quarters, 4)
    fraction = ("", "¼", "½", "¾")[part]
    return f"{whole or ''}{fraction}" if fraction else str(whole)


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -------------------------------------------------------------------- play
def _explain_play(k: Knowledge, card: Card) -> str:
    obs = k.obs
    label = k.label(card)
    suit = k.suit(card)
    if len(obs.legal_actions) == 1:
        if k.led_suit is not None and suit == k.led_suit:
            return f"Play the {label}: it is your only {_SINGULAR[suit]}"
        return f"Play the {label}: it is your only legal card"
    if k.nil_alive(k.seat):
        return _explain_own_nil(k, card)
    if k.nil_alive(k.partner) and not k.is_nil(k.seat):
        reason = _explain_cover(k, card)
        if reason:
            return reason
    reason = _explain_bust(k, card)
    if reason:
        return reason
    if not obs.trick:
        return _explain_lead(k, card)
    return _explain_follow(k, card)


def _explain_own_nil(k: Knowledge, card: Card) -> str:
    label = k.label(card)
    if not k.obs.trick:
        if not k.lower_unseen(card):
            return f"Lead the {label}: nobody can play under it, which keeps your nil safe"
        return f"Lead the {label}: a low card keeps your nil safe"
    assert k.winner is not None
    if not k.wins_now(card):
        if k.suit(card) == k.led_suit:
            top = k.label(k.winner[1])
            return f"Stay under: the {label} is below the {top}, so your nil is safe"
        led = SUIT_NAMES[k.led_suit] if k.led_suit is not None else "cards of that suit"
        return f"Discard the {label}: you have no {led}, and a high card is a danger to your nil"
    if k.still_to_play():
        return f"Play the {label}: you cannot go under, so play low and hope someone goes over"
    return f"Play the {label}: you must take this trick, so get rid of your highest card"


def _explain_cover(k: Knowledge, card: Card) -> str | None:
    mate = k.partner
    assert mate is not None
    label = k.label(card)
    if not k.obs.trick:
        if k.is_master(card):
            return f"Lead the {label}: a top card your partner can play under protects the nil"
        if k.is_void(mate, k.suit(card)):
            suit = SUIT_NAMES[k.suit(card)]
            return f"Lead the {label}: your nil-bidding partner has no {suit} and can throw a card"
        return f"Lead the {label}: high leads help your nil-bidding partner stay under"
    assert k.winner is not None
    wins = k.wins_now(card)
    partner_card = k.played_in_trick(mate)
    if partner_card is not None:
        if k.winner[0] == mate and wins:
            return f"Cover: overtake your partner's {k.label(partner_card)} to save the nil"
        return None
    if wins:
        if k.suit(card) == SPADES and k.led_suit != SPADES:
            return f"Trump with the {label}: your partner bid nil and plays after you"
        if card == max(k.legal_cards(), key=k.power):
            return f"Play high: the {label} covers your partner, who bid nil and plays after you"
        return f"Play the {label}: your partner bid nil and can stay under it"
    return None


def _explain_bust(k: Knowledge, card: Card) -> str | None:
    nils = [s for s in k.opponents if k.nil_alive(s)]
    if not nils:
        return None
    label = k.label(card)
    name = SEAT_NAMES[nils[0]]
    if not k.obs.trick:
        if not k.lower_unseen(card) and k.suit(card) != SPADES:
            return f"Lead the {label}: nobody can play under it, a test of {name}'s nil"
        return None
    assert k.winner is not None
    if k.winner[0] in nils and not k.wins_now(card):
        return f"Duck under: {name} bid nil and is winning with the {k.label(k.winner[1])}"
    if nils[0] in k.still_to_play() and not k.wins_now(card):
        return f"Play low: {name} bid nil and must still play to this trick"
    return None


def _explain_lead(k: Knowledge, card: Card) -> str:
    label = k.label(card)
    suit = k.suit(card)
    if k.is_master(card):
        if suit == SPADES:
            return f"Lead the {label}: it is the top spade left; drawing trumps saves your winners"
        return f"Cash the {label}: it is the highest {_SINGULAR[suit]} left"
    if k.need(k.team) <= 0 and k.team_bid(k.team) > 0:
        return f"Lead the {label}: {_has_contract(k)}, so give the trick away and avoid a bag"
    spades = k.count(k.hand, SPADES)
    if k.count(k.hand, suit) == 1 and suit != SPADES and spades and k.tricks_left > spades + 1:
        return f"Lead your singleton {label}: once it is gone you can trump that suit"
    if card == k.my_cards(suit)[0]:
        return f"Lead the {label}: a low {_SINGULAR[suit]} keeps your high cards for later"
    return f"Lead the {label} from your {SUIT_NAMES[suit]}"


def _has_contract(k: Knowledge) -> str:
    return "your team has its contract" if k.partner is not None else "you have your contract"


def _explain_follow(k: Knowledge, card: Card) -> str:
    assert k.winner is not None
    label = k.label(card)
    suit = k.suit(card)
    seat, top = k.winner
    led = k.led_suit
    assert led is not None
    if seat == k.partner and not k.wins_now(card):
        return f"Duck: your partner's {k.label(top)} is already winning"
    need = k.need(k.team)
    if k.wins_now(card):
        if suit == SPADES and led != SPADES:
            takes = "takes" if k.sure_winner(card) else "should take"
            return f"Trump: you have no {SUIT_NAMES[led]}, and the {label} {takes} the trick"
        if not k.still_to_play():
            legal = k.legal_cards()
            winners = [c for c in legal if k.wins_now(c)]
            if card == min(winners, key=k.power):
                return f"Win with the {label}: the cheapest card that takes the trick"
            if len(winners) == len(legal):
                return f"Win with the {label}: every card you hold takes this trick"
            return f"Win with the {label}: it takes the trick"
        if k.is_master(card):
            return f"Play the {label}: it is the highest {_SINGULAR[suit]} left and should win"
        return f"Play the {label}: it beats the {k.label(top)} and may well hold"
    if need <= 0 and k.team_bid(k.team) > 0:
        bags = k.obs.bags[k.team]
        have = f" and already {bags} bags" if bags else ""
        return f"Duck: {_has_contract(k)}{have}, so avoid another bag"
    if suit != led:
        return f"Discard the {label}: you have no {SUIT_NAMES[led]}"
    legal = k.legal_cards()
    lowest = card == min(legal, key=k.power)
    if not any(k.wins_now(c) for c in legal):
        if lowest:
            return f"Play low: you cannot beat the {k.label(top)}"
        return f"Play the {label}: you cannot beat the {k.label(top)} anyway"
    if lowest:
        return f"Play low: the {k.label(top)} may not be worth your high cards"
    return f"Play the {label}: keep your higher cards for later tricks"
