"""The Double Side Play seat-keeper's trick play and trump choice, in positions fixed with
options["deck"] (blocks of 12 in seat order) and options["dice"] (seat 0 leads with the lowest sum;
seat 3, the keeper, plays last)."""

from __future__ import annotations

from rules.double_side.cards import DECK
from tests.bots.table import Table

LEADER_DICE = [[1, 2], [3, 5], [2, 6]]


def cards(colour: str, low: int, high: int) -> list[str]:
    """The cards of one colour with black numbers low..high."""
    return [f"{colour}{n}" for n in range(low, high + 1)]


def first_trick(
    hands: list[list[str]], keeper_dice: list[int], plays: list[str], trump: bool = False
) -> Table:
    """Four hands (seat 3 the keeper), seat 0 leading; seats 0-2 play `plays` in order."""
    listed = [card for hand in hands for card in hand]
    assert len(listed) == len(set(listed)) == len(DECK)
    table = Table.start(
        "double_side", 1, 4, {"deck": listed, "dice": [[*LEADER_DICE, keeper_dice]], "trump": trump}
    )
    for seat, card in enumerate(plays):
        table.do(seat, {"card": card})
    assert table.waiting == [3]
    return table


def test_double_side_wins_with_the_cheapest_winning_card_when_it_needs_tricks() -> None:
    """Dice 6 and 5 and a middling hand that needs every trick it can get: of the Reds that beat R5
    (R8, R9, R12) it spends R8, the weakest on both sides (black 8 / white 2)."""
    keeper = ["R2", "R8", "R9", "R12", "B5", "G5", "Y5", "B6", "G6", "Y6", "B7", "G7"]
    others = [
        ["R3", *cards("B", 1, 4), *cards("B", 8, 12), "R4", "R6"],
        ["R5", *cards("G", 1, 4), *cards("G", 8, 12), "R7", "R10"],
        ["R1", *cards("Y", 1, 4), *cards("Y", 7, 12), "R11"],
    ]
    table = first_trick([*others, keeper], [6, 5], ["R3", "R5", "R1"])
    assert table.keeper(3) == {"card": "R8"}


def test_double_side_follows_low_when_it_cannot_win() -> None:
    """R12 is on the table, no Red can beat it: the keeper follows with R2, its lowest Red, and keeps
    R11 (strong on the black side) and R3 (stronger later, white 9)."""
    keeper = ["R2", "R3", "R11", "B12", "G12", "Y12", "B11", "G11", "Y11", "B10", "G10", "Y10"]
    others = [
        ["R4", *cards("B", 1, 9), "R5", "R6"],
        ["R12", *cards("G", 1, 9), "R7", "R8"],
        ["R1", *cards("Y", 1, 9), "R9", "R10"],
    ]
    table = first_trick([*others, keeper], [5, 4], ["R4", "R12", "R1"])
    assert table.keeper(3) == {"card": "R2"}


WEAK_KEEPER = ["R2", "R8", *cards("B", 1, 5), *cards("G", 1, 5)]
WEAK_OTHERS = [
    ["R3", *cards("B", 6, 12), *cards("Y", 1, 4)],
    ["R5", *cards("G", 6, 12), *cards("Y", 5, 8)],
    ["R1", "R4", "R6", "R7", "R9", "R10", "R11", "R12", *cards("Y", 9, 12)],
]


def test_double_side_ducks_when_its_target_is_no_tricks() -> None:
    """A weak hand and dice 6 and 3 (a 6 also counts as 0): the keeper plays R2, which loses, rather
    than R8, which would win a trick it does not want."""
    table = first_trick([*WEAK_OTHERS, WEAK_KEEPER], [6, 3], ["R3", "R5", "R1"])
    assert table.keeper(3) == {"card": "R2"}


def test_double_side_takes_the_trick_when_it_needs_some() -> None:
    """The same cards with dice 4 and 3 (no zero): a weak hand must take its tricks where it can, so
    the keeper wins with R8."""
    table = first_trick([*WEAK_OTHERS, WEAK_KEEPER], [4, 3], ["R3", "R5", "R1"])
    assert table.keeper(3) == {"card": "R8"}


def test_double_side_names_the_colour_it_is_long_and_strong_in_as_trump() -> None:
    """Trump option: the keeper rolled the highest sum and holds G5-G12; it names Green."""
    keeper = [*cards("G", 5, 12), "R1", "B1", "Y1", "R2"]
    others = [
        [*cards("R", 3, 12), "B2", "B3"],
        [*cards("B", 4, 12), "Y2", "Y3", "Y4"],
        [*cards("Y", 5, 12), *cards("G", 1, 4)],
    ]
    listed = [card for hand in [*others, keeper] for card in hand]
    table = Table.start(
        "double_side", 1, 4, {"deck": listed, "dice": [[[1, 2], [3, 1], [2, 1], [5, 4]]], "trump": True}
    )
    assert table.waiting == [3]
    assert table.keeper(3) == {"trump": "G"}
