"""Dupli's cards: the policy cards, their counts, strengths and effects, which pairs may be set,
and the cards in words (no state)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rules.messages import N_, Message, word
from rules.shapes import Choice, Record, Several, Shape

NAME = "dupli"
CARD_COUNTS: dict[str, int] = {
    "drill": 10,
    "tyranny": 9,
    "benevolence": 9,
    "charge": 2,
    "patriotism": 4,
    "subversion": 2,
}
CARD_ORDER: tuple[str, ...] = tuple(CARD_COUNTS)  # the rulebook's order, used to sort a hand
FULL_DECK: tuple[str, ...] = tuple(name for name, count in CARD_COUNTS.items() for _ in range(count))
HAND_SIZE = 9
WARS = 4
SET_SIZE = 2  # cards each player sets per war
AGGRESSIVE = frozenset({"tyranny", "charge"})  # the cards Benevolence aims at and Subversion punishes
MAX_SEATS = 4
# The plays chosen ahead: the answer to a Charge (keeping the set cards) and the standing answer to a
# Benevolence aimed at the seat (spending a Patriotism or not).
CHARGE_ANSWER = "charge"
PATRIOTISM_ANSWER = "patriotism"
SITUATION_NAMES = {
    CHARGE_ANSWER: N_("if a Charge is set: keep my cards"),
    PATRIOTISM_ANSWER: N_("if a Benevolence is aimed at my card"),
}
TARGET = N_('A target is {"seat": N, "slot": 0 or 1}, or null to pass.')
ACTION_SHAPES = (
    Shape(
        {
            "set": Several(
                Choice(CARD_ORDER, N_("%(value)s is not a Dupli card.")),
                SET_SIZE,
                N_("Set exactly two cards, as a list of two card names."),
            )
        }
    ),
    Shape(
        {
            "target": Record(
                {"seat": Choice(tuple(range(MAX_SEATS)), TARGET), "slot": Choice((0, 1), TARGET)},
                TARGET,
                nullable=True,
            )
        }
    ),
    Shape({"cancel": Choice((True, False), N_('Answer with {"cancel": true} or {"cancel": false}.'))}),
)
BASE_STRENGTH: dict[str, int] = {
    "drill": 1,
    "tyranny": 2,
    "benevolence": 1,
    "charge": 3,
    "patriotism": 0,
    "subversion": -1,
}
EFFECTS: dict[str, str] = {
    "drill": N_("Strength 1. Goes with any card."),
    "tyranny": N_("Strength 2; a Benevolence may zero it. Never with Benevolence."),
    "benevolence": N_(
        "Strength 1 only if another player set a Tyranny or Charge; may zero one of them. "
        "Never with Tyranny or Charge."
    ),
    "charge": N_(
        "Strength 3; turned face up before the reveal and the others may swap. Never with Benevolence."
    ),
    "patriotism": N_(
        "Goes straight to your VP; later spend it from your VP to cancel a Benevolence aimed at you."
    ),
    "subversion": N_(
        "Strength −1; eliminates everyone who set a Tyranny or Charge (you too) and voids every Benevolence."
    ),
}
CARD_NAMES: dict[str, str] = {
    "drill": N_("Drill"),
    "tyranny": N_("Tyranny"),
    "benevolence": N_("Benevolence"),
    "charge": N_("Charge"),
    "patriotism": N_("Patriotism"),
    "subversion": N_("Subversion"),
}
ANSWER_EFFECTS: dict[bool, str] = {
    True: N_("Spend a Patriotism (VP −1): your card keeps its strength and that Benevolence is worth 0."),
    False: N_("Keep your Patriotism: your card is zeroed."),
}
_RANK = {name: i for i, name in enumerate(CARD_ORDER)}

Slot = tuple[int, int]  # (seat, position 0/1 in that seat's sorted pair)


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards in the rulebook's order (drill, tyranny, benevolence, charge, patriotism, subversion)."""
    return tuple(sorted(cards, key=_RANK.__getitem__))


def forbidden(a: str, b: str) -> bool:
    """Whether a pair breaks the set rule: Tyranny or Charge together with Benevolence."""
    return (a in AGGRESSIVE and b == "benevolence") or (b in AGGRESSIVE and a == "benevolence")


def legal_pairs(cards: Iterable[str]) -> list[tuple[str, str]]:
    """Every sorted pair that may be set from these cards, each once."""
    counts = Counter(cards)
    kinds = sorted(counts)
    return [
        (a, b)
        for i, a in enumerate(kinds)
        for b in kinds[i:]
        if (a != b or counts[a] >= 2) and not forbidden(a, b)
    ]


def without(cards: Sequence[str], taken: Iterable[str]) -> tuple[str, ...]:
    """The cards with one copy of each taken card removed."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def card_name(card: str) -> Message:
    """A policy card for people, by the rulebook's name: "Benevolence"."""
    return word(CARD_NAMES[card])


def pair_name(pair: Sequence[str]) -> Message:
    """Two set cards for people: "Drill + Tyranny"."""
    first, second = pair
    return N_("%(first)s + %(second)s"), {"first": card_name(first), "second": card_name(second)}


def joined_names(seats: Iterable[int], names: Sequence[str]) -> str:
    """Seat names joined for a describe line."""
    return ", ".join(names[s] for s in seats)
