"""The replay part of the rules contract: `view` / `describe` seen `as_of` a later state keep
collected tricks face down (RULINGS.md §1) and otherwise equal the live `view` / `describe`,
`open_view` shows every card, and `heading` and `score_sheet` follow the rounds and wars of the log."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from rules import GAMES, get_game
from rules.double_side.cards import DECK as DOUBLE_SIDE_DECK
from rules.dualis.cards import CARDS as DUALIS_CARDS
from rules.game import START

NAMES = ["Ann", "Bo", "Cy", "Di"]
SEATS = {"dualis": 4, "double_side": 3, "dupli": 3, "red_black": 2}
FACE_DOWN_PLAY = "%(player)s played a card (face down now: a collected trick)."


def logged(game: str, options: dict[str, Any], moves: int | None, seed: int = 1) -> tuple[list, list]:
    """A game's events and the state after each, playing random legal moves (None: to the end)."""
    rules, rng = get_game(game), random.Random(seed)
    events = rules.start(seed, SEATS[game], options)
    states = []
    state = None
    for event in events:
        state = rules.apply(state, event)
        states.append(state)
    made = 0
    while rules.result(state) is None and (moves is None or made < moves):
        seat = rng.choice(sorted(rules.to_act(state)))
        for event in rules.act(state, seat, rng.choice(rules.legal_actions(state, seat))):
            state = rules.apply(state, event)
            events.append(event)
            states.append(state)
        made += 1
    return events, states


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_seen_at_its_own_step_is_the_view(game: str) -> None:
    """Seen from the state itself nothing was hidden since: the replay's view is the view, every step of
    a whole game, from the table before the first deal on."""
    rules = get_game(game)
    events, states = logged(game, {}, None)
    for event, state in zip(events, states, strict=True):
        for seat in [None, *range(SEATS[game])]:
            assert rules.view(state, seat, as_of=state) == rules.view(state, seat)
            assert rules.describe(event, seat, NAMES, as_of=state) == rules.describe(event, seat, NAMES)


@pytest.mark.parametrize("game", GAMES)
def test_the_open_view_shows_every_hand(game: str) -> None:
    rules = get_game(game)
    _, states = logged(game, {}, 3)
    state = states[-1]
    view = rules.open_view(state)
    hands = [list(h) for h in state.hands]
    assert sorted(map(sorted, view["hands"])) == sorted(map(sorted, hands))
    assert json.loads(json.dumps(view)) == view


def dualis_game(moves: int, **options: Any) -> tuple[list, list]:
    """Duālis with the deck in card order (seats 0-1 hold Stars, 2-3 Moons), Ann leading."""
    return logged("dualis", {"deck": list(DUALIS_CARDS), "first_leader": 0, **options}, moves)


def in_trick(states: list, number: int, plays: int) -> Any:
    """The first state with `plays` cards of trick `number` (of round 1) on the table."""
    return next(
        s for s in states if s.round == 1 and len(s.completed) == number - 1 and len(s.trick) == plays
    )


def test_dualis_replay_keeps_earlier_tricks_face_down_until_the_end() -> None:
    rules = get_game("dualis")
    events, states = dualis_game(30)  # 7 tricks done, 2 cards of trick 8 down
    now = states[-1]
    then = in_trick(states, 3, 2)  # trick 3 half played, trick 2 the last one completed
    seat = next(iter(rules.to_act(then)))
    seen, was = rules.view(then, seat, as_of=now), rules.view(then, seat)
    assert [p["card"] for p in seen["trick"]["plays"]] == [None, None]
    assert [p["seat"] for p in seen["trick"]["plays"]] == [p["seat"] for p in was["trick"]["plays"]]
    assert seen["trick"]["led_suit"] is seen["trick"]["winning_now"] is None
    assert seen["choices"] == [] and was["choices"]
    assert {c["playable"] for group in seen["hand_by_suit"] for c in group["cards"]} == {None}
    assert seen["hand"] == was["hand"]  # the seat's own cards it held then
    assert seen["last_trick"]["card"] is None and seen["last_trick"]["winner"] == was["last_trick"]["winner"]
    assert {p["card"] for p in seen["last_trick"]["plays"]} == {None}
    assert seen["players"] == was["players"] and seen["centre"] == was["centre"]
    played = next(e for e in events if e["type"] == "CardPlayed" and e["trick"] == 3)
    assert rules.describe(played, seat, NAMES, as_of=now)[0] == FACE_DOWN_PLAY
    won = next(e for e in events if e["type"] == "TrickWon" and e["trick"] == 3)
    line = rules.describe(won, None, NAMES, as_of=now)
    assert line == ("%(player)s won trick %(trick)s (its cards lie face down now).", line[1])
    # The trick on the table now and the last one completed are shown at their steps.
    on_table = next(e for e in events if e["type"] == "CardPlayed" and e["trick"] == 8)
    assert rules.describe(on_table, seat, NAMES, as_of=now) == rules.describe(on_table, seat, NAMES)
    last = in_trick(states, 8, 1)
    assert rules.view(last, seat, as_of=now) == rules.view(last, seat)


