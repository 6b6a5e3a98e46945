"""Dupli (rules/dupli/): the rulebook's worked examples, RULINGS.md §3 and its finer points, the
Charge window, hidden choices, and random games checked at every step."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules import IllegalAction, get_game
from rules.dupli import GAME
from rules.dupli.cards import CARD_ORDER, FULL_DECK, legal_pairs
from rules.dupli.state import State
from rules.messages import plain

NAMES = ["Ann", "Bo", "Cy", "Di"]
A, B, C, D = 0, 1, 2, 3


# --------------------------------------------------------------------------------- helpers


def deck_for(hands: Sequence[Sequence[str]]) -> list[str]:
    """A 36-card deck dealing these (partial) hands in seat order; each is filled up to 9 cards from
    what is left, in the rulebook's order, and the rest is set aside."""
    left = Counter(FULL_DECK) - Counter(c for h in hands for c in h)
    assert sum(Counter(c for h in hands for c in h).values()) == sum(len(h) for h in hands)
    spare = [c for c in CARD_ORDER for _ in range(left[c])]
    deck: list[str] = []
    for hand in hands:
        need = 9 - len(hand)
        deck += [*hand, *spare[:need]]
        spare = spare[need:]
    deck += spare
    assert Counter(deck) == Counter(FULL_DECK), "the hands ask for more cards than the deck holds"
    return deck


