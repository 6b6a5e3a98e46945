"""The Dupli seat-keeper: balanced pairs, its answer to a face-up Charge, where its Benevolence aims
and when it spends a Patriotism. Hands are fixed with options["deck"] (blocks of 9 in seat order)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.dupli.cards import BASE_STRENGTH, FULL_DECK
from tests.bots.table import Table


def deck_of(*hands: list[str]) -> list[str]:
    """A full deck whose first blocks of 9 are these hands; the other cards follow."""
    rest = Counter(FULL_DECK)
    for hand in hands:
        assert len(hand) == 9
        rest -= Counter(hand)
    assert sum(len(h) for h in hands) + sum(rest.values()) == len(FULL_DECK)
    return [card for hand in hands for card in hand] + sorted(rest.elements())


def strength(pair: list[str]) -> int:
    """A pair's printed strength."""
    return sum(BASE_STRENGTH[card] for card in pair)


@pytest.mark.parametrize(
    "hand",
    [
        ["charge", "charge", "tyranny", "tyranny", "tyranny", "tyranny", "drill", "drill", "drill"],
        ["charge", "charge", "tyranny", "tyranny", "drill", "drill", "drill", "patriotism", "subversion"],
        [
            "charge",
            "tyranny",
            "tyranny",
            "tyranny",
            "drill",
            "drill",
            "benevolence",
            "benevolence",
            "patriotism",
        ],
    ],
    ids=["aggressive", "mixed", "benevolent"],
)
def test_dupli_sets_a_balanced_pair_not_its_two_strongest_cards(hand: list[str]) -> None:
    """War 1 of 4: the keeper does not spend its two strongest cards together; the pair it sets is
    no stronger than an even share of the hand's strength over the four wars (rounded up)."""
    table = Table.start("dupli", 7, 4, {"deck": deck_of(hand)})
    pair = table.keeper(0)["set"]
    strongest = sorted(hand, key=BASE_STRENGTH.__getitem__, reverse=True)[:2]
    assert sorted(pair) != sorted(strongest)
    even_share = sum(sorted((BASE_STRENGTH[c] for c in hand), reverse=True)[:8]) / 4
    assert strength(pair) <= even_share + 1


def test_dupli_answers_a_face_up_charge_with_a_counter() -> None:
    """A rival's Charge is face up: holding Subversion and Benevolence, the keeper swaps one of them
    in (Subversion eliminates the Charge, Benevolence may zero it) instead of feeding strong cards
    to a war it would lose."""
    keeper = [
        "tyranny",
        "tyranny",
        "drill",
        "drill",
        "drill",
        "benevolence",
        "benevolence",
        "patriotism",
        "subversion",
    ]
    rival = ["charge", "tyranny", "drill", "drill", "drill", "drill", "tyranny", "tyranny", "tyranny"]
    third = [
        "drill",
        "drill",
        "drill",
        "tyranny",
        "benevolence",
        "benevolence",
        "benevolence",
        "patriotism",
        "patriotism",
    ]
    table = Table.start("dupli", 3, 3, {"deck": deck_of(keeper, rival, third)})
    table.do(0, {"set": ["drill", "drill"]})
    table.do(1, {"set": ["charge", "tyranny"]})
    table.do(2, {"set": ["drill", "drill"]})
    view = table.view(0)
    assert view["phase"] == "charge" and view["charge"]["must_answer"]
    pair = table.keeper(0)["set"]
    assert "subversion" in pair or "benevolence" in pair


def reveal(sets: list[list[str]], hands: list[list[str]]) -> Table:
    """Three players set these pairs (no Charge, so the reveal follows at once)."""
    table = Table.start("dupli", 3, 3, {"deck": deck_of(*hands)})
    for seat, pair in enumerate(sets):
        table.do(seat, {"set": pair})
    return table


def test_dupli_aims_its_benevolence_at_the_card_that_costs_it_the_war() -> None:
    """Keeper Benevolence+Drill (2), seat 1 Drill+Tyranny (3), seat 2 Patriotism+Tyranny (2). Zeroing
    seat 1's Tyranny ties the keeper for the win; zeroing seat 2's would leave seat 1 the winner."""
    sets = [["benevolence", "drill"], ["drill", "tyranny"], ["patriotism", "tyranny"]]
    hands = [
        ["benevolence", "drill", "drill", "drill", "drill", "drill", "drill", "drill", "drill"],
        ["drill", "tyranny", "tyranny", "tyranny", "tyranny", "tyranny", "tyranny", "tyranny", "tyranny"],
        [
            "patriotism",
            "tyranny",
            "benevolence",
            "benevolence",
            "benevolence",
            "benevolence",
            "benevolence",
            "benevolence",
            "benevolence",
        ],
    ]
    table = reveal(sets, hands)
    view = table.view(0)
    assert view["phase"] == "aim" and table.waiting == [0]
    assert table.keeper(0) == {"target": {"seat": 1, "slot": 1}}


def patriotism_question(third_pair: list[str]) -> Table:
    """The keeper sets Patriotism+Tyranny (the Patriotism is banked at once), seat 1 a Benevolence
    and Drill that it aims at the keeper's Tyranny: the keeper is asked whether to cancel."""
    hands = [
        [
            "patriotism",
            "tyranny",
            "charge",
            "charge",
            "subversion",
            "subversion",
            "patriotism",
            "patriotism",
            "patriotism",
        ],
        ["benevolence", "drill", *["benevolence"] * 7],
        [*third_pair, "drill", "drill", "drill", "drill", "drill", "tyranny", "tyranny"],
    ]
    table = reveal([["patriotism", "tyranny"], ["benevolence", "drill"], third_pair], hands)
    assert table.waiting == [1]
    table.do(1, {"target": {"seat": 0, "slot": 1}})
    assert table.waiting == [0] and table.view(0)["pending"]["mine"]
    return table


def test_dupli_spends_a_patriotism_when_keeping_the_card_wins_a_share() -> None:
    """Cancelling keeps the keeper's Tyranny (2) level with seat 2's two Drills and drops seat 1 to
    1: a share of the field is worth more than the Patriotism's VP."""
    table = patriotism_question(["drill", "drill"])
    assert table.keeper(0) == {"cancel": True}


def test_dupli_keeps_its_patriotism_when_cancelling_changes_nothing() -> None:
    """Seat 2's two Tyrannies (4) win whatever the keeper does: it keeps its VP."""
    table = patriotism_question(["tyranny", "tyranny"])
    assert table.keeper(0) == {"cancel": False}
