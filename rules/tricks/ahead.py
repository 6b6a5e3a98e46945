"""Plays chosen ahead in the trick games: the situations of a seat's coming card (leading, or
following a suit or colour, in this trick or the one after) and the checks of a card chosen for one."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from rules.ahead import THEN
from rules.messages import N_, Message, word
from rules.tricks.play import Play

Card = TypeVar("Card")

LEAD = "lead"  # the seat leads the trick
LED = "led:"  # followed by the led group (suit or colour): the seat follows it
# Tricks of a round are numbered apart from the next round's by this much in a play's number.
ROUND_SPAN = 100


def coming_card_situations(
    seat: int,
    trick: Sequence[Play],
    leader: int | None,
    groups: Sequence[str],
    led: str | None,
    then: bool,
) -> tuple[str, ...]:
    """The situations of a seat's coming card while it owes none: in the trick in progress if it has
    yet to play in it (the led group once led; before the lead, leading if it is the leader, else any
    group), otherwise in the next trick, which it may lead or follow. With `then`, also every
    situation of its card in the trick after that one (anyone may lead it)."""
    following = tuple(LED + group for group in groups)
    if any(play.seat == seat for play in trick):
        coming: tuple[str, ...] = (LEAD, *following)
    elif led is not None:
        coming = (LED + led,)
    else:
        coming = (LEAD,) if leader == seat else following
    if not then:
        return coming
    return (*coming, THEN + LEAD, *(THEN + situation for situation in following))


def coming_trick(seat: int, trick: Sequence[Play], completed: int) -> int:
    """The number in its round of the trick the seat's coming card goes to."""
    return completed + 1 + any(play.seat == seat for play in trick)


def coming_card_number(round_: int, seat: int, trick: Sequence[Play], completed: int) -> int:
    """The number of the seat's coming card through the game (its round's and trick's)."""
    return round_ * ROUND_SPAN + coming_trick(seat, trick, completed)


def situation_words(situation: str, names: Mapping[str, str]) -> Message:
    """A situation of a coming card in words; one of the trick after that names the trick."""
    if situation.startswith(THEN):
        coming = word(names[situation.removeprefix(THEN)])
        return N_("in the trick after, %(situation)s"), {"situation": coming}
    return word(names[situation])


def owed_card_situation(led: str | None) -> str:
    """The situation of the card a seat owes now: leading, or following the led group."""
    return LEAD if led is None else LED + led


def unfollowed(
    hand: Sequence[Card], card: Card, situation: str, group: Callable[[Card], object]
) -> str | None:
    """The led group a card chosen ahead for `situation` fails to follow however the hand stands
    when it is due, None when it may be played. The hand is the same when the coming card is due;
    before the trick after, the coming card leaves it, which may be its last card of that group."""
    led_situation = situation.removeprefix(THEN)
    if not led_situation.startswith(LED):
        return None
    led = led_situation.removeprefix(LED)
    others = sum(1 for other in hand if other != card and group(other) == led)
    if group(card) != led and others >= (2 if situation.startswith(THEN) else 1):
        return led
    return None
