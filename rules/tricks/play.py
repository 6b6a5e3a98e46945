"""Trick-taking shared by Duālis and Double Side Play: a play and a completed trick, following,
the trick winner, seat order and which completed tricks a page may show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

Card = TypeVar("Card")


@dataclass(frozen=True)
class Play:
    """One card laid in a trick, by a seat (with any game-specific detail in `extra`)."""

    seat: int
    card: str
    extra: tuple[tuple[str, object], ...] = ()


P = TypeVar("P", bound=Play)


@dataclass(frozen=True)
class CompletedTrick(Generic[P]):
    """A trick once settled: its plays in order (each game's own kind of play), and the winner."""

    number: int
    plays: tuple[P, ...]
    winner: int


def next_seat(seat: int, seats: int) -> int:
    """The seat clockwise after `seat`."""
    return (seat + 1) % seats


def seat_order(leader: int, seats: int) -> list[int]:
    """Every seat in playing order, starting with the leader."""
    return [(leader + i) % seats for i in range(seats)]


def playable(hand: Sequence[Card], led: object | None, group: Callable[[Card], object]) -> list[Card]:
    """The cards of a hand that may be played: those of the led group (suit or colour) if the hand
    holds any, else every card. `led` is None for the lead itself."""
    if led is None:
        return list(hand)
    following = [card for card in hand if group(card) == led]
    return following or list(hand)


def winning_index(cards: Sequence[Card], rank: Callable[[Card], tuple[int, int]]) -> int:
    """The position of the winning card: the one of highest rank (its tier first, e.g. of the trump
    colour, then of the led suit, then any other, which never takes the trick; then its strength);
    of equal ranks, the one played later."""
    return max(range(len(cards)), key=lambda i: (rank(cards[i]), i))


T = TypeVar("T", bound=CompletedTrick[Any])


def shown_tricks(completed: Sequence[T], open_history: bool, game_over: bool) -> Sequence[T]:
    """The completed tricks of this round a page may show: all of them with the table option
    `open_history` or once the game is over, otherwise only the last one (RULINGS.md §1)."""
    if open_history or game_over:
        return completed
    return completed[-1:]
