"""The Red and Black Duel seat-keeper (RULINGS.md §4).

A round is a race: the first colour to show 3 winning cards takes the pot for its camp, whoever won
those plays. So a card is judged by the chance that the winning card of its comparison is of *our*
camp's colour, against the opponent's card: mostly any card the seat has not seen, sometimes their
strongest card of their own colour (the game's own `stronger` compares them), and the rest of the
hand by the chance to win the race from there.

* Camp card: the card whose camp (decided by `rules.red_black.camp_colours` against every card the
  opponent might show) leaves the best chance to win the round with the other five.
* Play: the card with the best chance to win the round, this comparison and the race after it.
* Fold: only when behind in chips, and only when playing on is worth less than giving up the pot:
  with q the chance to win the round, L the comparisons still to pay for and P the pot, playing on
  changes the chip difference by (2q − 1)(P + 2L) on average and folding by −P. Never when ahead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from bots.tricks import best
from rules.red_black.cards import DECK, STRENGTH, TO_WIN, camp_colours, colour_of, stronger
from rules.shapes import Action

FOLD: Action = {"fold": True}
# How often the opponent is taken to play their strongest card of their own colour (else any card).
# More makes the keeper fold more readily: against careless players that gives away rounds it would
# win (seeded matches against random play: 0.2 lost little, 0.5 a fifth of the matches).
CAREFUL = 0.2


@dataclass(frozen=True)
class Table:
    """What the seat knows, read once from its view."""

    seat: int
    hand: tuple[str, ...]
    unseen: tuple[str, ...]  # cards the opponent may hold: not in my hand, not shown this round
    camp: str | None  # my camp colour once revealed
    counts: Mapping[str, int]  # winning cards of each colour this round
    chips: tuple[int, int]  # (mine, the opponent's)
    their_cards: int  # cards the opponent chooses from (its hand, and the card it put down, if any)
    pot: int


@dataclass(frozen=True)
class Race:
    """The chance to win the round from here and the comparisons it is expected to take."""

    chance: float
    length: float


def read_table(view: Mapping[str, Any], seat: int) -> Table:
    """The seat's knowledge as a Table."""
    hand = tuple(view["hand"])
    seen = set(hand) | {c for c in view["camp_cards"] if c}
    for play in view["plays"]:
        seen |= set(play["cards"])
    chips = view["chips"]
    camp = view["camps"][seat]
    return Table(
        seat=seat,
        hand=hand,
        unseen=tuple(c for c in DECK if c not in seen),
        camp=camp,
        counts=dict(view["counts"]),
        chips=(chips[seat], chips[1 - seat]),
        their_cards=view["hand_counts"][1 - seat] + (1 if view["placed"][1 - seat] else 0),
        pot=view["pot"],
    )


def choose(view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
    """The camp card, the card to play, or a fold when behind and the round is as good as lost."""
    table = read_table(view, seat)
    cards = [action for action in legal if "card" in action]
    if table.camp is None:
        return best(cards, lambda action: camp_value(table, action["card"]))
    options = {action["card"]: play_value(table, action["card"]) for action in cards}
    card = max(options, key=lambda c: (options[c], -STRENGTH[c]))  # equal: keep the stronger card
    chosen = next(action for action in cards if action["card"] == card)
    if FOLD in legal and should_fold(table, race(table, table.hand)):
        return next(action for action in legal if action == FOLD)
    return chosen


# --------------------------------------------------------------------------------- the race


def colour_chance(card: str, camp: str, unseen: Sequence[str], their_cards: int) -> float:
    """The chance that the winning card of a comparison where I play `card` is of my camp's colour.
    The opponent's card is mostly any unseen card (a careless player), sometimes (CAREFUL) their
    strongest card of their own colour (a careful one, holding `their_cards` of the unseen cards)."""
    return _colour_chance(card, camp, tuple(unseen), their_cards)


@lru_cache(maxsize=8192)
def _colour_chance(card: str, camp: str, unseen: tuple[str, ...], their_cards: int) -> float:
    """colour_chance, cached (the unseen cards change only as cards are shown)."""
    if not unseen:
        return 1.0 if colour_of(card) == camp else 0.0
    careless = sum(1 for other in unseen if colour_of(stronger(card, other)) == camp) / len(unseen)
    if colour_of(card) != camp:
        return (1.0 - CAREFUL) * careless  # a careful opponent's card or mine: their colour wins
    beaters = sum(1 for other in unseen if colour_of(other) != camp and stronger(card, other) == other)
    none_held = 1.0
    for i in range(min(their_cards, len(unseen))):
        none_held *= max(0.0, (len(unseen) - beaters - i) / (len(unseen) - i))
    return (1.0 - CAREFUL) * careless + CAREFUL * none_held


def race_from(chances: Sequence[float], need: int, allow: int) -> Race:
    """The chance to score `need` more winning cards of our colour before the other colour scores
    `allow` more, playing cards with these chances in this order, and the comparisons it takes."""

    @cache
    def step(i: int, ours: int, theirs: int) -> tuple[float, float]:
        if ours <= 0:
            return 1.0, 0.0
        if theirs <= 0 or i >= len(chances):
            return 0.0, 0.0
        p = chances[i]
        win_a, len_a = step(i + 1, ours - 1, theirs)
        win_b, len_b = step(i + 1, ours, theirs - 1)
        return p * win_a + (1 - p) * win_b, 1 + p * len_a + (1 - p) * len_b

    chance, length = step(0, need, allow)
    return Race(chance, length)


def race(table: Table, hand: Sequence[str], counts: Mapping[str, int] | None = None) -> Race:
    """The race from these counts with this hand, the best cards played first."""
    assert table.camp is not None
    counts = table.counts if counts is None else counts
    other = "black" if table.camp == "red" else "red"
    chances = sorted(
        (colour_chance(c, table.camp, table.unseen, table.their_cards) for c in hand), reverse=True
    )
    return race_from(chances, TO_WIN - counts[table.camp], TO_WIN - counts[other])


def play_value(table: Table, card: str) -> float:
    """The chance to win the round if I play `card` now: this comparison, then the race after it."""
    assert table.camp is not None
    p = colour_chance(card, table.camp, table.unseen, table.their_cards)
    rest = [c for c in table.hand if c != card]
    other = "black" if table.camp == "red" else "red"
    won = dict(table.counts)
    won[table.camp] += 1
    lost = dict(table.counts)
    lost[other] += 1
    return p * race(table, rest, won).chance + (1 - p) * race(table, rest, lost).chance


# --------------------------------------------------------------------------------- camp and fold


def camp_value(table: Table, card: str) -> float:
    """The chance to win the round with the other cards, over every camp card the opponent may
    show: the game's camp_colours says which camp each pairing gives me."""
    rest = tuple(c for c in table.hand if c != card)
    by_camp = {
        camp: race(
            Table(table.seat, rest, table.unseen, camp, {"red": 0, "black": 0}, table.chips, 0, 6), rest
        )
        for camp in ("red", "black")
    }
    total = 0.0
    for other in table.unseen:
        pair = (card, other) if table.seat == 0 else (other, card)
        total += by_camp[camp_colours(pair)[table.seat]].chance
    return total / len(table.unseen) if table.unseen else 0.0


def should_fold(table: Table, outlook: Race) -> bool:
    """Fold only when behind in chips and folding loses less on average than playing on."""
    mine, theirs = table.chips
    if mine >= theirs:
        return False
    play_on = (2 * outlook.chance - 1) * (table.pot + 2 * outlook.length)
    return play_on < -table.pot
