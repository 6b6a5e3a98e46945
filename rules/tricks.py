"""Trick-taking shared by Duālis and Double Side Play: following, the trick winner, seat order,
which earlier tricks a page may show, and how a replay keeps collected tricks face down."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.base import N_, THEN, Event, Heading, Message, word

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


def winning_index(
    cards: Sequence[Card],
    tiers: Sequence[Callable[[Card], bool]],
    strength: Callable[[Card], int],
) -> int:
    """The position of the winning card. The first tier any card belongs to decides (e.g. "of the
    trump colour", then "of the led suit"); within it the strongest wins, and of equal strength the
    one played later."""
    for in_tier in tiers:
        candidates = [i for i, card in enumerate(cards) if in_tier(card)]
        if candidates:
            return max(candidates, key=lambda i: (strength(cards[i]), i))
    raise ValueError("no card belongs to any tier: the led card must be in the last tier")


T = TypeVar("T", bound=CompletedTrick[Any])


def shown_tricks(completed: Sequence[T], open_history: bool, game_over: bool) -> Sequence[T]:
    """The completed tricks of this round a page may show: all of them with the table option
    `open_history` or once the game is over, otherwise only the last one (RULINGS.md §1)."""
    if open_history or game_over:
        return completed
    return completed[-1:]


@dataclass(frozen=True)
class TrickWindow:
    """The tricks a page may show at one moment: every trick (open history, or the game is over), or
    only the listed trick numbers of one round (the trick on the table and the last one completed)."""

    everything: bool
    round: int = 0
    numbers: frozenset[int] = frozenset()
    before: tuple[int, int] | None = None  # (round, trick): the last trick of the round before

    def shows(self, round_: int, number: int) -> bool:
        """Whether the cards of trick `number` of round `round_` may be shown."""
        return (
            self.everything
            or (round_ == self.round and number in self.numbers)
            or self.before == (round_, number)
        )


def trick_window(
    round_: int,
    completed: Sequence[CompletedTrick[Any]],
    on_table: int | None,
    open_history: bool,
    game_over: bool,
    before: tuple[int, int] | None = None,
) -> TrickWindow:
    """What a page may show now (RULINGS.md §1): the trick on the table (number `on_table`, None if
    no card of it is down), the completed tricks `shown_tricks` allows and, until a trick of a new
    round is won, `before`: (round, trick) of the last trick of the round before. A replay seen now
    must not show, at an earlier step, a trick that is face down now."""
    if open_history or game_over:
        return TrickWindow(True)
    numbers = {trick.number for trick in shown_tricks(completed, open_history, game_over)}
    if on_table is not None:
        numbers.add(on_table)
    return TrickWindow(False, round_, frozenset(numbers), before)


def face_down_play(play: dict[str, Any]) -> dict[str, Any]:
    """A play of a face-down trick as a replay shows it: who played, not what."""
    return {"seat": play["seat"], "card": None}


def face_down_line(event: Event, window: TrickWindow, name: Callable[[int], str]) -> Message | None:
    """The replay line of a card play or trick win whose trick is face down now (who, not which
    card); None for any other event and for a trick the window shows."""
    kind = event.get("type")
    if kind not in ("CardPlayed", "TrickWon") or window.shows(event["round"], event["trick"]):
        return None
    if kind == "CardPlayed":
        return N_("%(player)s played a card (face down now: a collected trick)."), {
            "player": name(event["seat"])
        }
    return N_("%(player)s won trick %(trick)s (its cards lie face down now)."), {
        "player": name(event["winner"]),
        "trick": event["trick"],
    }


def trick_heading(event: Event, round_: int) -> Heading:
    """A trick game's replay heading: the round, and the trick for a card play or trick win."""
    title: Message = (N_("Round %(round)s"), {"round": round_})
    if event.get("type") in ("CardPlayed", "TrickWon"):
        return Heading(round_, title, event["trick"], (N_("Trick %(trick)s"), {"trick": event["trick"]}))
    return Heading(round_, title)


# --- plays chosen ahead: the situations of a seat's coming card ------------------------------------

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
    led = situation.removeprefix(LED)
    if group(card) != led and any(group(other) == led for other in hand):
        return led
    return None
