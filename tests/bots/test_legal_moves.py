"""The seat-keeper only ever plays legal moves: in random positions of every game and option
combination (for every seat the game waits on), and in whole games played by keepers alone."""

from __future__ import annotations

import inspect
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots import choose_action
from tests.bots.table import CONFIGS, Config, Table, keeper_pick, play, random_pick

IDS = [c.label for c in CONFIGS]


def check_keeper_everywhere(config: Config, seed: int, walk: int, every: int) -> int:
    """Walk a random game; every `every` moves ask the keeper for each waiting seat and check that
    its move is one of the legal actions and that the rules accept it. The positions checked."""
    table = Table.start(config.name, seed, config.seats, config.options)
    rng = random.Random(walk)
    checked = moves = 0
    while not table.over:
        if moves % every == 0:
            for seat in table.waiting:
                legal = table.legal(seat)
                action = choose_action(table.game, table.view(seat), legal, seat)
                assert action in legal
                assert any(action is a for a in legal), "the keeper hands back the legal object itself"
                assert table.game.act(table.state, seat, action)  # accepted: events, no IllegalAction
                checked += 1
        seat = rng.choice(table.waiting)
        table.do(seat, rng.choice(table.legal(seat)))
        moves += 1
    return checked


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), walk=st.integers(0, 2**31 - 1))
def test_the_keeper_move_is_legal_and_accepted_in_random_positions(
    config: Config, seed: int, walk: int
) -> None:
    """Thousands of positions over the run: each random game is checked at every move (every third
    in the long trick-taking games)."""
    every = 1 if config.name in ("dupli", "red_black") else 3
    assert check_keeper_everywhere(config, seed, walk, every) > 0


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_keepers_alone_play_whole_games_to_the_end(config: Config) -> None:
    """Bot against bot in every seat, for two seeds: each game ends with a result and winners."""
    for seed in (11, 12):
        table = Table.start(config.name, seed, config.seats, config.options)
        assert play(table, keeper_pick) > 0
        result = table.game.result(table.state)
        assert result is not None and result["winners"]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_keeper_seat_among_random_players_finishes_the_game(config: Config) -> None:
    """One keeper seat, the others random: the mixed table also plays to the end."""
    rng = random.Random(config.label)
    random_move = random_pick(rng)
    table = Table.start(config.name, 5, config.seats, config.options)
    play(table, lambda t, seat: keeper_pick(t, seat) if seat == 0 else random_move(t, seat))
    assert table.over


def test_a_single_legal_action_is_returned_as_it_is() -> None:
    """With one legal move there is nothing to decide: that very object comes back."""
    table = Table.start("dualis", 3, 4, {"first_leader": 0})
    seat = table.waiting[0]
    view = table.view(seat)
    only = [table.legal(seat)[0]]
    assert choose_action(table.game, view, only, seat) is only[0]


def test_a_seat_the_game_is_not_waiting_on_is_refused() -> None:
    """Red and Black Duel lets the seat off turn fold; that single legal action is never the
    keeper's to take, so asking for that seat is an error rather than a fold."""
    table = Table.start("red_black", 4, 2)
    table.do(0, table.keeper(0))
    table.do(1, table.keeper(1))  # camps revealed, the pot is set: play begins
    (turn,) = table.waiting
    other = 1 - turn
    assert table.legal(other) == [{"fold": True}]
    with pytest.raises(ValueError, match="not waiting on seat"):
        choose_action(table.game, table.view(other), table.legal(other), other)


def test_a_view_of_another_seat_is_refused() -> None:
    """The keeper decides for the seat whose view it is given, no other."""
    table = Table.start("dupli", 4, 4)
    with pytest.raises(ValueError, match="belongs to seat 1"):
        choose_action(table.game, table.view(1), table.legal(0), 0)


def test_the_keeper_is_deterministic() -> None:
    """The same view and legal list give the same move, every time."""
    for name, seats in (("dualis", 4), ("double_side", 4), ("dupli", 4), ("red_black", 2)):
        table = Table.start(name, 21, seats)
        seat = table.waiting[0]
        first = table.keeper(seat)
        assert all(table.keeper(seat) == first for _ in range(3))


def test_the_keeper_is_given_only_a_view_and_the_legal_actions() -> None:
    """Its signature takes no state: what it knows is what the seat's page shows."""
    assert list(inspect.signature(choose_action).parameters) == ["game", "view", "legal", "seat"]
