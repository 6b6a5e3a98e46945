"""The seat-keeper decides from the seat's view alone: two games whose decks differ only in cards that
seat cannot see (another hand, the cards set aside or left in the pile) give it the same view and the
same move."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from rules.double_side.cards import DECK as DOUBLE_SIDE_DECK
from rules.dualis.cards import CARDS as DUALIS_DECK
from rules.dupli.cards import FULL_DECK as DUPLI_DECK
from rules.red_black.cards import DECK as RED_BLACK_DECK
from tests.bots.table import Table


def swapped(deck: list[str], first: range, second: range) -> list[str]:
    """The deck with two blocks of equal length exchanged."""
    assert len(first) == len(second)
    out = list(deck)
    for i, j in zip(first, second, strict=True):
        out[i], out[j] = deck[j], deck[i]
    return out


def twins(
    name: str, seats: int, deck: list[str], hidden: tuple[range, range], options: dict[str, Any]
) -> tuple[Table, Table]:
    """Two games alike but for two blocks of the deck the tested seat never sees."""
    one = Table.start(name, 5, seats, {**options, "deck": deck})
    other = Table.start(name, 5, seats, {**options, "deck": swapped(deck, *hidden)})
    return one, other


def same_move_after(one: Table, other: Table, seat: int, before: int) -> None:
    """Let the keeper play `before` moves in both games (for seats whose cards are the same in
    both), then check that `seat` sees the same page and the keeper makes the same move."""
    for _ in range(before):
        mover = one.waiting[0]
        assert other.waiting == one.waiting and mover != seat
        assert one.view(mover) == other.view(mover)
        move = one.keeper(mover)
        one.do(mover, move)
        other.do(mover, move)
    assert one.waiting == other.waiting and seat in one.waiting
    assert one.state != other.state  # the hidden cards really differ
    assert one.view(seat) == other.view(seat)
    assert one.keeper(seat) == other.keeper(seat)


Case = Callable[[list[str]], None]


def dualis_lead(deck: list[str]) -> None:
    """Short Duālis, seat 0 leads: seat 2's nine cards swapped with nine set-aside ones."""
    one, other = twins("dualis", 4, deck, (range(18, 27), range(36, 45)), {"short": True, "first_leader": 0})
    same_move_after(one, other, 0, before=0)


def dualis_third_hand(deck: list[str]) -> None:
    """Short Duālis, seat 2 leads and seat 3 follows before seat 0; seat 1's hand is swapped."""
    one, other = twins("dualis", 4, deck, (range(9, 18), range(36, 45)), {"short": True, "first_leader": 2})
    same_move_after(one, other, 0, before=2)


def double_side_lead(deck: list[str]) -> None:
    """Three players, seat 0 leads (lowest dice): seat 2's hand swapped with the set-aside cards."""
    dice = [[[1, 2], [3, 4], [5, 6]]]
    one, other = twins("double_side", 3, deck, (range(24, 36), range(36, 48)), {"dice": dice})
    same_move_after(one, other, 0, before=0)


def double_side_second(deck: list[str]) -> None:
    """Three players, seat 2 leads, seat 0 plays second: seat 1's hand swapped with the set-aside."""
    dice = [[[3, 4], [5, 6], [1, 2]]]
    one, other = twins("double_side", 3, deck, (range(12, 24), range(36, 48)), {"dice": dice})
    same_move_after(one, other, 0, before=1)


def dupli_set(deck: list[str]) -> None:
    """Three players: seat 2's nine cards swapped with the nine set aside; seat 0 sets its pair."""
    one, other = twins("dupli", 3, deck, (range(18, 27), range(27, 36)), {})
    same_move_after(one, other, 0, before=0)


def red_black_camp(deck: list[str]) -> None:
    """Seat 1's six cards swapped with six from the pile; seat 0 chooses its camp card."""
    one, other = twins("red_black", 2, deck, (range(6, 12), range(20, 26)), {})
    same_move_after(one, other, 0, before=0)


CASES: list[tuple[Case, tuple[str, ...]]] = [
    (dualis_lead, DUALIS_DECK),
    (dualis_third_hand, DUALIS_DECK),
    (double_side_lead, DOUBLE_SIDE_DECK),
    (double_side_second, DOUBLE_SIDE_DECK),
    (dupli_set, DUPLI_DECK),
    (red_black_camp, RED_BLACK_DECK),
]


@pytest.mark.parametrize(("case", "cards"), CASES, ids=[case.__name__ for case, _ in CASES])
def test_hidden_cards_do_not_change_the_keeper_move(case: Case, cards: tuple[str, ...]) -> None:
    """Twenty shuffles per case."""
    rng = random.Random(case.__name__)
    for _ in range(20):
        deck = list(cards)
        rng.shuffle(deck)
        case(deck)
