"""The search bots: every level decides from the seat's view alone (the hidden parts of the real game
shuffled, the view the same: the same move), always legally, the same on a re-run, and a search
that fails or runs past its guard gives the seat-keeper's move and says why."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import LEVELS, choose_action, decide, search_seed
from bots import search as search_module
from bots.outcomes import OUTCOMES
from rules.rng import SeededRandom
from rules.table import BOT_LEVELS
from tests.bots.table import CONFIGS, Config, Table

# One configuration per game keeps the search's CPU in bounds; the variants share the search.
GAMES = [
    Config("dualis", 4, {"short": True}),
    Config("double_side", 4, {"trump": True}),
    Config("dupli", 4, {}),
    Config("red_black", 2, {}),
]


def position(config: Config, seed: int, moves: int) -> Table:
    """A running game of `config` after some seat-keeper moves, waiting on a seat with a choice."""
    table = Table.start(config.name, seed, config.seats, config.options)
    for _ in range(moves):
        seat = table.waiting[0]
        table.do(seat, table.keeper(seat))
    while len(table.legal(table.waiting[0])) < 2:
        table.do(table.waiting[0], table.keeper(table.waiting[0]))
    return table


def test_the_levels_are_the_rules_levels() -> None:
    assert list(LEVELS) == list(BOT_LEVELS) == ["keeper", "steady", "strong"]


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("config", GAMES, ids=lambda c: c.label)
def test_every_level_makes_the_same_move_whatever_the_hidden_cards(config: Config, level: str) -> None:
    table = position(config, seed=3, moves=5)
    seat = table.waiting[0]
    view, legal = table.view(seat), table.legal(seat)
    moves = set()
    for shuffle in range(3):  # the real state's hidden parts dealt again: the same view, other cards
        other = table.game.determinize(view, SeededRandom(shuffle, "shuffled"))
        assert other != table.state and table.game.view(other, seat) == view
        decision = decide(
            table.game, table.game.view(other, seat), table.game.legal_actions(other, seat), seat, level, 7
        )
        assert decision.fallback is None
        moves.add(repr(decision.action))
    assert moves == {repr(decide(table.game, view, legal, seat, level, 7).action)}


@pytest.mark.parametrize("config", GAMES, ids=lambda c: c.label)
def test_a_search_bot_plays_a_whole_game_legally_and_the_same_on_a_rerun(config: Config) -> None:
    def game_with_a_bot() -> list[dict[str, object]]:
        table = Table.start(config.name, 11, config.seats, config.options)
        step = 0
        while not table.over and step < 400:
            seat, step = table.waiting[0], step + 1
            legal = table.legal(seat)
            if seat == 0:
                action = decide(
                    table.game, table.view(seat), legal, seat, "steady", search_seed(11, step, seat)
                ).action
                assert action in legal
            else:
                action = table.keeper(seat)
            table.do(seat, action)
        return table.events

    assert game_with_a_bot() == game_with_a_bot()


@pytest.mark.parametrize("config", [c for c in GAMES if OUTCOMES[c.name].keeper_cost], ids=lambda c: c.label)
def test_where_a_games_rollouts_play_as_the_keeper_each_rollout_move_is_the_keepers(config: Config) -> None:
    table = position(config, seed=4, moves=3)
    seat = table.waiting[0]
    strong = LEVELS["strong"]
    assert strong is not None
    search = search_module.Search(table.game, seat, strong, 9, table.view(seat))
    before = table.state
    after = search.rollout_move(before, random.Random(0))
    table.do(seat, table.keeper(seat))
    assert after == table.state
    assert search.moves == OUTCOMES[config.name].keeper_cost  # what the keeper's move costs the budget


def test_another_action_is_clearly_better_only_by_more_than_the_margin_in_standard_errors() -> None:
    keeper = [0.0, 1.0, 0.5, 0.0]
    assert search_module.clearly_better([0.5, 1.5, 1.0, 0.5], keeper, margin=1.0)  # ahead in every world
    assert not search_module.clearly_better([1.0, 0.0, 1.0, 0.0], keeper, margin=1.0)  # luck, not gain
    assert search_module.clearly_better([1.0, 0.0, 1.0, 0.0], keeper, margin=0.1)
    assert not search_module.clearly_better([1.0], [0.0], margin=1.0)  # one world tells no spread


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=4, max_size=4), st.floats(1, 4))
def test_over_two_worlds_an_action_is_clearly_better_only_if_ahead_of_the_keepers_in_both(
    values: list[float], margin: float
) -> None:
    # Why the second of two worlds plays only the actions ahead in the first.
    first, second, keepers_first, keepers_second = values
    if search_module.clearly_better([first, second], [keepers_first, keepers_second], margin):
        assert first > keepers_first and second > keepers_second


def test_the_second_of_two_worlds_plays_the_actions_ahead_of_the_keepers_in_the_first() -> None:
    assert search_module.Search.contenders([[0.5], [0.2], [0.9], [0.5], [0.6]], kept=0) == [0, 2, 4]
    assert search_module.Search.contenders([[0.5], [0.2], [0.5]], kept=0) == []  # a tie is not ahead


@pytest.mark.parametrize("config", GAMES, ids=lambda c: c.label)
def test_a_steady_search_of_two_worlds_chooses_only_an_action_searched_in_both(config: Config) -> None:
    steady = LEVELS["steady"]
    assert steady is not None
    two_worlds = replace(steady, min_worlds=2, max_worlds=2)
    raced = 0
    for seed in range(4):
        table = position(config, seed=seed, moves=6)
        seat = table.waiting[0]
        view, legal = table.view(seat), table.legal(seat)
        keepers = choose_action(table.game, view, legal, seat)
        search = search_module.Search(table.game, seat, two_worlds, 7, view)
        values = search.values(legal, keepers)
        in_both = [action for action, found in zip(legal, values, strict=True) if len(found) == 2]
        assert all(found for found in values)  # every action played the first world
        assert search.choose(legal, keepers, values) in [*in_both, keepers]
        raced += 1 < len(in_both) < len(legal)
    assert raced  # some position played a second world for some actions and not others


@pytest.mark.parametrize("config", GAMES, ids=lambda c: c.label)
def test_a_margin_leaves_the_keepers_move_only_when_the_worlds_clearly_say_so(
    config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    steady = LEVELS["steady"]
    assert steady is not None
    searched, kept = [], []
    for seed in range(5):
        table = position(config, seed=seed, moves=10)
        seat = table.waiting[0]
        view, legal = table.view(seat), table.legal(seat)
        keepers = choose_action(table.game, view, legal, seat)
        for margin, into in ((0.0, searched), (1e9, kept)):
            monkeypatch.setitem(LEVELS, "steady", replace(steady, margin=margin))
            into.append(decide(table.game, view, legal, seat, "steady", 5).action == keepers)
    assert all(kept)  # no gain is that sure: the keeper's move every time
    assert not all(searched)  # without a margin, the search leaves it somewhere


def test_an_unknown_level_is_refused() -> None:
    table = position(GAMES[3], seed=1, moves=0)
    seat = table.waiting[0]
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        decide(table.game, table.view(seat), table.legal(seat), seat, "grandmaster", 1)


def test_a_search_that_fails_gives_the_keepers_move_and_why() -> None:
    table = position(GAMES[0], seed=2, moves=3)
    seat = table.waiting[0]
    view, legal = table.view(seat), table.legal(seat)
    broken = {**view, "hand": view["hand"] + ["S1R"] * 60}  # a view no deal fits
    decision = decide(table.game, broken, legal, seat, "strong", 5)
    assert decision.action == choose_action(table.game, broken, legal, seat)
    assert decision.fallback is not None and "Inconsistent" in decision.fallback


def test_a_search_past_its_cpu_guard_gives_the_keepers_move(monkeypatch: pytest.MonkeyPatch) -> None:
    table = position(GAMES[0], seed=2, moves=3)
    seat = table.waiting[0]
    view, legal = table.view(seat), table.legal(seat)
    strong = LEVELS["strong"]
    assert strong is not None
    monkeypatch.setitem(LEVELS, "strong", replace(strong, cpu_seconds=0.0))
    decision = search_module.decide(table.game, view, legal, seat, "strong", 5)
    assert decision.action == choose_action(table.game, view, legal, seat)
    assert decision.fallback is not None and "OverBudget" in decision.fallback


def test_the_search_seed_changes_with_the_step_and_hides_the_game_seed() -> None:
    seeds = {search_seed(42, step, 0) for step in range(50)}
    assert len(seeds) == 50
    assert search_seed(42, 1, 0) == search_seed(42, 1, 0) != search_seed(43, 1, 0)
    assert all(seed != 42 for seed in seeds)


def test_every_configuration_can_be_dealt_for_a_search() -> None:
    rng = random.Random(0)
    for config in CONFIGS:
        table = position(config, seed=rng.randrange(1000), moves=2)
        seat = table.waiting[0]
        table.game.determinize(table.view(seat), SeededRandom(0))
