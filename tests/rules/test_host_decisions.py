"""The host's decisions about the table (a new player, the seat-keeper, more time, a draw) are events
of the log folded alike by every game: the table ones change nothing of the play, a draw ends it with
every seat among the winners, and each reads as a line in words."""

from __future__ import annotations

import json

import pytest

from rules import GAMES, IllegalAction, get_game
from rules.table import (
    DEADLINE_EXTENDED,
    DRAWN,
    SEAT_KEPT,
    SEAT_REPLACED,
    draw_decision,
    extend_decision,
    keep_decision,
    replace_decision,
)
from tests.rules.test_closing import NAMES, SEATS, cut_game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_table_decisions_change_nothing_of_the_play(game: str, seed: int) -> None:
    rules = get_game(game)
    log = cut_game(game, seed)
    state = rules.fold(log)
    seats = SEATS[game]
    owing = min(rules.to_act(state))
    decisions = [
        replace_decision(seed % seats, "Eve", NAMES[seed % seats]),
        keep_decision(owing, True),
        keep_decision(owing, False),
        extend_decision(owing, 3),
    ]
    events = [event for decision in decisions for event in rules.table.decide(state, decision, seats)]
    assert [event["type"] for event in events] == [SEAT_REPLACED, SEAT_KEPT, SEAT_KEPT, DEADLINE_EXTENDED]
    after = rules.fold(json.loads(json.dumps(log + events)))  # as stored
    assert after == state
    assert rules.to_act(after) == rules.to_act(state) and rules.result(after) is None
    for viewer in [None, *range(seats)]:
        assert rules.view(after, viewer) == rules.view(state, viewer)
    lines = [rules.describe(event, None, NAMES) for event in events]
    assert lines[0] == (
        "The host gave the seat of %(replaced)s to %(player)s.",
        {
            "replaced": NAMES[seed % seats],
            "player": "Eve",
        },
    )
    assert all(line is not None and "host" in line[0] for line in lines)
    for event in events:
        rules.heading(after, event)  # every game places it in its replay


@pytest.mark.parametrize("game", GAMES)
def test_a_draw_ends_the_game_with_every_seat_among_the_winners(game: str) -> None:
    rules = get_game(game)
    log = cut_game(game, 3)
    seats = SEATS[game]
    events = rules.table.decide(rules.fold(log), draw_decision("host"), seats)
    assert events == [rules.event(DRAWN, by="host", winners=list(range(seats)))]
    ended = rules.fold(json.loads(json.dumps(log + events)))
    assert rules.result(ended) == {"winners": list(range(seats)), "draw": True}
    assert rules.to_act(ended) == frozenset() and not rules.table.cancelled(ended)
    assert rules.view(ended, None)["closure"] == {"drawn": True, "by": "host", "winners": list(range(seats))}
    assert rules.describe(events[0], 0, NAMES) == ("The host ended the game as a draw.", {})
    with pytest.raises(IllegalAction):
        rules.table.decide(ended, extend_decision(0, 1), seats)


@pytest.mark.parametrize(
    "decision",
    [
        replace_decision(9, "Eve", "Ann"),
        replace_decision(0, " ", "Ann"),
        keep_decision(-1, True),
        extend_decision(0, 0),
        {"decision": "extend", "seat": 0, "days": True},
        {"decision": "keep", "seat": 0, "by_keeper": "yes"},
        {"decision": "replace", "seat": 0, "name": "Eve"},
        {"decision": "draw"},
    ],
)
def test_malformed_decisions_are_refused(decision: dict) -> None:
    rules = get_game("red_black")
    with pytest.raises(IllegalAction):
        rules.table.decide(rules.fold(rules.start(1, 2, {})), decision, 2)


def test_more_time_only_for_a_seat_the_game_waits_on() -> None:
    rules = get_game("dualis")
    state = rules.fold(rules.start(1, 4, {}))
    idle = next(seat for seat in range(4) if seat not in rules.to_act(state))
    with pytest.raises(IllegalAction, match="not waiting"):
        rules.table.decide(state, extend_decision(idle, 2), 4)