def test_dualis_open_history_and_the_end_hide_nothing() -> None:
    rules = get_game("dualis")
    _, states = dualis_game(30, open_history=True)
    then = in_trick(states, 3, 2)
    assert rules.view(then, 1, as_of=states[-1]) == rules.view(then, 1)
    _, states = dualis_game(None)
    then = in_trick(states, 3, 2)
    assert rules.view(then, 1, as_of=states[-1]) == rules.view(then, 1)
    assert len(rules.open_view(then)["history"]) == 2  # face up: every trick of the round


def test_double_side_replay_keeps_earlier_tricks_face_down() -> None:
    rules = get_game("double_side")
    events, states = logged("double_side", {"deck": list(DOUBLE_SIDE_DECK)}, 20)
    now = states[-1]
    then = next(s for s in states if s.round == 1 and s.trick_number == 2 and len(s.trick) == 1)
    seat = next(iter(rules.to_act(then)))
    seen, was = rules.view(then, seat, as_of=now), rules.view(then, seat)
    assert [p["card"] for p in seen["current_trick"]["plays"]] == [None]
    assert seen["current_trick"]["led"] is None and was["current_trick"]["led"]
    assert {card["playable"] for card in seen["hand"]} == {None}
    assert seen["last_trick"]["winning_card"] is None and seen["tricks"][0]["winning_card"] is None
    assert [c["card"] for c in seen["hand"]] == [c["card"] for c in was["hand"]]
    played = next(e for e in events if e["type"] == "CardPlayed" and e["trick"] == 2)
    assert rules.describe(played, None, NAMES, as_of=now)[0] == FACE_DOWN_PLAY


def codes(value: object) -> set[str]:
    """Every word of a JSON value (card codes among them)."""
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(value)))


@pytest.mark.parametrize(("game", "moves"), [("dualis", 60), ("double_side", 50)])
def test_no_card_of_a_trick_face_down_now_is_in_any_past_step(game: str, moves: int) -> None:
    """Whatever part of a view shows it (a key added tomorrow too), a card played into a trick that
    lies face down now is in no observer's replay of any step of its round after it left the hand,
    nor before that in any view but its player's (whose hand held it)."""
    rules = get_game(game)
    events, states = logged(game, {}, moves, seed=3)
    now = states[-1]
    window = rules.window(now)
    for step, event in enumerate(events):
        if event["type"] != "CardPlayed" or window.shows(event["round"], event["trick"]):
            continue
        for then, state in enumerate(states):
            if state.round != event["round"]:
                continue
            for seat in [None, *range(SEATS[game])]:
                if seat == event["seat"] and then < step:
                    continue  # still in its player's hand
                seen = rules.view(state, seat, as_of=now)
                assert event["card"] not in codes(seen), f"{event['card']} at step {then} for seat {seat}"


def test_headings_follow_rounds_and_tricks_and_the_score_sheet_scores_them() -> None:
    rules = get_game("dualis")
    events, states = dualis_game(None)
    headings = [rules.heading(s, e) for e, s in zip(events, states, strict=True)]
    assert headings[0] == START
    assert [h.chapter for h in headings] == sorted(h.chapter for h in headings)
    tricks = {(h.chapter, h.part) for h in headings if h.part is not None}
    assert tricks == {(e["round"], e["trick"]) for e in events if e["type"] == "TrickWon"}
    sheet = rules.score_sheet(states[-1])
    scored = [e for e in events if e["type"] == "RoundScored"]
    assert [row.chapter for row in sheet.rows] == [e["round"] for e in scored]
    assert [list(row.winners) for row in sheet.rows] == [e["winners"] for e in scored]
    assert sheet.columns == ((0, 2), (1, 3))


@pytest.mark.parametrize(
    ("game", "kind", "field"), [("dupli", "WarResolved", "war"), ("red_black", "RoundWon", "round")]
)
def test_each_war_or_round_is_a_chapter_with_a_score_row(game: str, kind: str, field: str) -> None:
    rules = get_game(game)
    events, states = logged(game, {}, None, seed=4)
    chapters = [rules.heading(s, e).chapter for e, s in zip(events, states, strict=True)]
    assert chapters == sorted(chapters) and chapters[0] == 0
    ends = [e[field] for e in events if e["type"] == kind]
    assert [row.chapter for row in rules.score_sheet(states[-1]).rows] == ends
    for event, state in zip(events, states, strict=True):
        if event["type"] == kind:
            assert rules.heading(state, event).chapter == event[field]
