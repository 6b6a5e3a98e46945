"""`Game.determinize`: a seat's view dealt again into a complete state. Property tests over random
positions of every game and variant: the dealt state shows the seat exactly its view, offers it the
same legal actions and plays on under the rules; over many deals every hidden card turns up where the
real game holds it (the real deal is one of the consistent ones, so a sampler that never produced it
would be leaving consistent placements out), every card can lie in every place nothing rules out, and
none ever lies where the view rules it out (a suit a seat showed it lacks)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.determinize import Inconsistent, Place, deal_hidden
from rules.dualis.cards import suit_of
from rules.game import Game
from rules.rng import SeededRandom
from tests.bots.table import CONFIGS, Config, Table

SAMPLES = 120


def walk(config: Config, seed: int, moves: int) -> Table:
    """A game of `config` after up to `moves` random legal moves (never past its end); Red and
    Black's folds are rare so that rounds go on."""
    table = Table.start(config.name, seed, config.seats, config.options)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = table.waiting[0] if table.waiting else None
        if table.over or seat is None:
            break
        legal = table.legal(seat)
        plays = [a for a in legal if "fold" not in a] or legal
        table.do(seat, rng.choice(plays))
    return table


def positions(config: Config, seeds: Iterable[int], moves: Iterable[int]) -> list[Table]:
    """Running games of `config` at several depths."""
    tables = (walk(config, seed, n) for seed in seeds for n in moves)
    return [t for t in tables if not t.over and t.waiting]


def places(game: Game[Any], state: Any) -> dict[str, list[str]]:
    """Where each hidden part of a state lies, by a name per place: hands, sets, the cards set
    aside, the draw pile and the discards, a face-down card."""
    out: dict[str, list[str]] = {f"hand{s}": list(h) for s, h in enumerate(state.hands)}
    out["set_aside"] = list(getattr(state, "set_aside", ()))
    if game.name == "dupli":
        out |= {f"set{s}": list(pair or ()) for s, pair in enumerate(state.sets)}
    if game.name == "red_black":
        out |= {"pile": list(state.pile), "discards": list(state.discards)}
        out |= {f"down{s}": [c for c in (state.table[s], state.camp_cards[s]) if c] for s in (0, 1)}
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 160), sampler=st.integers(0, 2**32))
def test_a_dealt_state_shows_the_seat_its_view(config: Config, seed: int, moves: int, sampler: int) -> None:
    table = walk(config, seed, moves)
    if table.over or not table.waiting:
        return
    game = table.game
    for seat in range(config.seats):
        view = table.view(seat)
        dealt = game.determinize(view, SeededRandom(sampler, seat))
        assert game.view(dealt, seat) == view
        assert game.legal_actions(dealt, seat) == table.legal(seat)
        mover = sorted(game.to_act(dealt))[0]
        assert sorted(game.to_act(dealt)) == table.waiting
        for action in game.legal_actions(dealt, mover):  # the rules play on from the dealt state
            game.act(dealt, mover, action)


@pytest.mark.parametrize(
    "config", [c for c in CONFIGS if not c.options.get("open_history")], ids=lambda c: c.label
)
def test_every_hidden_card_turns_up_where_the_real_game_holds_it(config: Config) -> None:
    for table in positions(config, seeds=(1, 2), moves=(0, 7, 19)):
        seat = table.waiting[0]
        view, game = table.view(seat), table.game
        real = places(game, table.state)
        seen: dict[str, set[str]] = {name: set() for name in real}
        for n in range(SAMPLES):
            for name, cards in places(game, game.determinize(view, SeededRandom(n, "spread"))).items():
                seen[name] |= set(cards)
        for name, cards in real.items():
            assert set(cards) <= seen[name], f"{name}: {set(cards) - seen[name]} never dealt there"


def test_with_nothing_known_every_unseen_card_can_lie_in_every_hidden_place() -> None:
    table = Table.start("dualis", 3, 4, {"short": True, "first_leader": 0})
    view = table.view(0)
    spread: dict[str, set[str]] = {}
    for n in range(SAMPLES * 2):
        for name, cards in places(table.game, table.game.determinize(view, SeededRandom(n))).items():
            for card in cards:
                spread.setdefault(card, set()).add(name)
    unseen = set(spread) - set(view["hand"])
    assert len(unseen) == 52 - 9
    assert all(spread[card] == {"hand1", "hand2", "hand3", "set_aside"} for card in unseen)


def test_a_suit_a_seat_did_not_follow_is_never_dealt_to_it() -> None:
    for seed, moves in ((seed, moves) for seed in range(40) for moves in (36, 40, 44)):
        table = walk(Config("dualis", 4, {}), seed, moves)
        last = table.view(0)["last_trick"]
        led = last["led_suit"] if last else None
        renounced = [p["seat"] for p in (last or {"plays": []})["plays"] if suit_of(p["card"]) != led]
        others = [s for s in renounced if s != 0]
        if not others or table.over or not table.waiting:
            continue
        for n in range(30):
            dealt = table.game.determinize(table.view(0), SeededRandom(n))
            assert all(suit_of(c) != led for s in others for c in dealt.hands[s])
        return
    pytest.fail("no position where another seat showed a void")


def test_a_dupli_charge_window_keeps_the_charges_where_they_were_turned_up() -> None:
    for seed in range(200):
        table = walk(Config("dupli", 4, {}), seed, 4)
        view = table.view(table.waiting[0]) if table.waiting else None
        if (
            view is None
            or view["phase"] != "charge"
            or table.waiting[0] in {c["seat"] for c in view["charge"]["face_up"]}
        ):
            continue
        for n in range(40):
            dealt = table.game.determinize(view, SeededRandom(n))
            for up in view["charge"]["face_up"]:
                assert dealt.sets[up["seat"]][up["slot"]] == "charge"
            for seat in view["charge"]["answering"]:
                if seat != view["seat"]:
                    assert "charge" not in (dealt.sets[seat] or ())
        return
    pytest.fail("no Charge window reached")


def test_dealing_is_reproducible_from_the_seeded_random() -> None:
    table = walk(Config("double_side", 4, {"trump": True}), 5, 20)
    view = table.view(table.waiting[0])
    first, again, other = (table.game.determinize(view, SeededRandom(n, "same")) for n in (1, 1, 2))
    assert first == again
    assert first != other


def test_a_view_no_deal_fits_is_refused() -> None:
    with pytest.raises(Inconsistent):
        deal_hidden(["S1R"], [Place("hand", 1, frozenset({"S"}))], suit_of, SeededRandom(0))
    with pytest.raises(Inconsistent):
        deal_hidden(["S1R", "S2R"], [Place("hand", 1)], suit_of, SeededRandom(0))


def test_a_finished_game_or_a_spectator_has_nothing_to_deal() -> None:
    table = Table.start("red_black", 1, 2)
    with pytest.raises(ValueError):
        table.game.determinize(table.game.view(table.state, None), SeededRandom(0))
