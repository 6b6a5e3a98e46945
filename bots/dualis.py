"""The Duālis seat-keeper (RULINGS.md §1; all variants: partnership or iso, high_low, short).

A side scores +T when its tricks T equal its coins C and −|T − C| otherwise, so every move is
judged by the forecast of the side's final trick count it leaves against the coins it holds:

* the trick in progress: who wins it as things stand, asked of `rules.dualis.trick_outcome` with the
  centre the move leaves (a coin changes the card's colour, the centre and so the trump), and how
  likely that winner is to hold against the unseen cards still to come;
* the cards left in hand: their chance to take a later trick (a cheap winner keeps the strong cards;
  a card that cannot win follows low), scaled by the table's form (tricks taken this match against
  a fair share: weak opponents give more tricks than the cards alone say);
* coins: the side wants to end with exactly as many coins as tricks. Too many coins can only be
  cured by more tricks; too few by coins still in the centre, which the other side takes too.
  At the round's last card the real score decides; in its last tricks a side short of tricks
  cashes its winners.

Two hard rules on top: never take a coin that turns the trick from our side to the other, and never
take a coin that the side could not match even by taking every trick left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bots.tricks import SURE, Candidate, Forecast, best, card_chance, forecast, hold_chance, without_one
from rules.dualis.cards import CARD_INFO, CARDS, OPPOSITE, PlayedCard, trick_outcome, trick_rank
from rules.shapes import Action

# The weights below were chosen in seeded bot-against-bot matches (each deal played both ways).
# A trick of mismatch between tricks and coins turns +T into −1; weighed 1 against the trick count
# itself it did best (a side that takes tricks also spoils the other side's count).
MISMATCH_WEIGHT = 1.0
# A card's chance to take a later trick is less sure than a trick taken now: it may have to follow a
# suit it cannot win, and the lead may never come back to play it.
LATER_DISCOUNT = 0.8
# In the last five tricks of a round a side short of tricks (more coins than tricks) takes what it can
# now: the weight of the chance to take this trick, times the share of the tricks left it needs.
URGENT_FROM, URGENT = 5, 1.0
# How many tricks of evidence the table's form starts from (a fair share), before the match shows
# whether the other side gives tricks away.
FORM_PRIOR = 8.0
# A partner still to play may take the trick for us though we do not win it now.
PARTNER_RESCUE = 0.3


@dataclass(frozen=True)
class Table:
    """What the seat knows, read once from its view."""

    seat: int
    seats: int
    high_low: bool
    side: frozenset[int]
    tricks: int  # our side's tricks this round
    coins: int  # our side's coins this round
    centre: tuple[int, int]  # (Red, Blue) coins left
    plays: tuple[PlayedCard, ...]  # the trick in progress
    later: tuple[int, ...]  # seats still to play this trick after us
    hand: tuple[str, ...]
    hand_counts: Mapping[int, int]
    unseen: frozenset[str]  # cards the seat has not seen: other hands, set aside, hidden tricks
    form: float  # our side's tricks so far this match over its fair share (shrunk towards 1)


def read_table(view: Mapping[str, Any], seat: int) -> Table:
    """The seat's knowledge as a Table."""
    players = view["players"]
    side_index = players[seat]["side"]
    side = next(s for s in view["sides"] if s["side"] == side_index)
    plays = tuple(
        PlayedCard(seat=p["seat"], card=p["card"], coin=p["coin"], colour=p["colour"])
        for p in view["trick"]["plays"]
    )
    to_play = list(view["trick"]["to_play"])
    seen = set(view["hand"]) | {p.card for p in plays}
    for trick in view.get("history") or ():
        seen |= {p["card"] for p in trick["plays"]}
    return Table(
        seat=seat,
        seats=view["seats"],
        high_low=bool(view["options"]["high_low"]),
        side=frozenset(side["seats"]),
        tricks=side["tricks"],
        coins=side["coins"],
        centre=(view["centre"]["R"], view["centre"]["B"]),
        plays=plays,
        later=tuple(to_play[to_play.index(seat) + 1 :]) if seat in to_play else (),
        hand=tuple(view["hand"]),
        hand_counts={p["seat"]: p["hand_count"] for p in players},
        unseen=frozenset(CARDS) - seen,
        form=table_form(view, side_index, side["tricks"], len(side["seats"])),
    )


def table_form(view: Mapping[str, Any], side_index: int, tricks_now: int, side_size: int) -> float:
    """How much more (or less) than its fair share of tricks our side has taken this match: the
    cards' forecast is scaled by it, since weak (or strong) opponents give more (or fewer) tricks
    than the cards alone say."""
    done_now = view["tricks_per_round"] - len(view["hand"])
    taken = tricks_now + sum(r["tricks"][side_index] for r in view["rounds"])
    played = done_now + sum(sum(r["tricks"]) for r in view["rounds"])
    fair = side_size / view["seats"]
    ratio = (taken + FORM_PRIOR * fair) / ((played + FORM_PRIOR) * fair)
    return max(0.5, min(2.0, float(ratio)))


