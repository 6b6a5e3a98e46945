"""Red and Black Duel (`rules.red_black`): every rule of the rulebook and of RULINGS.md §4 as a named
test, then random legal games (hypothesis) checking the invariants at every step."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest

from rules import IllegalAction, get_game
from rules.messages import plain
from rules.red_black import GAME, card_name
from rules.red_black.cards import DECK, colour_of, game_end, stronger
from rules.rng import SeededRandom

FOLD = {"fold": True}
NAMES = ["Ann", "Bo"]
DECK_SET = frozenset(DECK)
WORD = re.compile(r"[A-Za-z0-9]+")


def deck_with(*top: str) -> list[str]:
    """A full deck (top first) that starts with `top`: seat 0's six, seat 1's six, then the pile."""
    assert len(set(top)) == len(top)
    return [*top, *(c for c in DECK if c not in top)]


class Table:
    """A game being played move by move, folding each new event into the state."""

    def __init__(self, *top: str, seed: int = 7, deck: Any = None) -> None:
        options = {"deck": deck if deck is not None else deck_with(*top)} if top or deck is not None else {}
        self.events = GAME.start(seed, 2, options)
        self.state = GAME.fold(self.events)

    def do(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """Act for a seat; returns the new events."""
        new = GAME.act(self.state, seat, action)
        self.events += new
        for event in new:
            self.state = GAME.apply(self.state, event)
        return new

    def card(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Put a card face down for a seat."""
        return self.do(seat, {"card": card})

    def fold(self, seat: int) -> list[dict[str, Any]]:
        """Fold for a seat."""
        return self.do(seat, FOLD)

    def camps(self, first: str, second: str) -> list[dict[str, Any]]:
        """Both camp cards, seat 0's first."""
        return self.card(0, first) + self.card(1, second)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of a seat."""
        return GAME.view(self.state, seat)

    def types(self, events: list[dict[str, Any]]) -> list[str]:
        """The event types in order."""
        return [e["type"] for e in events]


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    return set(WORD.findall(json.dumps(value))) & DECK_SET


def line(event: dict[str, Any], seat: int | None) -> str:
    """The describe line of an event for a seat, formatted."""
    described = GAME.describe(event, seat, NAMES)
    assert described is not None
    return plain(described)


# Seat 0 holds KH (camp) 2H 3D 7S 8S 9S; seat 1 holds QS (camp) 5C 6H 4C 10D JD.
HAND0 = ("KH", "2H", "3D", "7S", "8S", "9S")
HAND1 = ("QS", "5C", "6H", "4C", "10D", "JD")


def duel() -> Table:
    """The worked round: camps revealed (seat 0 Red with KH, seat 1 Black with QS), seat 0 leads."""
    table = Table(*HAND0, *HAND1)
    table.camps("KH", "QS")
    return table


# ----------------------------------------------------------------------------------- cards


def test_rank_decides_strength_ace_high_two_low() -> None:
    assert stronger("AC", "KS") == "AC"
    assert stronger("2S", "3C") == "3C"
    assert stronger("10D", "9S") == "10D"
    assert stronger("JC", "10S") == "JC"


def test_equal_rank_is_decided_by_suit_spades_hearts_diamonds_clubs() -> None:
    assert stronger("7S", "7H") == "7S"
    assert stronger("7H", "7D") == "7H"
    assert stronger("7D", "7C") == "7D"
    assert stronger("7C", "7S") == "7S"


def test_hearts_and_diamonds_are_red_spades_and_clubs_black() -> None:
    assert [colour_of(c) for c in ("AH", "10D", "2S", "QC")] == ["red", "red", "black", "black"]


def test_the_deck_is_the_52_standard_cards() -> None:
    assert len(DECK) == len(DECK_SET) == 52
    assert {"AS", "10H", "7D", "2C"} <= DECK_SET


# ----------------------------------------------------------------------------------- setup


def test_start_gives_15_chips_each_and_six_cards_dealt_in_consecutive_blocks() -> None:
    deck = deck_with(*HAND0, *HAND1)
    table = Table(deck=deck)
    assert table.types(table.events) == ["GameStarted", "DeckShuffled", "RoundDealt"]
    assert table.events[2]["hands"] == [deck[:6], deck[6:12]]
    assert table.state.chips == (15, 15)
    assert table.state.pile == tuple(deck[12:])
    assert table.view(0)["hand"] == ["KH", "9S", "8S", "7S", "3D", "2H"]  # strongest first
    assert table.view(1)["deck_left"] == 40


def test_game_started_records_seed_seat_count_and_full_options() -> None:
    started = GAME.start(42, 2)[0]
    assert started["type"] == "GameStarted" and started["v"] == 1
    assert (started["seed"], started["seats"], started["options"]) == (42, 2, {"deck": None})


def test_the_first_shuffle_comes_from_the_seed_labelled_deck_1() -> None:
    events = GAME.start(99, 2)
    expected = SeededRandom(99, "deck", 1).shuffled(DECK)
    assert events[1] == {"type": "DeckShuffled", "v": 1, "number": 1, "cards": expected, "source": "seed"}
    assert events[2]["hands"] == [expected[:6], expected[6:12]]


def test_start_is_deterministic_and_seeds_differ() -> None:
    assert GAME.start(5, 2) == GAME.start(5, 2)
    assert GAME.start(5, 2)[1]["cards"] != GAME.start(6, 2)[1]["cards"]


def test_rules_package_offers_the_game_by_name() -> None:
    game = get_game("red_black")
    assert game is GAME
    assert (game.name, game.seat_counts, game.default_options) == ("red_black", (2,), {"deck": None})


@pytest.mark.parametrize(
    ("seats", "options", "fragment"),
    [
        (2, {"colour": "red"}, "unknown option"),
        (3, {}, "played by 2 players"),
        (1, {}, "played by 2 players"),
        (2, {"deck": DECK[:51]}, "must hold the game.s 52 cards"),
        (2, {"deck": [*DECK[:51], "2C"]}, "must hold the game.s 52 cards"),
        (2, {"deck": [*DECK[:51], "1S"]}, "must hold the game.s 52 cards"),
        (2, {"deck": "AS KS"}, "list of card codes"),
        (2, {"deck": []}, "list of card codes"),
        (2, {"deck": 52}, "list of card codes"),
        (2, {"deck": [list(DECK), list(DECK[1:])]}, "deck 2"),
        (2, {"deck": [list(DECK), 5]}, "deck 2"),
    ],
)
def test_start_refuses_bad_options_and_seat_counts_with_a_clear_error(
    seats: int, options: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ValueError, match=fragment):
        GAME.start(1, seats, options)


def test_start_refuses_a_seed_that_is_not_an_integer() -> None:
    with pytest.raises(ValueError, match="seed"):
        GAME.start("1", 2)  # type: ignore[arg-type]


def test_a_deck_given_as_a_tuple_is_recorded_as_a_json_list() -> None:
    events = GAME.start(1, 2, {"deck": tuple(DECK)})
    assert events[0]["options"] == {"deck": list(DECK)}
    assert events[1]["cards"] == list(DECK) and events[1]["source"] == "options"


# ----------------------------------------------------------------------------------- camp


def test_camp_cards_are_chosen_at_once_by_both_seats() -> None:
    table = Table(*HAND0, *HAND1)
    assert GAME.to_act(table.state) == {0, 1}
    assert table.view(None)["phase"] == "camp"
    assert GAME.legal_actions(table.state, 1) == [{"card": c} for c in ["QS", "JD", "10D", "6H", "5C", "4C"]]
    table.card(1, "QS")
    assert GAME.to_act(table.state) == {0}
    assert GAME.legal_actions(table.state, 1) == []


def test_a_camp_card_is_hidden_from_the_other_seat_and_spectators_until_both_are_placed() -> None:
    table = Table(*HAND0, *HAND1)
    events = table.card(0, "KH")
    assert table.types(events) == ["CampCardPlaced"]
    for seat in (1, None):
        view = table.view(seat)
        assert "KH" not in cards_in(view)
        assert view["placed"] == [True, False] and view["camp_cards"] == [None, None]
        assert line(events[0], seat) == "Ann placed a camp card face down."
    assert table.view(0)["camp_cards"] == ["KH", None] and table.view(0)["face_down"] == "KH"
    assert line(events[0], 0) == "Ann placed camp card King of hearts face down."


def test_the_other_seats_view_is_the_same_whichever_camp_card_was_placed() -> None:
    first, second = Table(*HAND0, *HAND1), Table(*HAND0, *HAND1)
    first.card(0, "KH")
    second.card(0, "2H")
    for seat in (1, None):
        assert first.view(seat) == second.view(seat)
    assert GAME.legal_actions(first.state, 1) == GAME.legal_actions(second.state, 1)


def test_both_camp_cards_revealed_once_the_second_is_placed() -> None:
    table = Table(*HAND0, *HAND1)
    table.card(0, "KH")
    events = table.card(1, "QS")
    assert table.types(events) == ["CampCardPlaced", "CampsRevealed", "PotSet"]
    assert table.view(None)["camp_cards"] == ["KH", "QS"]
    assert (
        line(events[1], None)
        == "Camps: Ann Red (King of hearts), Bo Black (Queen of spades); Ann plays first."
    )


def test_different_colours_each_player_camps_with_their_own_cards_colour() -> None:
    table = Table(*HAND0, *HAND1)
    table.camps("2H", "4C")  # the weaker card is red: still Red
    assert table.view(None)["camps"] == ["red", "black"]
    assert table.view(None)["leader"] == 1


def test_same_colour_the_stronger_card_gets_its_colour_and_the_other_the_other_colour() -> None:
    table = Table(*HAND0, *HAND1)
    events = table.camps("9S", "4C")  # both black, 9S stronger
    assert events[2]["camps"] == ["black", "red"]
    table = Table(*HAND0, *HAND1)
    table.camps("2H", "JD")  # both red, JD stronger
    assert table.view(None)["camps"] == ["black", "red"]


def test_same_colour_and_rank_the_stronger_suit_gets_its_colour() -> None:
    table = Table("KS", "2H", "3H", "4H", "5H", "6H", "KC", "2D", "3D", "4D", "5D", "6D")
    events = table.camps("KS", "KC")
    assert events[2]["camps"] == ["black", "red"] and events[2]["reason"] == "suit"
    assert events[2]["leader"] == 0


def test_the_stronger_camp_card_leads_the_first_play_even_when_it_got_the_other_colour() -> None:
    table = Table(*HAND0, *HAND1)
    table.camps("9S", "QS")  # both black: QS gets Black, 9S gets Red; QS's player leads
    assert table.view(None)["camps"] == ["red", "black"]
    assert GAME.to_act(table.state) == {1}
    assert table.view(None)["leader"] == 1


def test_the_pot_of_three_comes_from_the_bank_after_the_reveal_and_camp_cards_cost_nothing() -> None:
    table = Table(*HAND0, *HAND1)
    table.card(0, "KH")
    assert table.view(None)["pot"] == 0 and table.state.chips == (15, 15)
    events = table.card(1, "QS")
    assert events[2] == {"type": "PotSet", "v": 1, "round": 1, "amount": 3, "pot": 3}
    assert table.view(None)["pot"] == 3 and table.view(None)["chips"] == [15, 15]
    assert line(events[2], None) == "The bank puts 3 chips in the pot."


def test_camp_cards_stay_out_of_the_hand_for_the_round() -> None:
    table = duel()
    assert "KH" not in table.view(0)["hand"] and table.view(0)["hand_counts"] == [5, 5]
    table.card(0, "2H")
    table.card(1, "5C")
    assert table.view(1)["camp_cards"] == ["KH", "QS"]
    with pytest.raises(IllegalAction, match="King of hearts is not in your hand"):
        table.card(1, "KH")


def test_a_second_camp_card_from_the_same_seat_is_refused() -> None:
    table = Table(*HAND0, *HAND1)
    table.card(0, "KH")
    with pytest.raises(IllegalAction, match="already placed your camp card"):
        table.card(0, "2H")


def test_folding_is_refused_before_the_pot_is_set() -> None:
    table = Table(*HAND0, *HAND1)
    assert FOLD not in GAME.legal_actions(table.state, 0)
    with pytest.raises(IllegalAction, match="only once the pot is set"):
        table.fold(0)
    table.card(0, "KH")
    with pytest.raises(IllegalAction, match="only once the pot is set"):
        table.fold(1)


# ----------------------------------------------------------------------------------- card plays


def test_every_card_play_costs_a_one_chip_fee_into_the_pot() -> None:
    table = duel()
    events = table.card(0, "2H")
    assert events[0]["fee"] == 1 and table.state.chips == (14, 15) and table.state.pot == 4
    table.card(1, "5C")
    assert table.view(None)["chips"] == [14, 14] and table.view(None)["pot"] == 5


def test_the_first_card_lies_face_down_hidden_from_the_other_seat_and_spectators() -> None:
    table = duel()
    events = table.card(0, "2H")
    assert table.types(events) == ["CardPlayed"]
    for seat in (1, None):
        view = table.view(seat)
        assert "2H" not in cards_in(view) and view["placed"] == [True, False] and view["face_down"] is None
        assert line(events[0], seat) == "Ann put a card face down and paid 1 chip (pot 4)."
    assert table.view(0)["face_down"] == "2H" and table.view(0)["placed"] == [True, False]
    assert line(events[0], 0) == "Ann put 2 of hearts face down and paid 1 chip (pot 4)."
    assert GAME.to_act(table.state) == {1}
    assert GAME.legal_actions(table.state, 0) == [FOLD]


def test_the_other_seats_view_is_the_same_whichever_card_lies_face_down() -> None:
    first, second = duel(), duel()
    first.card(0, "2H")
    second.card(0, "9S")
    for seat in (1, None):
        assert first.view(seat) == second.view(seat)
    assert GAME.legal_actions(first.state, 1) == GAME.legal_actions(second.state, 1)


def test_the_second_card_reveals_both_and_the_stronger_wins_the_play_on_top() -> None:
    table = duel()
    table.card(0, "2H")
    events = table.card(1, "5C")
    assert table.types(events) == ["CardPlayed", "PlayWon"]
    won = events[1]
    assert (won["cards"], won["winner"], won["winning_card"], won["losing_card"]) == (
        ["2H", "5C"],
        1,
        "5C",
        "2H",
    )
    assert (won["reason"], won["colour"], won["counts"]) == ("rank", "black", {"red": 0, "black": 1})
    view = table.view(None)
    assert view["last_play"] == {
        "number": 1,
        "leader": 0,
        "cards": ["2H", "5C"],
        "winner": 1,
        "winning_card": "5C",
        "losing_card": "2H",
        "reason": "rank",
        "colour": "black",
    }
    assert view["stack"] == ["5C"] and view["placed"] == [False, False]
    assert line(won, 0) == (
        "Ann played 2 of hearts, Bo played 5 of clubs: Bo wins the play (5 of clubs is stronger). "
        "Red 0, Black 1."
    )


def test_the_winner_of_a_play_puts_down_the_next_card_first() -> None:
    table = duel()
    table.card(0, "2H")
    table.card(1, "5C")
    assert GAME.to_act(table.state) == {1} and table.view(None)["leader"] == 1
    with pytest.raises(IllegalAction, match="not your turn"):
        table.card(0, "3D")


def test_only_winning_cards_count_by_their_own_colour_whoever_won_them() -> None:
    table = duel()
    table.card(0, "2H")
    table.card(1, "5C")  # Bo (Black) wins with black 5C
    table.card(1, "6H")
    events = table.card(0, "3D")  # Bo (Black) wins with red 6H: it counts for Red
    assert events[-1]["counts"] == {"red": 1, "black": 1}
    table.card(1, "4C")
    table.card(0, "7S")  # Ann (Red) wins with black 7S: it counts for Black
    assert table.view(None)["counts"] == {"red": 1, "black": 2}
    assert table.view(None)["stack"] == ["5C", "6H", "7S"]


def test_camp_cards_do_not_count_toward_three_of_a_colour() -> None:
    table = duel()  # camp cards KH (red) and QS (black) are out
    assert table.view(None)["counts"] == {"red": 0, "black": 0} and table.view(None)["stack"] == []


def test_the_third_winning_card_of_a_colour_ends_the_round_and_that_colours_camp_takes_the_pot() -> None:
    table = duel()
    for leader, lead, other, reply in [
        (0, "2H", 1, "5C"),
        (1, "6H", 0, "3D"),
        (1, "4C", 0, "7S"),
        (0, "8S", 1, "10D"),
    ]:
        table.card(leader, lead)
        table.card(other, reply)
    assert table.view(None)["counts"] == {"red": 2, "black": 2}
    table.card(1, "JD")
    events = table.card(0, "9S")  # Bo wins with red JD: Red's third card, and Ann is Red
    assert table.types(events) == ["CardPlayed", "PlayWon", "RoundWon", "RoundDealt"]
    won = events[2]
    assert (won["winner"], won["how"], won["colour"], won["folder"], won["pot"]) == (
        0,
        "colour",
        "red",
        None,
        13,
    )
    assert won["stack"] == ["5C", "6H", "7S", "10D", "JD"] and won["chips"] == [23, 10]
    assert table.state.chips == (23, 10)
    assert line(won, None) == "Red wins the round with three red cards: Ann takes the pot of 13."
    assert table.view(None)["last_round"] == {
        "round": 1,
        "winner": 0,
        "how": "colour",
        "colour": "red",
        "folder": None,
        "pot": 13,
    }


def test_black_wins_the_round_with_three_black_cards() -> None:
    table = duel()
    table.card(0, "7S")
    table.card(1, "4C")
    table.card(0, "8S")
    table.card(1, "5C")
    table.card(0, "9S")
    events = table.card(1, "6H")
    assert events[2]["colour"] == "black" and events[2]["winner"] == 1 and events[2]["pot"] == 9
    assert line(events[2], 1) == "Black wins the round with three black cards: Bo takes the pot of 9."


def test_all_cards_of_the_round_are_discarded_hands_included_and_six_more_are_dealt() -> None:
    deck = deck_with(*HAND0, *HAND1)
    table = Table(deck=deck)
    table.camps("KH", "QS")
    table.card(0, "7S")
    table.card(1, "4C")
    events = table.fold(1)
    assert table.types(events) == ["RoundWon", "RoundDealt"]
    assert sorted(table.state.discards) == sorted([*HAND0, *HAND1])
    assert table.view(None)["discards"] == 12 and table.view(None)["plays"] == []
    assert events[1]["hands"] == [deck[12:18], deck[18:24]] and events[1]["round"] == 2
    assert table.view(None)["deck_left"] == 28 and table.view(None)["phase"] == "camp"
    assert table.view(0)["hand"] is not None and set(table.view(0)["hand"]) == set(deck[12:18])


# ----------------------------------------------------------------------------------- folding


def test_fold_is_offered_to_both_seats_while_the_play_runs_even_the_one_not_to_act() -> None:
    table = duel()
    assert GAME.to_act(table.state) == {0}
    assert GAME.legal_actions(table.state, 0)[-1] == FOLD
    assert GAME.legal_actions(table.state, 1) == [FOLD]


def test_a_fold_by_the_seat_not_to_act_gives_the_other_the_pot() -> None:
    table = duel()
    events = table.fold(1)
    assert events[0]["how"] == "fold" and events[0]["winner"] == 0 and events[0]["folder"] == 1
    assert table.state.chips == (18, 15)
    assert line(events[0], None) == "Bo folded: Ann takes the pot of 3."
    assert table.view(None)["last_round"]["how"] == "fold"


def test_folding_with_your_card_face_down_discards_it_unseen_and_the_fee_stays_in_the_pot() -> None:
    table = duel()
    table.card(0, "9S")
    events = table.fold(0)
    assert events[0]["pot"] == 4 and table.state.chips == (14, 19)
    assert "9S" not in json.dumps(events) and "9S" in table.state.discards
    for seat in (1, None):
        assert not any(
            plain(card_name("9S")) in line(e, seat) for e in events if GAME.describe(e, seat, NAMES)
        )
        assert "9S" not in cards_in(table.view(seat))


def test_folding_with_the_opponents_card_face_down_discards_it_unseen_too() -> None:
    table = duel()
    table.card(0, "9S")
    events = table.fold(1)
    assert events[0]["winner"] == 0 and events[0]["pot"] == 4 and table.state.chips == (18, 15)
    assert "9S" not in json.dumps(events)


def test_a_fold_after_some_plays_gives_the_whole_pot_with_fees() -> None:
    table = duel()
    table.card(0, "2H")
    table.card(1, "5C")
    table.card(1, "6H")
    events = table.fold(1)
    assert events[0]["pot"] == 6 and table.state.chips == (20, 13)


# ----------------------------------------------------------------------------------- decks


def _quick_round(table: Table, folder: int) -> list[dict[str, Any]]:
    """Both seats place their strongest card as camp card, then `folder` folds."""
    for seat in (0, 1):
        table.do(seat, GAME.legal_actions(table.state, seat)[0])
    return table.fold(folder)


def test_the_deck_is_reshuffled_when_only_four_cards_are_left_at_the_start_of_round_five() -> None:
    table = Table(seed=3)
    for rnd in range(1, 4):
        _quick_round(table, rnd % 2)
    assert table.view(None)["deck_left"] == 4 and table.view(None)["round"] == 4
    events = _quick_round(table, 0)
    assert table.types(events) == ["RoundWon", "DeckShuffled", "RoundDealt"]
    shuffled = SeededRandom(3, "deck", 2).shuffled(DECK)
    assert events[1] == {"type": "DeckShuffled", "v": 1, "number": 2, "cards": shuffled, "source": "seed"}
    assert sorted(events[1]["cards"]) == sorted(DECK)  # all 52, the 4 left and the discards
    assert events[2]["hands"] == [shuffled[:6], shuffled[6:12]]
    view = table.view(None)
    assert (view["deck_number"], view["deck_left"], view["discards"]) == (2, 40, 0)
    assert line(events[1], None) == (
        "New deck shuffled: only 4 cards were left, so all 52 cards are shuffled (deck 2)."
    )


def test_a_list_of_decks_fixes_the_first_shuffles_in_order_then_the_seed_takes_over() -> None:
    second = list(reversed(DECK))
    table = Table(seed=4, deck=[list(DECK), second])
    assert table.events[1]["cards"] == list(DECK)
    for rnd in range(8):
        events = _quick_round(table, rnd % 2)
        if rnd == 3:
            assert events[1]["cards"] == second and events[1]["source"] == "options"
    assert events[1] == {
        "type": "DeckShuffled",
        "v": 1,
        "number": 3,
        "source": "seed",
        "cards": SeededRandom(4, "deck", 3).shuffled(DECK),
    }


# ----------------------------------------------------------------------------------- game end


@pytest.mark.parametrize(
    ("chips", "ends", "winners"),
    [
        ((15, 15), False, None),
        ((5, 28), False, None),
        ((4, 29), True, [1]),
        ((29, 6), False, None),
        ((30, 6), True, [0]),
        ((31, 32), True, [1]),
        ((30, 30), True, [0, 1]),
        ((0, 33), True, [1]),
    ],
)
def test_the_game_ends_on_4_chips_or_fewer_or_30_or_more_and_more_chips_wins(
    chips: tuple[int, int], ends: bool, winners: list[int] | None
) -> None:
    end = game_end(chips)
    assert (end is not None) == ends
    if end is not None:
        assert end["winners"] == winners and end["draw"] == (len(winners or ()) == 2)
        assert end["chips"] == list(chips)


def test_bankrupt_and_30_are_both_named_when_they_happen_together() -> None:
    assert game_end((3, 36)) == {
        "winners": [1],
        "draw": False,
        "chips": [3, 36],
        "bankrupt": [0],
        "reached_30": [1],
    }


def test_a_player_reaching_30_ends_the_game_at_the_start_of_the_next_round() -> None:
    table = Table(seed=11)
    for _ in range(4):
        events = _quick_round(table, 0)
        assert events[-1]["type"] == "RoundDealt"  # 27 chips at most so far: play on
    events = _quick_round(table, 0)
    assert table.types(events) == ["RoundWon", "GameEnded"]  # no deal, no reshuffle for a 6th round
    assert table.state.chips == (15, 30)
    assert GAME.result(table.state) == {
        "winners": [1],
        "draw": False,
        "chips": [15, 30],
        "bankrupt": [],
        "reached_30": [1],
        "rounds": 5,
    }
    assert line(events[1], None) == "Game over: Bo wins with 30 chips to 15."
    assert GAME.to_act(table.state) == frozenset()
    assert all(GAME.legal_actions(table.state, s) == [] for s in (0, 1))
    assert table.view(0)["phase"] == "over" and table.view(0)["result"]["winners"] == [1]


def _fee_then_fold(table: Table) -> None:
    """Camp cards down, Ann pays one fee (after Bo's if Bo leads), then folds: Bo gains 4, Ann loses 1."""
    for seat in (0, 1):
        table.do(seat, GAME.legal_actions(table.state, seat)[0])
    for seat in [0] if GAME.to_act(table.state) == {0} else [1, 0]:
        table.do(seat, GAME.legal_actions(table.state, seat)[0])
    table.fold(0)


def test_the_end_check_comes_before_the_reshuffle_of_round_five() -> None:
    table = Table(seed=12)
    for _ in range(3):
        _fee_then_fold(table)
    assert table.state.chips == (12, 27)
    events = _quick_round(table, 0)
    assert table.state.chips == (12, 30) and len(table.state.pile) == 4
    assert table.types(events) == ["RoundWon", "GameEnded"]  # no DeckShuffled for a round never played


def test_a_player_with_4_chips_at_the_start_of_a_round_is_bankrupt() -> None:
    table = duel()
    table.state = replace(table.state, chips=(4, 26), pot=3)
    events = table.fold(0)
    assert events[-1]["type"] == "GameEnded" and events[-1]["bankrupt"] == [0]
    assert GAME.result(table.state)["winners"] == [1]
    assert line(events[-1], None) == "Game over: Ann is bankrupt with 4 chips; Bo wins with 29 chips."


def test_a_player_with_5_chips_plays_on() -> None:
    table = duel()
    table.state = replace(table.state, chips=(5, 26), pot=3)
    assert table.fold(0)[-1]["type"] == "RoundDealt"


def test_equal_chips_at_the_end_is_a_draw() -> None:
    table = duel()
    table.state = replace(table.state, chips=(30, 27), pot=3)
    events = table.fold(0)
    assert GAME.result(table.state) == {
        "winners": [0, 1],
        "draw": True,
        "chips": [30, 30],
        "bankrupt": [],
        "reached_30": [0, 1],
        "rounds": 1,
    }
    assert line(events[-1], None) == "Game over: a draw, both players have 30 chips."


def test_no_action_is_accepted_after_the_game_is_over() -> None:
    table = duel()
    table.state = replace(table.state, chips=(30, 27), pot=3)
    table.fold(0)
    for action in (FOLD, {"card": "2H"}):
        with pytest.raises(IllegalAction, match="The game is over"):
            GAME.act(table.state, 0, action)


# ----------------------------------------------------------------------------------- refusals


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
        {"card": None},
        {"card": "X99"},
        {"card": ["AS"]},
        {"card": "as"},
        {"fold": False},
        {"fold": "yes"},
        {"fold": 1},
        {"card": "2H", "fold": True},
    ],
)
def test_malformed_actions_are_refused_with_illegal_action(action: Any) -> None:
    table = duel()
    with pytest.raises(IllegalAction) as caught:
        GAME.act(table.state, 0, action)
    assert caught.value.msgid and str(caught.value)


