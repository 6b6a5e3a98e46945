"""Each game's action shapes (RULINGS.md, "Actions") are part of the rules contract: every legal
action has one of them, and `act` answers any JSON value whatever with events or an IllegalAction,
never another exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GAMES, IllegalAction, get_game
from rules.shapes import Choice, check_action
from tests.rules.test_contract import played_states

# Any JSON value, leaning towards the keys and values of real actions so that most reach the rules.
KEYS = st.sampled_from(["card", "coin", "trump", "set", "target", "cancel", "fold", "seat", "slot", "x"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-1, max_value=5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["S9B", "M13R", "G3", "G", "R", "AS", "10H", "drill", "tyranny", "benevolence"])
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(KEYS | st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)
STATES = {game: played_states(game, seed=7)[:40:3] for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_has_one_of_the_games_shapes(game: str) -> None:
    rules = get_game(game)
    for seed in (1, 2):
        for state in played_states(game, seed):
            for seat in range(4 if game != "red_black" else 2):
                for action in rules.legal_actions(state, seat):
                    assert check_action(rules.action_shapes, action) == action


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=JSON_VALUES, pick=st.integers(min_value=0))
def test_act_answers_any_json_value_with_events_or_an_illegal_action(
    game: str, action: Any, pick: int
) -> None:
    rules = get_game(game)
    state = STATES[game][pick % len(STATES[game])]
    for seat in sorted(rules.to_act(state)) or [0]:
        try:
            events = rules.act(state, seat, action)
        except IllegalAction as refusal:
            assert refusal.msgid
        else:
            assert all(isinstance(event, dict) and "type" in event for event in events)


@pytest.mark.parametrize("game", GAMES)
def test_a_malformed_action_is_refused_naming_what_is_wrong(game: str) -> None:
    rules = get_game(game)
    state = STATES[game][0]
    for action, wording in (
        ([1, 2], "An action is a JSON object"),
        ({"nothing": 1}, "Unknown action"),
        ({**rules.action_shapes[0].example(), "extra": 1}, '"extra" has no place in this action'),
        ({next(iter(rules.action_shapes[0].required)): 10**5000}, ""),  # past str()'s digits limit
    ):
        with pytest.raises(IllegalAction) as refusal:
            rules.act(state, 0, action)
        assert wording in str(refusal.value)


@pytest.mark.parametrize(
    ("values", "value"),
    [
        ((True,), 1),  # JSON true is not the number 1, nor 1 true
        ((True,), 1.0),
        ((0, 1, 2, 3), True),
        ((0, 1, 2, 3), 1.0),
        (("S9B",), ["S9B"]),  # a list or an object is no choice, and is refused, not a TypeError
        (("S9B",), {"S9B": 1}),
        ((0, 1), float("nan")),
    ],
)
def test_a_choice_takes_its_own_values_only_of_their_own_json_type(
    values: tuple[Any, ...], value: Any
) -> None:
    choice = Choice(values, "Not one of them: %(value)s.")
    for accepted in values:
        choice.check(accepted)
    with pytest.raises(IllegalAction) as refusal:
        choice.check(value)
    assert refusal.value.msgid == "Not one of them: %(value)s."