def choose(view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
    """The move of highest value among the moves no hard rule forbids."""
    table = read_table(view, seat)
    chances = tuple(later_chance(table, card) for card in table.hand)
    judged = [judge(table, action, chances) for action in legal]
    allowed = [c for c in judged if not harmful_coin(table, c, judged)] or judged
    return best(allowed, lambda c: value(table, c)).action


# --------------------------------------------------------------------------------- one move


def played(table: Table, action: Action) -> tuple[PlayedCard, tuple[int, int]]:
    """The card as it lies in the trick (its colour after any coin) and the centre it leaves."""
    card, coin = action["card"], bool(action.get("coin", False))
    printed = CARD_INFO[card][2]
    colour = OPPOSITE[printed] if coin else printed
    red, blue = table.centre
    if coin:
        red, blue = (red - 1, blue) if colour == "R" else (red, blue - 1)
    return PlayedCard(seat=table.seat, card=card, coin=coin, colour=colour), (red, blue)


def judge(table: Table, action: Action, chances: Sequence[float]) -> Candidate:
    """The move's effect on the trick (as things stand, then the chance it holds) and the hand."""
    play, centre = played(table, action)
    plays = (*table.plays, play)
    outcome = trick_outcome(plays, centre, table.high_low)
    wins_now = outcome.winner in table.side
    if not table.later:
        take = 1.0 if wins_now else 0.0
    elif wins_now:
        winner = next(p for p in plays if p.seat == outcome.winner)
        opponents = [table.hand_counts[s] for s in table.later if s not in table.side]
        beaters = count_beaters(plays[0], winner, centre, table.high_low, table.unseen)
        take = hold_chance(beaters, len(table.unseen), opponents)
    else:
        partners = [s for s in table.later if s in table.side]
        take = PARTNER_RESCUE if partners else 0.0
    index = table.hand.index(play.card)
    return Candidate(action, play.card, wins_now, take, without_one(chances, index))


@lru_cache(maxsize=4096)
def count_beaters(
    lead: PlayedCard, winner: PlayedCard, centre: tuple[int, int], high_low: bool, unseen: frozenset[str]
) -> int:
    """How many unseen cards, played next without a coin, would take the trick from `winner` (which
    wins it so far): the game's own ranking of a trick's plays decides (the lead sets the suit and
    direction, the centre the trump; a later play of equal rank takes the trick)."""
    rank = trick_rank(lead, centre, high_low)
    to_beat = rank(winner)
    return sum(1 for card in unseen if rank(UNCOINED[card]) >= to_beat)


UNCOINED = {card: PlayedCard(seat=-1, card=card, coin=False, colour=CARD_INFO[card][2]) for card in CARDS}


def later_chance(table: Table, card: str) -> float:
    """The chance a card in hand takes a later trick, by its number against the other seats' cards.
    High-Low: a card is strong at either end of the numbers, depending on the colour that leads."""
    number = CARD_INFO[card][1]
    opponents = table.seats - 1
    if table.high_low:
        chance = 0.5 * (card_chance(number, 13, opponents) + card_chance(14 - number, 13, opponents))
    else:
        chance = card_chance(number, 13, opponents)
    return LATER_DISCOUNT * chance


# --------------------------------------------------------------------------------- coins


def coin_capacity(table: Table, candidate: Candidate) -> float:
    """How many more coins our side can expect after this move: a fair share of what the centre
    holds (the other side takes coins too), no more than our plays still to come can carry (for
    my own cards: coins of the colour opposite to each card's print)."""
    _, centre = played(table, candidate.action)
    mine = list(table.hand)
    mine.remove(candidate.card)
    red_cards = sum(1 for c in mine if CARD_INFO[c][2] == "R")  # a Red card takes a Blue coin
    my_cap = min(centre[1], red_cards) + min(centre[0], len(mine) - red_cards)
    partner_plays = sum(table.hand_counts[s] for s in table.side if s != table.seat)
    fair_share = len(table.side) / table.seats
    return min(fair_share * sum(centre), my_cap + partner_plays)


def side_forecast(table: Table, candidate: Candidate) -> Forecast:
    """Our side's final trick count after this move: my cards' chances and an average share for a
    partner's cards, both scaled by the table's form."""
    partner_cards = 0
    for s in table.side - {table.seat}:
        partner_cards += table.hand_counts[s] - (1 if s in table.later else 0)
    per_card = min(1.0, table.form / table.seats)
    return forecast(
        table.tricks,
        candidate.take,
        [min(1.0, table.form * chance) for chance in candidate.later],
        extra_mean=partner_cards * per_card,
        extra_var=partner_cards * per_card * (1.0 - per_card),
    )


def value(table: Table, candidate: Candidate) -> float:
    """The expected trick count less the expected mismatch with the coins: too many coins (more
    than the tricks, curable only by tricks) or too many tricks (more than the coins we can still
    get). Once the count is certain (the round's last card), the round's real score."""
    outlook = side_forecast(table, candidate)
    coins = table.coins + (1 if candidate.action.get("coin") else 0)
    capacity = coin_capacity(table, candidate)
    if outlook.sd < SURE:
        return certain_score(round(outlook.mean), coins, int(capacity))
    mismatch = outlook.below(coins) + outlook.above(coins + capacity)
    worth = outlook.mean - MISMATCH_WEIGHT * mismatch
    if len(table.hand) <= URGENT_FROM and table.coins > table.tricks:
        worth += URGENT * min(1.0, (table.coins - table.tricks) / len(table.hand)) * candidate.take
    return worth


def certain_score(tricks: int, coins: int, more_coins: int) -> float:
    """The round's score for a known trick count, coins added up to it as far as `more_coins` go."""
    if coins <= tricks <= coins + more_coins:
        return float(tricks)
    if tricks < coins:
        return -float(coins - tricks)
    return -float(tricks - coins - more_coins)


def harmful_coin(table: Table, candidate: Candidate, judged: Sequence[Candidate]) -> bool:
    """A coin that hurts our side: it turns the trick from us to the other side (the same card
    without the coin would win it as things stand), or it could never be matched by tricks."""
    if not candidate.action.get("coin"):
        return False
    plain = next(c for c in judged if c.card == candidate.card and not c.action.get("coin"))
    if plain.wins_now and not candidate.wins_now:
        return True
    tricks_left = len(table.hand)  # this trick included
    return table.coins + 1 > table.tricks + tricks_left
