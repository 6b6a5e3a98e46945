"""Double Side Play's cards and dice: the deck with its two numbers per card, the cards in words,
the dice's targets, who leads and who names trump, and who wins a trick (no state)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.messages import N_, Message, word
from rules.rng import SeededRandom
from rules.shapes import Choice, Shape
from rules.tricks.ahead import LEAD, LED
from rules.tricks.play import winning_index

NAME = "double_side"
COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
COLOUR_NAMES: dict[str, str] = {"R": N_("Red"), "B": N_("Blue"), "G": N_("Green"), "Y": N_("Yellow")}
SITUATION_NAMES: dict[str, str] = {
    LEAD: N_("if I lead"),
    LED + "R": N_("if Red is led"),
    LED + "B": N_("if Blue is led"),
    LED + "G": N_("if Green is led"),
    LED + "Y": N_("if Yellow is led"),
}
DECK: tuple[str, ...] = tuple(f"{colour}{black}" for colour in COLOURS for black in range(1, 13))
ACTION_SHAPES = (
    Shape(
        {
            "card": Choice(
                DECK,
                N_("There is no card %(value)s: a card is a colour R, B, G or Y and a number 1-12, e.g. G3."),
            )
        }
    ),
    Shape({"trump": Choice(COLOURS, N_("Name one of the four colours as trump: R, B, G or Y."))}),
)
HAND_SIZE = 12
TRICKS_PER_ROUND = 12
TURN_OVER_AFTER = 6  # hands are turned over once this many tricks of the round are done
POINTS_TO_WIN = 2
BLACK, WHITE = "black", "white"
Dice = tuple[int, int]


def colour(card: str) -> str:
    """The card's colour code, e.g. "G" for G3."""
    return card[0]


def black(card: str) -> int:
    """The card's black number (the astronaut side), the one its code names."""
    return int(card[1:])


def white_of(black_number: int) -> int:
    """The white number printed with a black number: +6 for 1-6, -6 for 7-12 (RULINGS.md §2)."""
    return black_number + 6 if black_number <= 6 else black_number - 6


# Looked up on every play and every comparison, so computed once.
_NUMBER: dict[tuple[str, str], int] = {
    (card, side): black(card) if side == BLACK else white_of(black(card))
    for card in DECK
    for side in (BLACK, WHITE)
}


def number(card: str, side: str) -> int:
    """The card's number on the side in force ("black" or "white")."""
    return _NUMBER[(card, side)]


# Why a card of another colour may not be played, as a page gives the reason.
MUST_FOLLOW_COLOUR = N_("You must follow the colour led while you hold a card of it.")


def side_of_trick(trick_number: int) -> str:
    """Which side decides a trick: black for tricks 1-6 of a round, white for 7-12."""
    return BLACK if trick_number <= TURN_OVER_AFTER else WHITE


def sort_key(side: str) -> Callable[[str], tuple[int, int]]:
    """Hand order: by colour (R, B, G, Y), then by the number on the side in force."""
    return lambda card: (COLOURS.index(colour(card)), number(card, side))


def card_info(card: str, side: str) -> dict[str, Any]:
    """A card as a page shows it: code, colour, both numbers and the number in force."""
    return {
        "card": card,
        "colour": colour(card),
        "black": black(card),
        "white": white_of(black(card)),
        "number": number(card, side),
    }


def card_name(card: str, side: str) -> Message:
    """A card for people by the face in force on `side`: "Green 3" (black), "Yellow 8 (white side)"
    once the hands are turned over (Y2 shows 8 then)."""
    params = {"colour": word(COLOUR_NAMES[colour(card)]), "number": number(card, side)}
    if side == BLACK:
        return N_("%(colour)s %(number)s"), params
    return N_("%(colour)s %(number)s (white side)"), params


def roll_dice(rng: SeededRandom) -> list[list[int]]:
    """One player's roll: both dice, rolled again while they show a double; every roll in order,
    the last one (which differs) is kept."""
    rolls = []
    while True:
        pair = [rng.die(), rng.die()]
        rolls.append(pair)
        if pair[0] != pair[1]:
            return rolls


ZERO_DIE = 6  # a die showing this also counts as 0 tricks


def targets(dice: Sequence[int]) -> list[int]:
    """The trick counts that score with these dice: each die, and 0 as well for a 6."""
    out = []
    for die in dice:
        out += [die, 0] if die == ZERO_DIE else [die]
    return out


def _tie_break(keys: Sequence[tuple[int, int]], seed: int, *label: object) -> tuple[int, str]:
    """The seat with the smallest key (sum key, single-die key) and what decided it: "sum", "die",
    or "draw" (the rulebook's rock-paper-scissors, drawn from the seed under `label`)."""
    best = min(key[0] for key in keys)
    tied = [seat for seat, key in enumerate(keys) if key[0] == best]
    if len(tied) == 1:
        return tied[0], "sum"
    best = min(keys[seat][1] for seat in tied)
    tied = [seat for seat in tied if keys[seat][1] == best]
    if len(tied) == 1:
        return tied[0], "die"
    return SeededRandom(seed, *label).choice(tied), "draw"


def first_leader(dice: Sequence[Sequence[int]], seed: int, round_no: int) -> tuple[int, str]:
    """The round's first leader: lowest dice sum, then lowest single die, then a seeded draw."""
    return _tie_break([(a + b, min(a, b)) for a, b in dice], seed, "leader", round_no)


def trump_chooser(dice: Sequence[Sequence[int]], seed: int, round_no: int) -> tuple[int, str]:
    """Who names trump: highest dice sum, then highest single die, then a seeded draw."""
    return _tie_break([(-(a + b), -max(a, b)) for a, b in dice], seed, "trump chooser", round_no)


def trick_rank(led: str, side: str, trump: str | None) -> Callable[[str], tuple[int, int]]:
    """How strongly a card stands in a trick whose lead was of colour `led`: the trump colour above
    the led colour above any other (which never takes the trick), then its number on the side in
    force (numbers are unique per colour)."""

    def rank(card: str) -> tuple[int, int]:
        tier = 2 if colour(card) == trump else 1 if colour(card) == led else 0
        return tier, number(card, side)

    return rank


def trick_winner(cards: Sequence[str], side: str, trump: str | None) -> int:
    """The position of the winning card: the highest trump if one was played, else the highest card
    of the led colour."""
    return winning_index(cards, trick_rank(colour(cards[0]), side, trump))
