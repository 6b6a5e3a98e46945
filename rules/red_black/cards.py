"""Red and Black Duel's cards: the deck, which card is stronger, the camps' colours, when chips end
the game, and the cards in words (no state)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.messages import N_, Message, word
from rules.shapes import Action, Choice, Shape

NAME = "red_black"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # weakest first
SUITS = ("C", "D", "H", "S")  # weakest first: ♣ < ♦ < ♥ < ♠
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
STRENGTH: dict[str, int] = {card: i for i, card in enumerate(DECK)}
COLOUR: dict[str, str] = {"C": "black", "S": "black", "D": "red", "H": "red"}
OTHER_COLOUR = {"red": "black", "black": "red"}
RANK_NAMES: dict[str, str] = {"A": N_("Ace"), "K": N_("King"), "Q": N_("Queen"), "J": N_("Jack")}
SUIT_NAMES: dict[str, str] = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}

SEATS = (0, 1)
HAND_SIZE = 6
START_CHIPS = 15
POT = 3  # chips the bank puts in the pot each round
FEE = 1  # chips paid into the pot with every played card (not the camp card)
TO_WIN = 3  # winning cards of one colour that end a round
BANKRUPT = 4  # at most this many chips at the start of a round ends the game
TARGET = 30  # at least this many chips at the start of a round ends the game

FOLD: Action = {"fold": True}
# The one situation a play is chosen ahead for: the seat's next face-down card of this round ("card:3");
# a new round deals a new hand, so a play chosen in an earlier round no longer answers.
NEXT_CARD = "card"
ACTION_SHAPES = (
    Shape({"card": Choice(DECK, N_("%(value)s is not a card: cards are written like AS, 10H, 7D or 2C."))}),
    Shape({"fold": Choice((True,), N_('To fold, send {"fold": true}.'))}),
)


def colour_of(card: str) -> str:
    """The card's colour: "red" for ♥♦, "black" for ♠♣."""
    return COLOUR[card[-1]]


def stronger(a: str, b: str) -> str:
    """The stronger of two different cards: higher rank, or on equal rank the higher suit."""
    return a if STRENGTH[a] > STRENGTH[b] else b


def why_stronger(a: str, b: str) -> str:
    """Why one card beats the other: "rank", or "suit" when the ranks are equal."""
    return "suit" if a[:-1] == b[:-1] else "rank"


def by_strength(cards: Sequence[str]) -> list[str]:
    """The cards strongest first (the order a hand is shown in)."""
    return sorted(cards, key=STRENGTH.__getitem__, reverse=True)


def camp_colours(cards: Sequence[str]) -> tuple[str, str]:
    """Each seat's camp from the two camp cards (seat order)."""
    first, second = colour_of(cards[0]), colour_of(cards[1])
    if first != second:
        return first, second
    if stronger(cards[0], cards[1]) == cards[0]:
        return first, OTHER_COLOUR[first]
    return OTHER_COLOUR[second], second


def game_end(chips: Sequence[int]) -> dict[str, Any] | None:
    """The game's outcome if it ends at the start of a round with these chips, else None."""
    bankrupt = [s for s in SEATS if chips[s] <= BANKRUPT]
    reached = [s for s in SEATS if chips[s] >= TARGET]
    if not bankrupt and not reached:
        return None
    best = max(chips)
    winners = [s for s in SEATS if chips[s] == best]
    return {
        "winners": winners,
        "draw": len(winners) > 1,
        "chips": list(chips),
        "bankrupt": bankrupt,
        "reached_30": reached,
    }


def card_name(card: str) -> Message:
    """A card for people: "Ace of spades", "10 of hearts"."""
    rank, suit = card[:-1], card[-1]
    return N_("%(rank)s of %(suit)s"), {
        "rank": word(RANK_NAMES[rank]) if rank in RANK_NAMES else rank,
        "suit": word(SUIT_NAMES[suit]),
    }