class Table:
    """A game driven move by move, keeping the log and the incrementally built state."""

    def __init__(self, hands: Sequence[Sequence[str]], seed: int = 7) -> None:
        self.events = GAME.start(seed, len(hands), {"deck": deck_for(hands)})
        self.state: State = GAME.fold(self.events)

    def do(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """Act, append the events and apply them; the events are returned."""
        new = GAME.act(self.state, seat, action)
        self.events = self.events + new
        for event in new:
            self.state = GAME.apply(self.state, event)
        return new

    def set_all(self, *pairs: Sequence[str]) -> list[dict[str, Any]]:
        """Every seat sets its pair, in seat order."""
        return [e for s, p in enumerate(pairs) for e in self.do(s, {"set": sorted(p)})]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return GAME.view(self.state, seat)

    def aim_all(self, choose: dict[int, list[Any]]) -> list[dict[str, Any]]:
        """Each Benevolence aims, in the drawn order, at the next target listed for its seat."""
        out: list[dict[str, Any]] = []
        while self.state.phase == "aim" and GAME.to_act(self.state):
            (seat,) = GAME.to_act(self.state)
            out += self.do(seat, {"target": choose[seat].pop(0)})
        return out


def of_type(events: Sequence[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def vp(table: Table) -> list[int]:
    return table.view()["vp"]


def target(seat: int, slot: int) -> dict[str, int]:
    return {"seat": seat, "slot": slot}


def three_drills_each() -> Table:
    """A 3-player table with plenty of every basic card in every hand."""
    return Table(
        [
            ["drill"] * 3 + ["tyranny"] * 3 + ["benevolence"] * 3,
            ["drill"] * 3 + ["tyranny"] * 3 + ["benevolence"] * 3,
            ["drill"] * 3 + ["tyranny"] * 3 + ["benevolence"] * 3,
        ]
    )


# --------------------------------------------------------------------------------- setup and options


def test_contract_attributes_and_default_options() -> None:
    assert get_game("dupli") is GAME
    assert GAME.name == "dupli"
    assert GAME.seat_counts == (3, 4)
    assert GAME.default_options == {"deck": None}


def test_the_deck_has_36_cards_in_the_rulebook_counts() -> None:
    assert len(FULL_DECK) == 36
    assert Counter(FULL_DECK) == {
        "drill": 10,
        "tyranny": 9,
        "benevolence": 9,
        "charge": 2,
        "patriotism": 4,
        "subversion": 2,
    }


@pytest.mark.parametrize("seats", [1, 2, 5])
def test_only_three_or_four_players(seats: int) -> None:
    with pytest.raises(ValueError, match="3 or 4 players"):
        GAME.start(1, seats)


def test_unknown_option_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        GAME.start(1, 3, {"decks": None})


def test_seeded_deal_gives_nine_cards_each_and_sets_the_rest_aside() -> None:
    for seats in (3, 4):
        started, dealt = GAME.start(99, seats)
        assert started["type"] == "GameStarted" and started["seed"] == 99 and started["seats"] == seats
        assert started["options"] == {"deck": None}
        assert [len(h) for h in dealt["hands"]] == [9] * seats
        assert len(dealt["set_aside"]) == 36 - 9 * seats
        assert Counter(dealt["set_aside"] + [c for h in dealt["hands"] for c in h]) == Counter(FULL_DECK)


def test_the_deal_is_reproducible_from_the_seed_and_differs_between_seeds() -> None:
    assert GAME.start(5, 4) == GAME.start(5, 4)
    assert len({json.dumps(GAME.start(seed, 4)[1]["hands"]) for seed in range(10)}) == 10


def test_deck_option_takes_a_list_of_decks_and_deals_the_first() -> None:
    first, second = sorted(FULL_DECK, key=CARD_ORDER.index), list(reversed(FULL_DECK))
    _, dealt = GAME.start(1, 3, {"deck": [first, second]})
    assert [set(hand) for hand in dealt["hands"]] == [
        {"drill"},
        {"drill", "tyranny"},
        {"tyranny", "benevolence"},
    ]
    assert dealt == GAME.start(1, 3, {"deck": first})[1]


def test_deck_option_deals_consecutive_blocks_in_seat_order() -> None:
    deck = sorted(FULL_DECK, key=CARD_ORDER.index)  # drill ×10 first, subversion last
    _, dealt = GAME.start(1, 3, {"deck": deck})
    assert dealt["hands"][0] == ["drill"] * 9
    assert dealt["hands"][1] == ["drill"] + ["tyranny"] * 8
    assert dealt["set_aside"] == deck[27:]
    assert Counter(dealt["hands"][2]) == {"tyranny": 1, "benevolence": 8}


def test_set_aside_cards_and_other_hands_are_in_no_view_until_the_end() -> None:
    table = Table([["drill"] * 9, ["tyranny"] * 9, ["benevolence"] * 9])
    for seat in (None, A, B, C):
        view = table.view(seat)
        assert not {"set_aside", "hands", "centre_cards"} & set(view)
        assert view["hand_counts"] == [9, 9, 9]
    assert [h["card"] for h in table.view(A)["hand"]] == ["drill"] * 9
    assert "tyranny" not in json.dumps(table.view(A)["hand"])


# --------------------------------------------------------------------------------- setting


def test_every_player_sets_two_cards_at_once_and_the_others_see_only_that_they_set() -> None:
    table = three_drills_each()
    assert GAME.to_act(table.state) == {A, B, C}
    table.do(B, {"set": ["drill", "tyranny"]})
    assert GAME.to_act(table.state) == {A, C}
    for seat in (A, C, None):
        view = table.view(seat)
        assert view["set_done"] == [False, True, False]
        assert view["my_set"] is None
    assert table.view(B)["my_set"] == ["drill", "tyranny"]
    assert [h["card"] for h in table.view(B)["hand"]].count("tyranny") == 2


def test_tyranny_or_charge_may_not_be_set_with_benevolence() -> None:
    table = Table([["tyranny", "benevolence", "charge"], ["drill"] * 2, ["drill"] * 2])
    for pair in (["benevolence", "tyranny"], ["benevolence", "charge"]):
        with pytest.raises(IllegalAction, match="may not be set together with Benevolence"):
            table.do(A, {"set": pair})
        assert {"set": pair} not in GAME.legal_actions(table.state, A)
    assert {"set": ["charge", "tyranny"]} in GAME.legal_actions(table.state, A)


def test_legal_pairs_are_sorted_each_once_and_respect_the_set_rule() -> None:
    pairs = legal_pairs(["tyranny", "benevolence", "benevolence", "drill", "charge"])
    assert pairs == [
        ("benevolence", "benevolence"),
        ("benevolence", "drill"),
        ("charge", "drill"),
        ("charge", "tyranny"),
        ("drill", "tyranny"),
    ]


def test_a_set_pair_may_be_sent_unsorted_and_is_recorded_sorted() -> None:
    table = three_drills_each()
    (event,) = table.do(A, {"set": ["tyranny", "drill"]})
    assert event["cards"] == ["drill", "tyranny"]


def test_setting_refuses_cards_not_in_hand_and_setting_twice() -> None:
    table = Table([["drill"] * 9, ["tyranny"] * 9, ["benevolence"] * 9])
    with pytest.raises(IllegalAction, match="You do not hold Drill \\+ Tyranny"):
        table.do(A, {"set": ["drill", "tyranny"]})
    with pytest.raises(IllegalAction, match="not a Dupli card"):
        table.do(A, {"set": ["drill", "joker"]})
    table.do(A, {"set": ["drill", "drill"]})
    with pytest.raises(IllegalAction, match="already set"):
        table.do(A, {"set": ["drill", "drill"]})
    assert GAME.legal_actions(table.state, A) == []


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "fold",
        7,
        {},
        {"foo": 1},
        {"card": 5},
        {"set": "drill"},
        {"set": ["drill"]},
        {"set": ["drill"] * 3},
        {"set": [1, 2]},
        {"set": ["drill", "drill"], "extra": 1},
    ],
)
def test_malformed_actions_are_refused_with_a_clear_message(action: Any) -> None:
    table = three_drills_each()
    with pytest.raises(IllegalAction):
        table.do(A, action)


def test_wrong_phase_actions_and_bad_seats_are_refused() -> None:
    table = three_drills_each()
    with pytest.raises(IllegalAction, match="No Benevolence is aiming"):
        table.do(A, {"target": None})
    with pytest.raises(IllegalAction, match="No Patriotism answer"):
        table.do(A, {"cancel": True})
    with pytest.raises(IllegalAction, match="no seat"):
        table.do(3, {"set": ["drill", "drill"]})
    with pytest.raises(IllegalAction, match="no seat"):
        table.do(-1, {"set": ["drill", "drill"]})


# --------------------------------------------------------------------------------- the rulebook's examples


def test_rulebook_tyranny_wins_without_benevolence_or_subversion() -> None:
    table = three_drills_each()
    events = table.set_all(["drill", "drill"], ["drill", "tyranny"], ["tyranny", "tyranny"])
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [2, 3, 4]
    assert war["winners"] == [C] and war["share"] == 6
    assert vp(table) == [0, 0, 6]
    assert table.state.war == 2 and table.state.phase == "set"


def test_rulebook_two_benevolence_players_zero_a_tyranny_pair_and_split() -> None:
    table = three_drills_each()
    table.set_all(["benevolence", "drill"], ["tyranny", "tyranny"], ["benevolence", "drill"])
    view = table.view(A)
    assert view["phase"] == "aim"
    assert {(o["seat"], o["slot"]) for o in view["targeting"]["order"]} == {(A, 0), (C, 0)}
    assert view["targeting"]["targets"] == [
        {"seat": B, "slot": 0, "card": "tyranny", "zeroed": False},
        {"seat": B, "slot": 1, "card": "tyranny", "zeroed": False},
    ]
    events = table.aim_all({A: [target(B, 0)], C: [target(B, 1)]})
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [2, 0, 2]
    assert war["winners"] == [A, C] and war["share"] == 3 and war["to_centre"] == []
    assert vp(table) == [3, 0, 3]
    last = table.view()["last_war"]
    assert [c["zeroed"] for c in last["players"][B]["cards"]] == [True, True]


def test_rulebook_drill_wins_when_benevolence_has_no_target() -> None:
    table = three_drills_each()
    events = table.set_all(["drill", "drill"], ["benevolence", "drill"], ["benevolence", "benevolence"])
    assert not of_type(events, "BenevolenceAimed"), "no Tyranny or Charge: nobody is asked to aim"
    (reveal,) = of_type(events, "CardsRevealed")
    assert reveal["order"] == [] and reveal["benevolence_counts"] == [False, False, False]
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [2, 1, 0]
    assert war["winners"] == [A] and war["share"] == 6


def test_rulebook_patriotism_is_banked_at_once_while_the_others_split_the_rest() -> None:
    table = Table([["drill"] * 2, ["drill", "patriotism"], ["drill"] * 2])
    events = table.set_all(["drill", "drill"], ["drill", "patriotism"], ["drill", "drill"])
    (reveal,) = of_type(events, "CardsRevealed")
    assert reveal["banked"] == [0, 1, 0] and reveal["vp"] == [0, 1, 0]
    (war,) = of_type(events, "WarResolved")
    assert war["field"] == ["drill"] * 5
    assert war["strengths"] == [2, 1, 2] and war["winners"] == [A, C]
    assert war["share"] == 2 and war["to_centre"] == ["drill"]
    assert vp(table) == [2, 1, 2]
    assert table.view()["patriotism"] == [0, 1, 0]
    assert table.view()["centre"] == 1


def patriotism_banked_in_war_one() -> Table:
    """War 1: Bo banks a Patriotism; Ann and Cy split the rest (one card to the centre)."""
    table = Table(
        [
            ["drill"] * 4,
            ["drill", "patriotism", "tyranny", "drill"],
            ["drill", "drill", "benevolence", "drill"],
        ]
    )
    table.set_all(["drill", "drill"], ["drill", "patriotism"], ["drill", "drill"])
    assert vp(table) == [2, 1, 2]
    return table


def test_rulebook_patriotism_cancels_a_benevolence() -> None:
    table = patriotism_banked_in_war_one()
    table.set_all(["drill", "drill"], ["drill", "tyranny"], ["benevolence", "drill"])
    events = table.do(C, {"target": target(B, 1)})
    assert events[0]["outcome"] == "asked"
    assert table.state.phase == "react" and GAME.to_act(table.state) == {B}
    pending = table.view(B)["pending"]
    assert pending["mine"] and pending["owner"] == B and pending["patriotism"] == 1
    assert pending["target"] == {"seat": B, "slot": 1, "card": "tyranny"}
    assert [a["cancel"] for a in pending["answers"]] == [True, False]
    assert GAME.legal_actions(table.state, B) == [{"cancel": True}, {"cancel": False}]
    events = table.do(B, {"cancel": True})
    (answer,) = of_type(events, "PatriotismAnswered")
    assert answer["cancel"] is True
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [2, 3, 1], "the Tyranny keeps 2 and the cancelled Benevolence is worth 0"
    assert war["winners"] == [B] and war["share"] == 6
    assert table.view()["removed"] == 1
    assert vp(table) == [2, 0 + 6, 2], "the spent Patriotism left Bo's VP"
    card = table.view()["last_war"]["players"][C]["cards"][0]
    assert card == {
        "slot": 0,
        "card": "benevolence",
        "strength": 0,
        "zeroed": False,
        "cancelled": True,
        "banked": False,
        "face_up_early": False,
    }


def test_declining_the_patriotism_lets_the_card_be_zeroed() -> None:
    table = patriotism_banked_in_war_one()
    table.set_all(["drill", "drill"], ["drill", "tyranny"], ["benevolence", "drill"])
    table.do(C, {"target": target(B, 1)})
    events = table.do(B, {"cancel": False})
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [2, 1, 2] and war["winners"] == [A, C]
    assert table.view()["patriotism"] == [0, 1, 0] and table.view()["removed"] == 0


def test_rulebook_subversion_eliminates_its_own_setter_too() -> None:
    table = Table([["subversion", "tyranny"], ["drill"] * 2, ["tyranny", "drill"]])
    events = table.set_all(["subversion", "tyranny"], ["drill", "drill"], ["drill", "tyranny"])
    (reveal,) = of_type(events, "CardsRevealed")
    assert reveal["subversion"] and reveal["eliminated"] == [A, C]
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [1, 2, 3], "Subversion −1 plus Tyranny 2; Cy's 3 does not count"
    assert war["winners"] == [B] and war["share"] == 6
    assert table.view()["last_war"]["players"][A]["eliminated"] is True


# --------------------------------------------------------------------------------- Subversion and strength


def test_subversion_voids_every_benevolence() -> None:
    table = Table([["subversion", "drill"], ["tyranny", "drill"], ["benevolence", "drill"]])
    events = table.set_all(["drill", "subversion"], ["drill", "tyranny"], ["benevolence", "drill"])
    assert not of_type(events, "BenevolenceAimed")
    (reveal,) = of_type(events, "CardsRevealed")
    assert reveal["benevolence_counts"] == [False, False, False] and reveal["order"] == []
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [0, 3, 1] and war["eliminated"] == [B] and war["winners"] == [C]


def test_patriotism_reaches_vp_even_for_an_eliminated_seat() -> None:
    table = Table([["patriotism", "tyranny"], ["subversion", "drill"], ["drill"] * 2])
    events = table.set_all(["patriotism", "tyranny"], ["drill", "subversion"], ["drill", "drill"])
    (war,) = of_type(events, "WarResolved")
    assert war["eliminated"] == [A] and war["winners"] == [C]
    assert war["field"] == ["tyranny", "drill", "subversion", "drill", "drill"]
    assert vp(table) == [1, 0, 5]


def test_the_highest_surviving_strength_wins_even_below_zero() -> None:
    table = Table([["subversion"] * 2, ["tyranny"] * 2, ["tyranny", "charge"]])
    table.set_all(["subversion", "subversion"], ["tyranny", "tyranny"], ["charge", "tyranny"])
    events = table.do(A, {"set": ["subversion", "subversion"]}) + table.do(B, {"set": ["tyranny", "tyranny"]})
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [-2, 4, 5] and war["eliminated"] == [B, C]
    assert war["winners"] == [A] and war["best"] == -2 and war["share"] == 6


def test_when_everyone_is_eliminated_the_field_goes_to_the_centre() -> None:
    table = Table([["subversion", "tyranny"], ["tyranny"] * 2, ["charge", "tyranny"]])
    table.set_all(["subversion", "tyranny"], ["tyranny", "tyranny"], ["charge", "tyranny"])
    events = table.do(A, {"set": ["subversion", "tyranny"]}) + table.do(B, {"set": ["tyranny", "tyranny"]})
    (war,) = of_type(events, "WarResolved")
    assert war["eliminated"] == [A, B, C] and war["winners"] == [] and war["best"] is None
    assert len(war["to_centre"]) == 6 and vp(table) == [0, 0, 0]
    assert table.view()["centre"] == 6
    assert GAME.describe(war, None, NAMES) == (
        "War %(war)s: everyone is eliminated; %(centre)s card(s) go to the centre.",
        {"war": 1, "name": "", "count": 0, "strength": None, "centre": 6, "total": 6},
    )


def test_card_strengths_drill_1_tyranny_2_charge_3_subversion_minus_1() -> None:
    table = Table([["drill", "tyranny"], ["charge", "subversion"], ["drill", "drill"]])
    table.set_all(["drill", "tyranny"], ["charge", "subversion"], ["drill", "drill"])
    table.do(A, {"set": ["drill", "tyranny"]})
    events = table.do(C, {"set": ["drill", "drill"]})
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [3, 2, 2]


# --------------------------------------------------------------------------------- Benevolence and aiming


def test_a_benevolence_that_passes_is_still_worth_one() -> None:
    table = three_drills_each()
    table.set_all(["benevolence", "drill"], ["drill", "tyranny"], ["drill", "drill"])
    assert GAME.legal_actions(table.state, A)[-1] == {"target": None}
    events = table.do(A, {"target": None})
    assert events[0]["outcome"] == "passed"
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [2, 3, 2] and war["winners"] == [B]


def test_a_benevolence_is_worth_one_even_when_its_target_is_not_zeroed() -> None:
    table = patriotism_banked_in_war_one()
    table.set_all(["drill", "drill"], ["drill", "tyranny"], ["benevolence", "drill"])
    table.do(C, {"target": target(B, 1)})
    events = table.do(B, {"cancel": False})
    assert of_type(events, "WarResolved")[0]["strengths"][C] == 2


def test_owner_without_patriotism_has_the_card_zeroed_at_once() -> None:
    table = three_drills_each()
    table.set_all(["benevolence", "drill"], ["drill", "tyranny"], ["drill", "drill"])
    events = table.do(A, {"target": target(B, 1)})
    assert events[0]["outcome"] == "zeroed" and events[0]["card"] == "tyranny"
    assert not of_type(events, "PatriotismAnswered")
    assert of_type(events, "WarResolved")[0]["strengths"] == [2, 1, 2]


def test_a_seat_with_two_benevolences_aims_both_and_may_choose_a_zeroed_card() -> None:
    table = three_drills_each()
    table.set_all(["benevolence", "benevolence"], ["drill", "tyranny"], ["drill", "drill"])
    order = table.view()["targeting"]["order"]
    assert order == [target(A, 0), target(A, 1)]
    table.do(A, {"target": target(B, 1)})
    assert GAME.to_act(table.state) == {A}
    targets = table.view(A)["targeting"]
    assert targets["turn"] == target(A, 1)
    assert targets["targets"] == [{"seat": B, "slot": 1, "card": "tyranny", "zeroed": True}]
    events = table.do(A, {"target": target(B, 1)})
    assert events[0]["outcome"] == "zeroed"
    assert of_type(events, "WarResolved")[0]["strengths"] == [2, 1, 2]


def test_two_benevolences_of_one_seat_aim_before_the_next_seat() -> None:
    hands = [["benevolence"] * 2, ["tyranny"] * 2, ["benevolence", "drill"]]
    for seed in range(12):
        table = Table(hands, seed=seed)
        table.set_all(["benevolence", "benevolence"], ["tyranny", "tyranny"], ["benevolence", "drill"])
        order = [(o["seat"], o["slot"]) for o in table.view()["targeting"]["order"]]
        assert order in ([(A, 0), (A, 1), (C, 0)], [(C, 0), (A, 0), (A, 1)])


def test_a_target_must_be_a_tyranny_or_charge_on_the_field() -> None:
    table = three_drills_each()
    table.set_all(["benevolence", "drill"], ["drill", "tyranny"], ["drill", "drill"])
    for bad in (target(B, 0), target(C, 0), target(A, 0), target(3, 1)):
        with pytest.raises(IllegalAction, match="not a Tyranny or Charge"):
            table.do(A, {"target": bad})
    for bad in ({"seat": B}, {"seat": True, "slot": 1}, 0, "B", [B, 1], target(B, 2), target(5, 1)):
        with pytest.raises(IllegalAction, match="A target is"):
            table.do(A, {"target": bad})
    with pytest.raises(IllegalAction, match="not your turn"):
        table.do(B, {"target": None})


def test_aiming_order_follows_vp_including_patriotism_banked_this_war() -> None:
    for banker, other in ((A, C), (C, A)):
        hands: list[list[str]] = [["benevolence", "drill"], ["tyranny"] * 2, ["benevolence", "drill"]]
        hands[banker] = ["benevolence", "patriotism"]
        for seed in range(6):
            table = Table(hands, seed=seed)
            pairs = [sorted(h) for h in hands]
            events = table.set_all(*pairs)
            (reveal,) = of_type(events, "CardsRevealed")
            assert reveal["vp"][banker] == 1 and not reveal["tie_drawn"]
            assert [o["seat"] for o in reveal["order"]] == [banker, other]


def test_equal_vp_aiming_order_is_drawn_from_the_seed_and_recorded() -> None:
    orders = set()
    for seed in range(30):
        table = Table([["benevolence", "drill"], ["tyranny"] * 2, ["benevolence", "drill"]], seed=seed)
        again = Table([["benevolence", "drill"], ["tyranny"] * 2, ["benevolence", "drill"]], seed=seed)
        pairs = (["benevolence", "drill"], ["tyranny", "tyranny"], ["benevolence", "drill"])
        (reveal,) = of_type(table.set_all(*pairs), "CardsRevealed")
        assert reveal == of_type(again.set_all(*pairs), "CardsRevealed")[0]
        assert reveal["tie_drawn"]
        orders.add(tuple(o["seat"] for o in reveal["order"]))
    assert orders == {(A, C), (C, A)}


def test_a_patriotism_banked_this_war_may_cancel_at_once() -> None:
    table = Table([["benevolence", "drill"], ["patriotism", "tyranny"], ["drill"] * 2])
    table.set_all(["benevolence", "drill"], ["patriotism", "tyranny"], ["drill", "drill"])
    table.do(A, {"target": target(B, 1)})
    assert GAME.to_act(table.state) == {B}
    assert table.view(A)["pending"]["mine"] is False
    with pytest.raises(IllegalAction, match="Only the owner"):
        table.do(A, {"cancel": True})
    with pytest.raises(IllegalAction, match="Answer with"):
        table.do(B, {"cancel": "yes"})
    events = table.do(B, {"cancel": True})
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [1, 2, 2] and war["winners"] == [B, C]
    assert vp(table) == [0, 0 + 2, 2] and table.view()["removed"] == 1
    assert table.view()["centre"] == 1


# --------------------------------------------------------------------------------- the Charge window


def charge_table() -> Table:
    """Ann holds a Charge to set; Bo holds the other Charge and Benevolences; Cy drills and Tyranny."""
    return Table(
        [
            ["charge", "drill", "drill"],
            ["drill", "drill", "charge", "benevolence"],
            ["drill", "tyranny", "benevolence", "drill"],
        ]
    )


def test_charge_is_turned_face_up_only_once_everyone_has_set() -> None:
    table = charge_table()
    table.do(A, {"set": ["charge", "drill"]})
    table.do(B, {"set": ["drill", "drill"]})
    assert table.state.phase == "set"
    assert table.view(C)["charge"] is None and "face_up" not in json.dumps(table.view(C))
    events = table.do(C, {"set": ["drill", "tyranny"]})
    (charge,) = of_type(events, "ChargeRevealed")
    assert charge["charges"] == [target(A, 0)] and charge["answering"] == [B, C]
    view = table.view(C)
    assert view["phase"] == "charge"
    assert view["charge"]["face_up"] == [{"seat": A, "slot": 0, "card": "charge"}]
    assert view["charge"]["must_answer"] is True and view["charge"]["answering"] == [B, C]
    assert table.view(A)["charge"]["must_answer"] is False
    assert GAME.describe(charge, None, NAMES) == (
        "Charge revealed: %(names)s. The others may swap their set cards.",
        {"names": "Ann"},
    )


def test_every_seat_without_a_charge_answers_and_the_charge_setter_does_not() -> None:
    table = charge_table()
    table.set_all(["charge", "drill"], ["drill", "drill"], ["drill", "tyranny"])
    assert GAME.to_act(table.state) == {B, C}
    assert GAME.legal_actions(table.state, A) == []
    with pytest.raises(IllegalAction, match="You set a Charge"):
        table.do(A, {"set": ["charge", "drill"]})
    table.do(B, {"set": ["drill", "drill"]})  # the same pair: keep
    assert GAME.to_act(table.state) == {C}
    with pytest.raises(IllegalAction, match="already answered"):
        table.do(B, {"set": ["charge", "drill"]})
    events = table.do(C, {"set": ["drill", "tyranny"]})
    assert of_type(events, "CardsRevealed") and of_type(events, "WarResolved")


def test_swap_answers_come_from_set_and_hand_and_keep_the_set_rule() -> None:
    table = charge_table()
    table.set_all(["charge", "drill"], ["drill", "drill"], ["drill", "tyranny"])
    c_pool = [h["card"] for h in table.view(C)["hand"]] + ["drill", "tyranny"]
    assert GAME.legal_actions(table.state, C) == [{"set": list(p)} for p in legal_pairs(c_pool)]
    assert {"set": ["drill", "tyranny"]} in GAME.legal_actions(table.state, C), "keeping is an answer"
    with pytest.raises(IllegalAction, match="may not be set together with Benevolence"):
        table.do(C, {"set": ["benevolence", "tyranny"]})
    with pytest.raises(IllegalAction, match="You do not hold"):
        table.do(C, {"set": ["charge", "drill"]})
    (swap,) = table.do(C, {"set": ["benevolence", "drill"]})
    assert swap["type"] == "SwapAnswered" and swap["kept"] is False
    assert table.view(C)["my_set"] == ["benevolence", "drill"]
    assert "tyranny" in [h["card"] for h in table.view(C)["hand"]]


def test_a_swapped_in_charge_stays_hidden_and_opens_no_second_window() -> None:
    table = charge_table()
    table.set_all(["charge", "drill"], ["drill", "drill"], ["drill", "tyranny"])
    before = {s: table.view(s) for s in (A, C, None)}
    (swap,) = table.do(B, {"set": ["charge", "drill"]})
    for seat in (A, C, None):
        now = table.view(seat)
        assert now["charge"]["face_up"] == [{"seat": A, "slot": 0, "card": "charge"}]
        assert now["charge"]["answered"] == [False, True, False] and now["to_act"] == [C]
        now["charge"]["answered"], now["to_act"] = before[seat]["charge"]["answered"], before[seat]["to_act"]
        assert now == before[seat], "only that Bo answered shows to the others"
    assert GAME.describe(swap, A, NAMES) == ("%(name)s answered the Charge.", {"name": "Bo"})
    assert plain(GAME.describe(swap, B, NAMES)) == "Bo swapped to Charge + Drill."
    events = table.do(C, {"set": ["drill", "tyranny"]})
    assert [e["type"] for e in events] == ["SwapAnswered", "CardsRevealed", "WarResolved"]
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [4, 4, 3] and war["winners"] == [A, B]
    last = table.view()["last_war"]
    assert last["players"][A]["cards"][0]["face_up_early"] is True
    assert last["players"][B]["cards"][0]["face_up_early"] is False


def test_a_charge_can_be_zeroed_by_benevolence_after_a_swap_judged_on_final_sets() -> None:
    table = charge_table()
    table.set_all(["charge", "drill"], ["drill", "drill"], ["drill", "drill"])
    table.do(B, {"set": ["benevolence", "drill"]})
    events = table.do(C, {"set": ["drill", "drill"]})
    (reveal,) = of_type(events, "CardsRevealed")
    assert reveal["benevolence_counts"][B] is True and reveal["order"] == [target(B, 0)]
    events = table.do(B, {"target": target(A, 0)})
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [1, 2, 2] and war["winners"] == [B, C]


def test_benevolence_is_judged_on_the_final_sets_after_the_swap() -> None:
    table = Table([["charge", "drill"], ["benevolence", "drill", "drill"], ["tyranny", "drill", "drill"]])
    table.set_all(["charge", "drill"], ["benevolence", "drill"], ["drill", "tyranny"])
    table.do(B, {"set": ["benevolence", "drill"]})
    (reveal,) = of_type(table.do(C, {"set": ["drill", "drill"]}), "CardsRevealed")
    assert reveal["benevolence_counts"] == [False, True, False], "Ann's Charge still counts for Bo"
    assert table.view()["targeting"]["targets"] == [{"seat": A, "slot": 0, "card": "charge", "zeroed": False}]


def test_a_benevolence_swapped_out_no_longer_aims() -> None:
    table = Table([["charge", "drill"], ["benevolence", "drill", "drill"], ["tyranny", "drill", "drill"]])
    table.set_all(["charge", "drill"], ["benevolence", "drill"], ["drill", "tyranny"])
    table.do(B, {"set": ["drill", "drill"]})
    events = table.do(C, {"set": ["drill", "tyranny"]})
    (reveal,) = of_type(events, "CardsRevealed")
    assert reveal["sets"][B] == ["drill", "drill"] and reveal["order"] == []
    (war,) = of_type(events, "WarResolved")
    assert war["strengths"] == [4, 2, 3] and war["winners"] == [A]


# --------------------------------------------------------------------------------- the centre and the end


def four_wars_hands() -> list[list[str]]:
    """Hands for a scripted four-war game (see the two tests below)."""
    return [
        ["drill", "drill", "tyranny", "tyranny", "tyranny", "drill", "tyranny", "patriotism"],
        ["drill", "patriotism", "tyranny", "drill", "tyranny", "tyranny", "tyranny", "patriotism"],
        ["drill", "drill", "drill", "tyranny", "benevolence", "patriotism", "drill", "drill"],
    ]


def first_three_wars() -> Table:
    """War 1 leaves one card in the centre; wars 2 and 3 have single winners and keep it there."""
    table = Table(four_wars_hands())
    table.set_all(["drill", "drill"], ["drill", "patriotism"], ["drill", "drill"])
    assert vp(table) == [2, 1, 2] and table.view()["centre"] == 1
    table.set_all(["tyranny", "tyranny"], ["drill", "tyranny"], ["drill", "tyranny"])
    assert vp(table) == [8, 1, 2] and table.view()["centre"] == 1
    table.set_all(["drill", "tyranny"], ["tyranny", "tyranny"], ["benevolence", "patriotism"])
    table.do(C, {"target": None})
    assert vp(table) == [8, 6, 3] and table.view()["centre"] == 1
    return table


def test_the_centre_remainder_goes_to_the_last_wars_winner() -> None:
    table = first_three_wars()
    table.set_all(["patriotism", "tyranny"], ["benevolence", "patriotism"], ["drill", "drill"])
    table.do(B, {"target": target(A, 1)})
    assert GAME.to_act(table.state) == {A}, "Ann banked a Patriotism this war and is asked"
    events = table.do(A, {"cancel": False})
    (war,) = of_type(events, "WarResolved")
    assert war["last"] and war["strengths"] == [0, 1, 2] and war["winners"] == [C]
    assert war["pool"] == 5 and war["share"] == 5 and war["centre"] == []
    assert vp(table) == [9, 7, 8]
    assert GAME.result(table.state) == {"winners": [A], "vp": [9, 7, 8]}


def test_an_unsplittable_last_remainder_scores_for_no_one() -> None:
    table = first_three_wars()
    events = table.set_all(["patriotism", "tyranny"], ["patriotism", "tyranny"], ["drill", "drill"])
    (war,) = of_type(events, "WarResolved")
    assert war["winners"] == [A, B, C] and war["pool"] == 5 and war["share"] == 1
    assert len(war["to_centre"]) == 2 and len(war["centre"]) == 2
    assert vp(table) == [10, 8, 4]
    assert GAME.describe(war, None, NAMES)[0].endswith("%(centre)s card(s) score for no one.")
    (end,) = of_type(events, "GameEnded")
    assert end["winners"] == [A] and end["vp"] == [10, 8, 4]


def test_after_four_wars_every_hand_holds_one_card_and_most_vp_wins() -> None:
    table = first_three_wars()
    table.set_all(["patriotism", "tyranny"], ["patriotism", "tyranny"], ["drill", "drill"])
    assert GAME.to_act(table.state) == frozenset() and table.state.phase == "over"
    view = table.view(B)
    assert view["hand_counts"] == [1, 1, 1] and view["wars_played"] == 4
    assert view["result"] == {"winners": [A], "vp": [10, 8, 4]}
    assert view["hands"] == [["benevolence"], ["benevolence"], ["benevolence"]], "all open at the end"
    assert len(view["set_aside"]) == 9
    with pytest.raises(IllegalAction, match="over"):
        table.do(A, {"set": ["benevolence", "benevolence"]})
    assert all(GAME.legal_actions(table.state, s) == [] for s in range(3))


def test_equal_highest_vp_share_the_win() -> None:
    table = Table([["drill"] * 3 + ["tyranny"] * 3 + ["benevolence"] * 2] * 3)
    table.set_all(*[["drill", "drill"]] * 3)
    table.set_all(*[["tyranny", "tyranny"]] * 3)
    table.set_all(*[["drill", "tyranny"]] * 3)
    events = table.set_all(*[["benevolence", "benevolence"]] * 3)
    assert of_type(events, "CardsRevealed")[0]["order"] == []
    assert GAME.result(table.state) == {"winners": [A, B, C], "vp": [8, 8, 8]}
    assert GAME.describe(of_type(events, "GameEnded")[0], None, NAMES) == (
        "Game over: %(names)s share the win with %(vp)s VP.",
        {"names": "Ann, Bo, Cy", "vp": 8},
    )


# --------------------------------------------------------------------------------- views and describe


def test_the_hand_shows_each_cards_strength_and_effect_sorted_in_rulebook_order() -> None:
    table = Table([["subversion", "drill", "charge", "benevolence", "tyranny", "patriotism"], [], []])
    hand = table.view(A)["hand"]
    cards = [h["card"] for h in hand]
    assert cards == sorted(cards, key=CARD_ORDER.index)
    strengths = {h["card"]: h["strength"] for h in hand}
    assert strengths == {
        "drill": 1,
        "tyranny": 2,
        "benevolence": 1,
        "charge": 3,
        "patriotism": 0,
        "subversion": -1,
    }
    assert all(isinstance(h["effect"], str) and h["effect"] for h in hand)
    assert table.view(None)["hand"] is None and table.view(None)["my_set"] is None


def test_views_are_plain_json_and_carry_the_contract_keys() -> None:
    table = patriotism_banked_in_war_one()
    table.set_all(["drill", "drill"], ["drill", "tyranny"], ["benevolence", "drill"])
    table.do(C, {"target": target(B, 1)})
    for seat in (None, A, B, C):
        view = table.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == seat and view["round"] == 2 and view["phase"] == "react"
        assert view["to_act"] == [B] and view["scores"] == [2, 1, 2]
        assert "seed" not in view
        war = view["current_war"]
        assert war["war"] == 2 and war["result"] is None
        assert [p["strength"] for p in war["players"]] == [2, 3, 2]
        assert [e["step"] for e in war["log"]] == ["reveal", "order", "aim"]
        assert war["aims"] == [
            {"seat": C, "slot": 0, "target": {"seat": B, "slot": 1, "card": "tyranny"}, "outcome": "asked"}
        ]
        last = view["last_war"]
        assert last["war"] == 1 and last["result"]["winners"] == [A, C]
        assert [e["step"] for e in last["log"]] == ["reveal", "patriotism", "result"]
        assert view["targeting"]["turn"] is None and view["pending"]["owner"] == B


def test_describe_hides_set_cards_from_others_until_the_reveal() -> None:
    table = three_drills_each()
    (event,) = table.do(A, {"set": ["drill", "tyranny"]})
    assert GAME.describe(event, B, NAMES) == ("%(name)s set two cards.", {"name": "Ann"})
    assert GAME.describe(event, None, NAMES) == ("%(name)s set two cards.", {"name": "Ann"})
    assert plain(GAME.describe(event, A, NAMES)) == "Ann set Drill + Tyranny."


def test_describe_the_deal_shows_only_the_own_hand() -> None:
    table = Table([["drill"] * 9, ["tyranny"] * 9, ["benevolence"] * 9])
    dealt = table.events[1]
    assert plain(GAME.describe(dealt, B, NAMES)) == (
        "9 cards dealt to each player. Your hand: " + ", ".join(["Tyranny"] * 9) + "."
    )
    assert GAME.describe(dealt, None, NAMES) == ("9 cards dealt to each player.", {})


def test_describe_the_reveal_aims_answers_and_war_result() -> None:
    table = patriotism_banked_in_war_one()
    reveal1, war1 = (of_type(table.events, t)[0] for t in ("CardsRevealed", "WarResolved"))
    assert plain(GAME.describe(reveal1, None, NAMES)) == (
        "Reveal: Ann Drill + Drill, Bo Drill + Patriotism, Cy Drill + Drill. Patriotism to VP: Bo."
    )
    assert GAME.describe(war1, C, NAMES) == (
        "War %(war)s: %(name)s tie at strength %(strength)s and take %(count)s cards each. "
        "Centre keeps %(centre)s card(s).",
        {"war": 1, "name": "Ann, Cy", "count": 2, "strength": 2, "centre": 1, "total": 1},
    )
    table.set_all(["drill", "drill"], ["drill", "tyranny"], ["benevolence", "drill"])
    (aim,) = table.do(C, {"target": target(B, 1)})
    assert plain(GAME.describe(aim, A, NAMES)) == "Cy's Benevolence aims at Bo's Tyranny."
    events = table.do(B, {"cancel": True})
    assert (
        plain(GAME.describe(events[0], None, NAMES)) == "Bo spends a Patriotism to cancel Cy's Benevolence."
    )
    assert GAME.describe(events[1], None, NAMES) == (
        "War %(war)s: %(name)s wins %(count)s cards (strength %(strength)s).",
        {"war": 2, "name": "Bo", "count": 6, "strength": 3, "centre": 0, "total": 1},
    )


def test_describe_subversion_eliminations() -> None:
    table = Table([["subversion", "tyranny"], ["drill"] * 2, ["tyranny", "drill"]])
    events = table.set_all(["subversion", "tyranny"], ["drill", "drill"], ["drill", "tyranny"])
    msgid, params = GAME.describe(of_type(events, "CardsRevealed")[0], B, NAMES)
    assert msgid == "Reveal: %(sets)s. Subversion eliminates %(eliminated)s."
    assert params["eliminated"] == "Ann, Cy"


def test_every_event_type_has_a_description() -> None:
    table = first_three_wars()
    table.set_all(["patriotism", "tyranny"], ["benevolence", "patriotism"], ["drill", "drill"])
    table.do(B, {"target": target(A, 1)})
    table.do(A, {"cancel": True})
    kinds = {e["type"] for e in table.events}
    assert kinds >= {
        "GameStarted",
        "HandsDealt",
        "CardsSet",
        "CardsRevealed",
        "BenevolenceAimed",
        "PatriotismAnswered",
        "WarResolved",
        "GameEnded",
    }
    for event in table.events:
        for seat in (None, A, B, C):
            assert plain(GAME.describe(event, seat, NAMES))
