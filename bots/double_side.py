"""The Double Side Play seat-keeper (RULINGS.md §2, with or without the trump option).

A player scores when their trick count ends equal to one of their dice (a 6 also counts as 0). So
every move is judged by the chance it leaves of ending on one of those counts, from the forecast of
`bots.tricks`: tricks won, the chance of taking the trick in progress (who wins as things stand is
asked of `rules.double_side.trick_winner`), and what the cards left in hand may still take. The
cards' numbers change when the hands turn over after trick 6 (a black 12 is a white 6), so a card's
later chance mixes its black and white strength by the tricks left on each side.

Needing more tricks, that keeps the strong cards and wins cheaply; needing fewer, it sheds its
strongest cards while they lose. The trump chooser names the colour that gives the best chance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bots.tricks import Candidate, Forecast, best, card_chance, forecast, hold_chance, without_one
from rules.double_side.cards import (
    COLOURS,
    DECK,
    TRICKS_PER_ROUND,
    TURN_OVER_AFTER,
    black,
    colour,
    number,
    trick_rank,
    trick_winner,
    white_of,
)
from rules.shapes import Action

TOP = 12  # numbers run 1-12 on either side
# A trump wins unless a higher trump falls; a plain card also risks being trumped.
TRUMP_FLOOR = 0.5
TRUMPED = 0.75
# Among moves of equal chance, keep the strong cards (play the weakest).
CHEAP = 1e-3


@dataclass(frozen=True)
class Table:
    """What the seat knows, read once from its view."""

    seat: int
    seats: int
    side: str  # "black" or "white": the numbers in force this trick
    trick_number: int
    trump: str | None
    plays: tuple[tuple[int, str], ...]  # (seat, card) of the trick in progress
    later: tuple[int, ...]  # seats still to play this trick after us
    hand: tuple[str, ...]
    hand_counts: Mapping[int, int]
    tricks: int
    targets: frozenset[int]
    unseen: frozenset[str]


def read_table(view: Mapping[str, Any], seat: int) -> Table:
    """The seat's knowledge as a Table."""
    seats = len(view["players"])
    trick = view["current_trick"] or {"plays": [], "number": view.get("trick_number") or 1}
    plays = tuple((p["seat"], p["card"]) for p in trick["plays"])
    played = len(plays)
    leader = plays[0][0] if plays else seat
    order = [(leader + i) % seats for i in range(seats)]
    hand = tuple(c["card"] for c in view["hand"])
    seen = set(hand) | {card for _, card in plays}
    for shown in view.get("tricks") or ():
        seen |= {p["card"] for p in shown["plays"]}
    me = view["players"][seat]
    return Table(
        seat=seat,
        seats=seats,
        side=view["side"],
        trick_number=trick["number"],
        trump=view.get("trump"),
        plays=plays,
        later=tuple(order[played + 1 :]),
        hand=hand,
        hand_counts={p["seat"]: p["cards"] for p in view["players"]},
        tricks=me["tricks"],
        targets=frozenset(me["targets"]),
        unseen=frozenset(DECK) - seen,
    )


def choose(view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
    """The trump colour or the card that leaves the best chance to end on a die."""
    table = read_table(view, seat)
    if "trump" in legal[0]:
        return best(legal, lambda action: trump_value(table, action["trump"]))
    chances = tuple(later_chance(table, card, table.trump) for card in table.hand)
    judged = [judge(table, action, chances) for action in legal]
    return best(judged, lambda c: value(table, c)).action


# --------------------------------------------------------------------------------- one move


def judge(table: Table, action: Action, chances: Sequence[float]) -> Candidate:
    """The card's effect on the trick (as things stand, then the chance it holds) and the hand."""
    card = action["card"]
    plays = (*table.plays, (table.seat, card))
    winner_index = trick_winner([c for _, c in plays], table.side, table.trump)
    wins_now = plays[winner_index][0] == table.seat
    if not table.later:
        take = 1.0 if wins_now else 0.0
    elif wins_now:
        beaters = count_beaters(plays[0][1], card, table.side, table.trump, table.unseen)
        take = hold_chance(beaters, len(table.unseen), [table.hand_counts[s] for s in table.later])
    else:
        take = 0.0
    return Candidate(action, card, wins_now, take, without_one(chances, table.hand.index(card)))


@lru_cache(maxsize=4096)
def count_beaters(lead: str, winner: str, side: str, trump: str | None, unseen: frozenset[str]) -> int:
    """How many unseen cards, played next, would take the trick from `winner` (the game's own
    trick_rank decides: a later card of equal or higher rank takes it; the lead sets the colour to
    follow)."""
    rank = trick_rank(colour(lead), side, trump)
    standing = rank(winner)
    return sum(1 for card in unseen if rank(card) >= standing)


def later_chance(table: Table, card: str, trump: str | None, done: int | None = None) -> float:
    """The chance a card in hand takes a later trick: its black and its white strength, weighed by
    the tricks left on each side after the `done` ones (by default: up to this one); a trump is
    strong, a plain card may be trumped."""
    done = table.trick_number if done is None else done
    left = TRICKS_PER_ROUND - done
    if left <= 0:
        return 0.0
    black_left = max(0, TURN_OVER_AFTER - done)
    opponents = table.seats - 1
    on_black = card_chance(black(card), TOP, opponents)
    on_white = card_chance(white_of(black(card)), TOP, opponents)
    chance = (black_left * on_black + (left - black_left) * on_white) / left
    if trump is None:
        return chance
    if colour(card) == trump:
        return TRUMP_FLOOR + (1.0 - TRUMP_FLOOR) * chance
    return TRUMPED * chance


def outlook(table: Table, candidate: Candidate) -> Forecast:
    """My final trick count after this move."""
    return forecast(table.tricks, candidate.take, candidate.later)


def value(table: Table, candidate: Candidate) -> float:
    """The chance to end on one of my dice; on equal chances, the weaker card is played."""
    hit = sum(outlook(table, candidate).exactly(target) for target in table.targets)
    return hit - CHEAP * card_strength(table, candidate.card)


def card_strength(table: Table, card: str) -> float:
    """A card's number on the side in force (what it spends now)."""
    return number(card, table.side)


def trump_value(table: Table, trump: str) -> float:
    """The chance to end on a die over the whole round if `trump` is named, judged from the hand."""
    chances = [later_chance(table, card, trump, done=table.trick_number - 1) for card in table.hand]
    fresh = forecast(table.tricks, 0.0, chances)
    hit = sum(fresh.exactly(target) for target in table.targets)
    # Equal chances: the colour I hold most of keeps me in control of the tricks.
    held = sum(1 for card in table.hand if colour(card) == trump)
    return hit + CHEAP * held + CHEAP * 0.1 * (len(COLOURS) - COLOURS.index(trump))
