"""Duālis's cards: the deck, the cards in words, and what a trick and a round come to (no state)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.messages import N_, Message, word
from rules.shapes import Choice, Shape
from rules.tricks.ahead import LEAD, LED
from rules.tricks.play import CompletedTrick, Play, winning_index

NAME = "dualis"
SUITS = ("S", "M")
COLOURS = ("R", "B")
OPPOSITE = {"R": "B", "B": "R"}
# Why a card of another suit may not be played: the refusal, and the reason a page gives for it.
MUST_FOLLOW = {"S": N_("You must follow suit: play a Star."), "M": N_("You must follow suit: play a Moon.")}
# Stars before Moons, then by number, Red before Blue: the order a hand is shown in.
CARDS: tuple[str, ...] = tuple(f"{s}{n}{c}" for s in SUITS for n in range(1, 14) for c in COLOURS)
CARD_INFO: dict[str, tuple[str, int, str]] = {card: (card[0], int(card[1:-1]), card[-1]) for card in CARDS}
SORT_KEY: dict[str, int] = {card: i for i, card in enumerate(CARDS)}
SITUATION_NAMES: dict[str, str] = {
    LEAD: N_("if I lead"),
    LED + "S": N_("if Stars are led"),
    LED + "M": N_("if Moons are led"),
}
SUIT_NAMES: dict[str, str] = {"S": N_("Star"), "M": N_("Moon")}
COLOUR_NAMES: dict[str, str] = {"R": N_("Red"), "B": N_("Blue")}
ACTION_SHAPES = (
    Shape(
        {"card": Choice(CARDS, N_("%(value)s is not a Duālis card: cards are written like S9B or M13R."))},
        {"coin": Choice((True, False), N_('"coin" must be true or false.'))},
    ),
)

HAND_SIZE, SHORT_HAND_SIZE = 13, 9
COINS, SHORT_COINS = 7, 5
WINS_NEEDED = 2  # partnership: rounds to win the game
ISO_ROUNDS, ISO_GAP = 4, 7  # Iso Play ends after 4 rounds or once two totals are 7 apart
PARTNERSHIPS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
BOOL_OPTIONS = ("short", "high_low", "iso", "open_history")


def card_name(card: str, coin_colour: str | None = None) -> Message:
    """A card for people, as its face shows it: "Star 9 Blue"; with `coin_colour` (the colour a coin
    on it turned it into) "Star 9 Blue with a coin, now Red"."""
    suit, number, printed = CARD_INFO[card]
    params: dict[str, Any] = {
        "suit": word(SUIT_NAMES[suit]),
        "number": number,
        "colour": word(COLOUR_NAMES[printed]),
    }
    if coin_colour is None:
        return N_("%(suit)s %(number)s %(colour)s"), params
    return N_("%(suit)s %(number)s %(colour)s with a coin, now %(now)s"), {
        **params,
        "now": word(COLOUR_NAMES[coin_colour]),
    }


def sort_cards(cards: Sequence[str]) -> list[str]:
    """Cards in hand order: Stars, then Moons, by number, Red before Blue."""
    return sorted(cards, key=SORT_KEY.__getitem__)


@dataclass(frozen=True)
class PlayedCard(Play):
    """A card in a trick, with whether a coin lies on it and the colour it counts as."""

    coin: bool = False
    colour: str = "R"


@dataclass(frozen=True)
class SettledTrick(CompletedTrick[PlayedCard]):
    """A finished trick with the reason it was won: the centre, trump and direction at its end."""

    card: str
    led_suit: str
    centre: tuple[int, int]
    trump: str | None
    direction: str
    reason: str


def suit_of(card: str) -> str:
    """The suit of a card code."""
    return CARD_INFO[card][0]


def colour_index(colour: str) -> int:
    """Index of a colour in (Red, Blue) pairs."""
    return 0 if colour == "R" else 1


def trump_colour(centre: tuple[int, int]) -> str | None:
    """The trump colour the centre makes: the colour with more coins left, None if equal."""
    red, blue = centre
    return "R" if red > blue else "B" if blue > red else None


def direction_of(lead: PlayedCard, high_low: bool) -> str:
    """Whether high or low numbers are strong this trick: in High-Low the lead's effective colour
    decides (Red → high, Blue → low); otherwise always high."""
    return "low" if high_low and lead.colour == "B" else "high"


def trick_rank(
    lead: PlayedCard, centre: tuple[int, int], high_low: bool
) -> Callable[[PlayedCard], tuple[int, int]]:
    """How strongly a play stands in a trick `lead` opened, were it to end with this centre: the trump
    colour above the led suit above any other card (which never takes the trick), then by number in
    the trick's direction. The play of highest rank takes the trick; of equal ranks, the later."""
    led_suit = suit_of(lead.card)
    trump = trump_colour(centre)
    sign = 1 if direction_of(lead, high_low) == "high" else -1

    def rank(play: PlayedCard) -> tuple[int, int]:
        suit, number, _ = CARD_INFO[play.card]
        tier = 2 if play.colour == trump else 1 if suit == led_suit else 0
        return tier, sign * number

    return rank


def trick_outcome(plays: Sequence[PlayedCard], centre: tuple[int, int], high_low: bool) -> SettledTrick:
    """Who wins these plays if the trick ended with this centre, and why."""
    rank = trick_rank(plays[0], centre, high_low)
    best = plays[winning_index(plays, rank)]
    trump = trump_colour(centre)
    reason = "trump" if best.colour == trump else "suit"
    led_suit, direction = suit_of(plays[0].card), direction_of(plays[0], high_low)
    return SettledTrick(0, tuple(plays), best.seat, best.card, led_suit, centre, trump, direction, reason)


def side_score(tricks: int, coins: int) -> int:
    """A side's round score: +tricks when tricks equal coins, else minus the difference."""
    return tricks if tricks == coins else -abs(tricks - coins)


def round_winners(scores: Sequence[int], tricks: Sequence[int], iso: bool) -> tuple[int, ...]:
    """The sides that win a round: the highest score; partnerships break a tie by more tricks,
    in Iso Play the tied players share it (only shown, it decides nothing)."""
    top = max(scores)
    best = [i for i, s in enumerate(scores) if s == top]
    if not iso and len(best) > 1:
        most = max(tricks[i] for i in best)
        best = [i for i in best if tricks[i] == most]
    return tuple(best)


def score_round(
    sides: Sequence[Sequence[int]], seat_tricks: Sequence[int], seat_coins: Sequence[int], iso: bool
) -> tuple[list[int], list[int], list[int], tuple[int, ...]]:
    """Tricks, coins and score per side and the round's winning sides."""
    tricks = [sum(seat_tricks[s] for s in side) for side in sides]
    coins = [sum(seat_coins[s] for s in side) for side in sides]
    scores = [side_score(t, c) for t, c in zip(tricks, coins, strict=True)]
    return tricks, coins, scores, round_winners(scores, tricks, iso)


def iso_game_over(totals: Sequence[int], rounds_played: int) -> bool:
    """Whether Iso Play ends: two totals 7 or more apart, or 4 rounds played."""
    return rounds_played >= ISO_ROUNDS or max(totals) - min(totals) >= ISO_GAP


def top_sides(totals: Sequence[int]) -> list[int]:
    """The sides with the highest total (several share the win)."""
    top = max(totals)
    return [i for i, t in enumerate(totals) if t == top]
