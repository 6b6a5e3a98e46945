"""Dealing the hidden parts of a game again, consistently with what one seat sees.

A search bot must not look at the real state: it samples complete states that agree with the seat's
view (`Game.determinize(view, rng)`) and plays them out. Each game says which cards it has not seen
and where they may lie (`Place`s: another hand, a face-down set, the cards set aside, the draw pile),
with what the view implies about each place (a seat that did not follow a suit holds none of it); this
module deals them. Pure: the randomness is the caller's `SeededRandom`.

The deal is a random sequential placement, most constrained cards first, each card going to a place
with room that accepts it with a chance in proportion to the room left (with no constraint that is a
uniform deal). A placement that runs into a dead end is thrown away and dealt again, so every
consistent placement has a positive chance and none that breaks a constraint is ever returned.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.rng import SeededRandom

ATTEMPTS = 400  # dead ends are rare with the most constrained cards first; a bound keeps it total


@dataclass(frozen=True)
class Place:
    """Where hidden cards lie: a name, how many cards it holds, and the kinds of card it refuses."""

    name: Hashable
    size: int
    refuses: frozenset[str] = field(default_factory=frozenset)

    def takes(self, kind: str) -> bool:
        """Whether a card of this kind may lie here."""
        return kind not in self.refuses


class Inconsistent(ValueError):
    """The view's constraints admit no deal (a view no game could show)."""


def deal_hidden(
    cards: Sequence[str],
    places: Sequence[Place],
    kind: Callable[[str], str],
    rng: SeededRandom,
    accept: Callable[[dict[Hashable, list[str]]], bool] = lambda dealt: True,
) -> dict[Hashable, list[str]]:
    """The unseen `cards` dealt over the `places` (their sizes must add up to the number of cards),
    each card to a place that does not refuse its kind; `accept` may refuse a whole deal (a rule
    between cards of one place, such as a forbidden pair)."""
    if sum(p.size for p in places) != len(cards):
        raise Inconsistent(f"{len(cards)} unseen cards for {sum(p.size for p in places)} hidden places")
    for _ in range(ATTEMPTS):
        dealt = _attempt(cards, places, kind, rng)
        if dealt is not None and accept(dealt):
            return dealt
    raise Inconsistent("no deal of the unseen cards fits what the view shows")


def _attempt(
    cards: Sequence[str], places: Sequence[Place], kind: Callable[[str], str], rng: SeededRandom
) -> dict[Hashable, list[str]] | None:
    """One sequential placement, or None at a dead end."""
    room = {p.name: p.size for p in places}
    dealt: dict[Hashable, list[str]] = {p.name: [] for p in places}
    for card in _most_constrained_first(cards, places, kind, rng):
        open_places = [p for p in places if room[p.name] > 0 and p.takes(kind(card))]
        if not open_places:
            return None
        chosen = _weighted(open_places, [room[p.name] for p in open_places], rng)
        dealt[chosen.name].append(card)
        room[chosen.name] -= 1
    for name in dealt:  # the order within a place must not tell the order of the deal
        dealt[name] = rng.shuffled(dealt[name])
    return dealt


def _most_constrained_first(
    cards: Sequence[str], places: Sequence[Place], kind: Callable[[str], str], rng: SeededRandom
) -> list[str]:
    """The cards shuffled, then ordered by how few places take their kind (a stable sort)."""
    room_for = Counter({k: sum(p.size for p in places if p.takes(k)) for k in {kind(c) for c in cards}})
    return sorted(rng.shuffled(cards), key=lambda card: room_for[kind(card)])


def _weighted(items: Sequence[Place], weights: Sequence[int], rng: SeededRandom) -> Place:
    """One item, with a chance in proportion to its weight."""
    pick = rng.below(sum(weights))
    for item, weight in zip(items, weights, strict=True):
        if pick < weight:
            return item
        pick -= weight
    raise AssertionError("the weights ran out")