def test_a_card_from_the_opponents_hand_is_refused() -> None:
    table = duel()
    with pytest.raises(IllegalAction, match="5 of clubs is not in your hand") as caught:
        table.card(0, "5C")
    assert caught.value.params == {"card": card_name("5C")}


@pytest.mark.parametrize("seat", [2, -1, "0", None])
def test_an_unknown_seat_is_refused(seat: Any) -> None:
    with pytest.raises(IllegalAction, match="no seat"):
        GAME.act(duel().state, seat, {"card": "2H"})


def test_act_leaves_the_state_it_was_given_unchanged_and_is_deterministic() -> None:
    table = duel()
    before = table.state
    first = GAME.act(before, 0, {"card": "2H"})
    assert GAME.act(before, 0, {"card": "2H"}) == first
    assert table.state is before and GAME.fold(table.events) == before


# ----------------------------------------------------------------------------------- views and lines


def test_views_are_plain_json_and_never_show_the_seed() -> None:
    table = Table(*HAND0, *HAND1, seed=918273645)
    table.camps("KH", "QS")
    table.card(0, "2H")
    for seat in (0, 1, None):
        view = table.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert "seed" not in json.dumps(view) and "918273645" not in json.dumps(view)
    assert table.view(None)["hand"] is None and table.view(None)["seat"] is None
    assert table.view(1)["to_act"] == [1] and table.view(1)["round"] == 1


def test_the_deal_line_shows_only_the_readers_own_hand() -> None:
    dealt = Table(*HAND0, *HAND1).events[2]
    assert line(dealt, 0) == (
        "Round 1 dealt, 6 cards each. Your hand: King of hearts, 9 of spades, 8 of spades, 7 of spades, "
        "3 of diamonds, 2 of hearts."
    )
    assert line(dealt, 1) == (
        "Round 1 dealt, 6 cards each. Your hand: Queen of spades, Jack of diamonds, 10 of diamonds, "
        "6 of hearts, 5 of clubs, 4 of clubs."
    )
    assert line(dealt, None) == "Round 1 dealt, 6 cards each."


def test_the_start_and_first_shuffle_lines() -> None:
    events = Table(*HAND0, *HAND1).events
    assert line(events[0], None) == "Game started: Ann and Bo have 15 chips each."
    assert line(events[1], 1) == "The deck is shuffled."
    assert GAME.describe({"type": "Unknown", "v": 1}, None, NAMES) is None


def test_a_play_won_on_equal_rank_says_the_suit_decided() -> None:
    table = Table("KS", "7H", "3H", "4H", "5H", "6H", "KC", "7D", "3D", "4D", "5D", "6D")
    table.camps("KS", "KC")
    table.card(0, "7H")
    won = table.card(1, "7D")[-1]
    assert won["reason"] == "suit" and won["winner"] == 0
    assert line(won, None) == (
        "Ann played 7 of hearts, Bo played 7 of diamonds: Ann wins the play "
        "(7 of hearts, same rank, stronger suit). Red 1, Black 0."
    )