def unseen(deck: Sequence[str], *seen: Sequence[str]) -> list[str]:
    """The cards of `deck` (a multiset) less every card seen; Inconsistent if a seen card is not in it."""
    left = Counter(deck)
    for group in seen:
        for card in group:
            if left[card] <= 0:
                raise Inconsistent(f"the view shows {card!r} more often than the deck holds it")
            left[card] -= 1
    return [card for card in deck if _take(left, card)]


def _take(left: Counter[str], card: str) -> bool:
    """Whether one more copy of `card` is left (and count it taken)."""
    if left[card] <= 0:
        return False
    left[card] -= 1
    return True


def voids(tricks: Sequence[Sequence[tuple[int, str]]], suit: Callable[[str], str]) -> dict[int, set[str]]:
    """The suits each seat showed it lacks: in every trick seen (plays as (seat, card), led first),
    a seat that did not follow the led suit holds none of it for the rest of the round."""
    out: dict[int, set[str]] = {}
    for plays in tricks:
        if not plays:
            continue
        led = suit(plays[0][1])
        for seat, card in plays[1:]:
            if suit(card) != led:
                out.setdefault(seat, set()).add(led)
    return out


def new_seed(rng: SeededRandom) -> int:
    """A seed for the sampled state's future shuffles: the real seed is hidden (it tells future deals)."""
    return rng.below(2**62)


def field_of(view: dict[str, Any], key: str) -> Any:
    """A key every view of a running game carries; Inconsistent if the view lacks it."""
    if key not in view:
        raise Inconsistent(f"the view has no {key!r}")
    return view[key]


@dataclass(frozen=True)
class TrickDeal:
    """A trick-taking round dealt again: every hand, the cards set aside and the tricks of the round
    that lie face down (each trick's cards by seat, and its winner)."""

    hands: tuple[tuple[str, ...], ...]
    set_aside: tuple[str, ...]
    face_down: tuple[tuple[str, ...], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class TrickTable:
    """What a seat of a trick-taking round sees, as the dealing needs it."""

    deck: Sequence[str]
    seat: int
    hand: Sequence[str]
    hand_counts: Sequence[int]
    set_aside: int
    shown: Sequence[Sequence[tuple[int, str]]]  # every trick seen this round, the one in progress too
    face_down: int  # completed tricks of the round not shown
    hidden_wins: Sequence[int]  # per seat, how many of those it won


def deal_trick_round(table: TrickTable, suit: Callable[[str], str], rng: SeededRandom) -> TrickDeal:
    """The unseen cards of a trick round dealt over the other hands (none of a suit its seat showed
    it lacks), the set-aside cards and the face-down tricks (one card of each seat in each)."""
    seen = [card for plays in table.shown for _, card in plays]
    cards = unseen(table.deck, table.hand, seen)
    lacking = voids(table.shown, suit)
    seats = range(len(table.hand_counts))
    places = [
        Place(("hand", s), table.hand_counts[s], frozenset(lacking.get(s, ())))
        for s in seats
        if s != table.seat
    ]
    places += [Place(("played", s), table.face_down) for s in seats]
    places.append(Place("set_aside", table.set_aside))
    dealt = deal_hidden(cards, places, suit, rng)
    hands = tuple(tuple(table.hand) if s == table.seat else tuple(dealt[("hand", s)]) for s in seats)
    # The seat's own cards in face-down tricks are among the unseen too: its view no longer shows them.
    played = [dealt[("played", s)] for s in seats]
    winners = [s for s in seats for _ in range(table.hidden_wins[s])]
    if len(winners) != table.face_down or min(table.hidden_wins, default=0) < 0:
        raise Inconsistent("the tricks won do not add up to the tricks played")
    return TrickDeal(
        hands=hands,
        set_aside=tuple(dealt["set_aside"]),
        face_down=tuple(tuple(played[s][i] for s in seats) for i in range(table.face_down)),
        winners=tuple(rng.shuffled(winners)),
    )
