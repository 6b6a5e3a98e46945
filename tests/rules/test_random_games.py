"""The rules contract checked on random legal games of every game and option combination (after
OpenSpiel's random_sim_test; seeded cases for every combination, plus games hypothesis draws): cards
conserved, the fold of the stored log equal to the live state, `act` pure and deterministic, every
listed action accepted, no hidden card or choice shown to another seat, words for every event, a
consistent result. Each game adds its own invariants through a `Spec`; its rulebook's worked examples
stay in its own module."""

from __future__ import annotations

import itertools
import json
import random
import re
import typing
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import GAMES, IllegalAction, get_game
from rules.double_side.cards import DECK as DOUBLE_SIDE_DECK
from rules.double_side.cards import targets
from rules.double_side.view import DoubleSideView
from rules.dualis.cards import CARD_INFO, side_score
from rules.dualis.cards import CARDS as DUALIS_CARDS
from rules.dualis.view import DualisView
from rules.dupli.cards import FULL_DECK as DUPLI_DECK
from rules.dupli.view import DupliView
from rules.game import Event, Game
from rules.messages import plain
from rules.red_black import card_name as red_black_card_name
from rules.red_black.cards import DECK as RED_BLACK_DECK
from rules.red_black.view import RedBlackDuelView as RedBlackView

NAMES = ["Ann", "Bo", "Cy", "Di"]
WORD = re.compile(r"[A-Za-z0-9]+")
FOLD = {"fold": True}


def words(value: object) -> set[str]:
    """Every alphanumeric word of a JSON value (card codes among them)."""
    return set(WORD.findall(json.dumps(value)))


def js(value: object) -> str:
    """A JSON value as canonical text."""
    return json.dumps(value, sort_keys=True)


def fold_on(rules: Game[Any], state: Any, events: Sequence[Event]) -> Any:
    """The state after `events`, folded on from `state`."""
    for event in events:
        state = rules.apply(state, event)
    return state


# ----------------------------------------------------------------------------- the generic run


@dataclass
class Run:
    """One random game in progress: its log, the running fold, the options and the move picker."""

    rules: Game[Any]
    seats: int
    options: dict[str, Any]
    rng: random.Random
    events: list[Event]
    state: Any
    fold_rate: float  # Red and Black: how often a seat folds when it may
    step: int = 0


@dataclass
class Spec:
    """What one game adds to the generic checks.

    cards: the full deck; unique: whether each card code names one card (so a view's words can be
    checked for hidden cards); configs: (seats, options) to play; hidden: the cards `seat` may not
    see; places: where every card is now (must be the deck); check_state, check_new and check_end:
    the game's own invariants at each step, on each move's events and at the end; choose: the move
    picker; hidden_choice: whether a seat's choice now stays hidden from the others until a reveal."""

    cards: Sequence[str]
    view_type: Any  # the game's view TypedDict
    unique: bool
    configs: list[tuple[int, dict[str, Any]]]
    places: Callable[[Any], list[str]]
    hidden: Callable[[Any, int | None], set[str]] = lambda state, seat: set()
    check_state: Callable[[Run], None] = lambda run: None
    check_new: Callable[[Run, Any, list[Event]], None] = lambda run, before, new: None
    check_end: Callable[[Run], None] = lambda run: None
    choose: Callable[[Run], tuple[int, dict[str, Any]]] = field(default=lambda run: random_move(run))
    examples: int = 4
    hidden_choice: Callable[[Any, int], bool] = lambda state, seat: False
    view_rate: float = 0.3


def random_move(run: Run) -> tuple[int, dict[str, Any]]:
    """A seat to act and one of its legal actions, at random."""
    seat = run.rng.choice(sorted(run.rules.to_act(run.state)))
    return seat, run.rng.choice(run.rules.legal_actions(run.state, seat))


def deck_options(spec: Spec, kind: str, rng: random.Random) -> dict[str, Any]:
    """No deck option, one fixed deck, or two fixed decks (the list-of-decks form)."""
    if kind == "seed":
        return {}
    decks = [rng.sample(list(spec.cards), len(spec.cards)) for _ in range(1 if kind == "one" else 2)]
    return {"deck": decks[0] if kind == "one" else decks}


def check_step(spec: Spec, run: Run, views: bool) -> None:
    """The generic invariants of a running game at one step."""
    rules, state = run.rules, run.state
    assert Counter(spec.places(state)) == Counter(spec.cards), "every card in exactly one place"
    to_act = rules.to_act(state)
    assert to_act and all(0 <= s < run.seats for s in to_act) and rules.result(state) is None
    assert rules.result(state) is None and not rules.table.cancelled(state)
    for seat in range(run.seats):
        legal = rules.legal_actions(state, seat)
        assert len({js(a) for a in legal}) == len(legal), "each legal action listed once"
        assert bool(legal) == (seat in to_act) or legal == [FOLD]
    if views:
        check_views(spec, run)
    spec.check_state(run)


def check_views(spec: Spec, run: Run, over: bool = False) -> None:
    """Views are plain JSON in the shape of the game's view TypedDict, agree on to_act and show no
    card their seat may not see (until the game is over: then everything is open)."""
    rules, state = run.rules, run.state
    shape = spec.view_type
    for seat in (None, *range(run.seats)):
        view = rules.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        hints = typing.get_type_hints(shape, include_extras=True)
        # Read from the hints: with postponed annotations TypedDict's own key sets miss NotRequired.
        required = {key for key, hint in hints.items() if typing.get_origin(hint) is not typing.NotRequired}
        assert required <= set(view) <= set(hints)
        assert view["to_act"] == sorted(rules.to_act(state))
        if spec.unique and not over:
            leaked = words(view) & spec.hidden(state, seat)
            assert not leaked, f"seat {seat} sees hidden card(s) {leaked}"


def check_acts(run: Run) -> None:
    """Every listed action of every seat is accepted, deterministic, and leaves the state as it was."""
    rules, state = run.rules, run.state
    before = repr(state)
    for seat in range(run.seats):
        for action in rules.legal_actions(state, seat):
            new = rules.act(state, seat, json.loads(json.dumps(action)))
            assert new and all("type" in e and "v" in e for e in new)
            assert js(new) == js(rules.act(state, seat, dict(action)))
    assert repr(state) == before, "act mutated its state"


def check_lines(run: Run, new: list[Event]) -> None:
    """Every new event has words for every reader, and a replay heading after the one before."""
    rules = run.rules
    for event in new:
        for seat in (None, *range(run.seats)):
            line = rules.describe(event, seat, NAMES)
            assert line is None or isinstance(plain(line), str)


def check_hidden_choice(spec: Spec, run: Run, seat: int) -> None:
    """Two different hidden choices of `seat` look the same to every other seat and a spectator
    (views, legal actions, to_act, the words of the events) until the reveal; the other pending seats
    meanwhile choose the same in both worlds."""
    rules, state = run.rules, run.state
    choices = run.rng.sample([a for a in rules.legal_actions(state, seat) if a != FOLD], 2)
    moves = [rules.act(state, seat, c) for c in choices]
    worlds = [fold_on(rules, state, m) for m in moves]
    others = [s for s in range(run.seats) if s != seat]
    for reader in (None, *others):
        assert [rules.describe(e, reader, NAMES) for e in moves[0]] == [
            rules.describe(e, reader, NAMES) for e in moves[1]
        ]
    pending = set(rules.to_act(state)) - {seat}
    same_to_others(rules, worlds, others)
    while (waiting := rules.to_act(worlds[0])) and waiting <= pending:
        nxt = run.rng.choice(sorted(waiting))
        action = run.rng.choice([a for a in rules.legal_actions(worlds[0], nxt) if a != FOLD])
        worlds = [fold_on(rules, w, rules.act(w, nxt, action)) for w in worlds]
        pending.discard(nxt)
        if (waiting := rules.to_act(worlds[0])) and waiting <= pending:
            same_to_others(rules, worlds, others)


def same_to_others(rules: Game[Any], worlds: list[Any], others: list[int]) -> None:
    """The two worlds look the same to a spectator and to each of the other seats."""
    seen = [
        js([rules.view(w, None), sorted(rules.to_act(w))])
        + js([[rules.view(w, t), rules.legal_actions(w, t)] for t in others])
        for w in worlds
    ]
    assert seen[0] == seen[1], "a hidden choice shows to the others"


def check_end(spec: Spec, run: Run) -> None:
    """A finished game: a consistent result, nobody to act, every action refused, the stored log
    folds to the live state."""
    rules, state = run.rules, run.state
    result = rules.result(state)
    assert result is not None and result["winners"]
    assert all(0 <= w < run.seats for w in result["winners"])
    assert rules.result(state) is not None and not rules.table.cancelled(state)
    assert rules.to_act(state) == frozenset()
    assert all(rules.legal_actions(state, s) == [] for s in range(run.seats))
    with pytest.raises(IllegalAction):
        rules.act(state, 0, {"card": spec.cards[0]})
    check_views(spec, run, over=True)
    assert rules.fold(json.loads(json.dumps(run.events))) == state, "fold of the stored log = live state"
    spec.check_end(run)


def play(spec: Spec, game: str, seats: int, options: dict[str, Any], seed: int, fold_rate: float) -> None:
    """One random game with every check, folding each move's events onto the running state."""
    rules, rng = get_game(game), random.Random(seed)
    events = rules.start(seed, seats, options)
    run = Run(rules, seats, options, rng, events, rules.fold(events), fold_rate)
    checkpoint = rng.randrange(10, 60)
    while rules.result(run.state) is None:
        check_step(spec, run, views=rng.random() < spec.view_rate)
        if rng.random() < 0.2:
            check_acts(run)
        seat, action = spec.choose(run)
        choices = [a for a in rules.legal_actions(run.state, seat) if a != FOLD]
        if spec.hidden_choice(run.state, seat) and len(choices) >= 2:
            check_hidden_choice(spec, run, seat)
        before = run.state
        new = rules.act(before, seat, action)
        run.state = fold_on(rules, before, new)
        assert run.state != before, "every move changes the game"
        run.events += new
        check_lines(run, new)
        spec.check_new(run, before, new)
        run.step += 1
        if run.step == checkpoint:
            assert rules.fold(json.loads(json.dumps(run.events))) == run.state
    check_end(spec, run)


# ----------------------------------------------------------------------------------- Duālis


def dualis_places(state: Any) -> list[str]:
    """Hands, the trick on the table, the round's tricks and the set-aside cards."""
    played = [p.card for t in state.completed for p in t.plays] + [p.card for p in state.trick]
    return [c for h in state.hands for c in h] + played + list(state.set_aside)


def dualis_hidden(state: Any, seat: int | None) -> set[str]:
    """Other seats' hands and the set-aside cards, but for the cards of the round before's last trick
    while it is in view (the same cards are dealt again, so their codes may be in a hand)."""
    others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    shown = (
        {p.card for p in state.previous_trick.plays}
        if state.previous_trick and not state.completed
        else set()
    )
    return (others | set(state.set_aside)) - shown


def dualis_state(run: Run) -> None:
    """Coins conserved; tricks in seat order; the legal plays are the must-follow cards, with a coin
    where one of the opposite colour is left."""
    state, seats = run.state, run.seats
    assert sum(state.centre) + sum(sum(c) for c in state.coins) == (10 if state.short else 14)
    assert min(state.centre) >= 0
    for trick in state.completed:
        assert [p.seat for p in trick.plays] == [(trick.plays[0].seat + i) % seats for i in range(seats)]
    assert [p.seat for p in state.trick] == [(state.leader + i) % seats for i in range(len(state.trick))]
    (seat,) = run.rules.to_act(state)
    hand = state.hands[seat]
    led = state.trick[0].card[0] if state.trick else None
    follow = [c for c in hand if c[0] == led] or list(hand)
    expected = {(c, False) for c in follow}
    expected |= {(c, True) for c in follow if state.centre[0 if c[-1] == "B" else 1] > 0}
    assert {(a["card"], a.get("coin", False)) for a in run.rules.legal_actions(state, seat)} == expected


def dualis_oracle(plays: list[dict[str, Any]], centre: dict[str, int], high_low: bool) -> int:
    """The trick winner computed independently of the module, from a TrickWon event's data."""
    trump = "R" if centre["R"] > centre["B"] else "B" if centre["B"] > centre["R"] else None
    sign = -1 if high_low and plays[0]["colour"] == "B" else 1
    pool = [i for i, p in enumerate(plays) if p["colour"] == trump] or [
        i for i, p in enumerate(plays) if p["card"][0] == plays[0]["card"][0]
    ]
    return plays[max(pool, key=lambda i: (sign * CARD_INFO[plays[i]["card"]][1], i))]["seat"]


def dualis_new(run: Run, before: Any, new: list[Event]) -> None:
    """A play is one CardPlayed first; trick winners and round scores are as the rulebook says."""
    assert new[0]["type"] == "CardPlayed"
    for event in new:
        if event["type"] == "TrickWon":
            assert event["winner"] == dualis_oracle(event["plays"], event["centre"], before.high_low)
        if event["type"] == "RoundScored":
            assert event["scores"] == [
                side_score(t, c) for t, c in zip(event["tricks"], event["coins"], strict=True)
            ]


def dualis_end(run: Run) -> None:
    """Iso Play ends on a 7-point gap or after 4 rounds, the top totals winning; partnerships at 2
    rounds won."""
    result = run.rules.result(run.state)
    scores = result["scores"]
    if run.state.iso:
        assert len(result["rounds"]) == 4 or max(scores) - min(scores) >= 7
        assert result["winners"] == [s for s in range(run.seats) if scores[s] == max(scores)]
    else:
        assert max(scores) == 2 and min(scores) < 2


DUALIS_FLAGS = ("short", "high_low", "iso", "open_history")
DUALIS = Spec(
    cards=DUALIS_CARDS,
    view_type=DualisView,
    unique=True,
    configs=[
        (seats, dict(zip(DUALIS_FLAGS, flags, strict=True)))
        for flags in itertools.product((False, True), repeat=4)
        for seats in ((3, 4) if flags[2] else (4,))
    ],
    places=dualis_places,
    hidden=dualis_hidden,
    check_state=dualis_state,
    check_new=dualis_new,
    check_end=dualis_end,
    examples=4,
    view_rate=0.1,
)


# ---------------------------------------------------------------------------- Double Side Play


def double_side_places(state: Any) -> list[str]:
    """Hands, the trick on the table, the round's tricks and the set-aside cards."""
    played = [p.card for t in state.completed for p in t.plays] + [p.card for p in state.trick]
    return [c for h in state.hands for c in h] + played + list(state.set_aside)


def double_side_state(run: Run) -> None:
    """Twelve cards set aside with three players; the hands turn over after trick 6; the legal plays
    follow the led colour."""
    state = run.state
    assert len(state.set_aside) == (12 if run.seats == 3 else 0)
    assert sum(state.tricks_won) == len(state.completed)
    assert state.turned == (len(state.completed) >= 6)
    if state.phase == "play":
        (seat,) = run.rules.to_act(state)
        hand = state.hands[seat]
        led = state.trick[0].card[0] if state.trick else None
        following = [c for c in hand if c[0] == led]
        assert sorted(a["card"] for a in run.rules.legal_actions(state, seat)) == sorted(following or hand)


def double_side_new(run: Run, before: Any, new: list[Event]) -> None:
    """Each round has 12 tricks, and a point goes to every seat whose tricks match a die."""
    for e in new:
        if e["type"] == "RoundScored":
            assert sum(e["tricks"]) == 12
            assert e["scorers"] == [s for s in range(run.seats) if e["tricks"][s] in targets(e["dice"][s])]


def double_side_end(run: Run) -> None:
    """Everyone on 2 points wins; the game ends once."""
    state = run.state
    assert run.rules.result(state)["winners"] == [s for s in range(run.seats) if state.points[s] >= 2]
    assert max(state.points) == 2 and [e["type"] for e in run.events].count("GameEnded") == 1


DOUBLE_SIDE = Spec(
    cards=DOUBLE_SIDE_DECK,
    view_type=DoubleSideView,
    unique=True,
    configs=[
        (seats, {"trump": trump, "open_history": history})
        for trump in (False, True)
        for history in (False, True)
        for seats in (3, 4)
    ],
    places=double_side_places,
    hidden=dualis_hidden,
    check_state=double_side_state,
    check_new=double_side_new,
    check_end=double_side_end,
    examples=8,
    view_rate=0.2,
)


# ------------------------------------------------------------------------------------ Dupli


def dupli_places(state: Any) -> list[str]:
    """Hands, the cards set this war (the field after the reveal), VP piles, centre, set-aside and
    spent Patriotisms."""
    if state.reveal is not None:
        table = [c for pair in state.reveal.sets for c in pair if c != "patriotism"]
    else:
        table = [c for pair in state.sets if pair for c in pair]
    piles = [c for h in state.hands for c in h] + [c for pile in state.vp for c in pile]
    return [*table, *piles, *state.set_aside, *state.centre, *state.removed]


def dupli_state(run: Run) -> None:
    """Only Patriotisms leave the game; seats yet to set hold the war's hand size; a seat's view
    shows its own hand."""
    state = run.state
    assert set(state.removed) <= {"patriotism"}
    assert len(state.set_aside) == 36 - 9 * state.seats
    if state.phase == "set":
        unset = [len(h) for h, p in zip(state.hands, state.sets, strict=True) if p is None]
        assert set(unset) <= {9 - 2 * (state.war - 1)}
    seat = run.rng.randrange(run.seats)
    assert [h["card"] for h in run.rules.view(state, seat)["hand"]] == list(state.hands[seat])


def dupli_end(run: Run) -> None:
    """Four wars; one card left in each hand; the most VP wins; every card accounted for."""
    state, result = run.state, run.rules.result(run.state)
    assert [e["type"] for e in run.events].count("WarResolved") == 4
    assert all(len(h) == 1 for h in state.hands)
    assert result["winners"] == [s for s, v in enumerate(result["vp"]) if v == max(result["vp"])]
    assert sum(result["vp"]) + len(state.centre) + len(state.removed) + 9 * (run.seats == 3) + run.seats == 36


def dupli_hidden_choice(state: Any, seat: int) -> bool:
    """A set or swap stays hidden while another seat has still to choose."""
    return state.phase in ("set", "charge") and len(get_game("dupli").to_act(state)) >= 2


DUPLI = Spec(
    cards=DUPLI_DECK,
    view_type=DupliView,
    unique=False,
    configs=[(seats, {}) for seats in (3, 4)],
    places=dupli_places,
    check_state=dupli_state,
    check_end=dupli_end,
    hidden_choice=dupli_hidden_choice,
    examples=40,
    view_rate=0.5,
)


# -------------------------------------------------------------------------- Red and Black Duel


def red_black_places(state: Any) -> list[str]:
    """Draw pile, hands, discards, camp and face-down cards, and the round's compared cards."""
    places = [*state.pile, *state.hands[0], *state.hands[1], *state.discards]
    places += [c for c in (*state.camp_cards, *state.table) if c]
    return places + [c for play in state.plays for c in play.cards]


def red_black_hidden(state: Any, seat: int | None) -> set[str]:
    """The other hand, face-down cards not the seat's own, the draw pile and the discards, but for
    the round before's last comparison (face up when made) while it is in view."""
    hidden = set(state.pile) | set(state.discards)
    for other in (0, 1):
        if other != seat:
            hidden |= set(state.hands[other]) | {c for c in (state.table[other],) if c}
            if state.camps[0] is None and state.camp_cards[other]:
                hidden.add(state.camp_cards[other])
    last = state.outcomes[-1].last_play if state.outcomes and not state.plays else None
    return hidden - set(last.cards if last else ())


def red_black_state(run: Run) -> None:
    """Chips conserved (30 plus the bank's 3 per pot set); hands shown strongest first; the legal
    actions are the hand's cards for the seat to act and a fold for both once the pot is set; no
    round goes on past 3 winning cards of a colour."""
    state, rules = run.state, run.rules
    pots = len(state.outcomes) + (state.phase == "play")
    assert sum(state.chips) + state.pot == 30 + 3 * pots
    assert state.phase in ("camp", "play")
    for seat in (0, 1):
        legal = rules.legal_actions(state, seat)
        hand = sorted(state.hands[seat], key=RED_BLACK_DECK.index, reverse=True)
        assert rules.view(state, seat)["hand"] == hand
        if seat in rules.to_act(state):
            assert [a["card"] for a in legal if "card" in a] == hand
            assert (FOLD in legal) == (state.phase == "play")
        else:
            assert legal == ([FOLD] if state.phase == "play" else [])
    assert max(state.counts().values()) < 3


def red_black_new(run: Run, before: Any, new: list[Event]) -> None:
    """No line names a card its reader may not know."""
    for event in new:
        for seat in (0, 1, None):
            shown = plain(run.rules.describe(event, seat, NAMES))
            secret: set[str] = set()
            if event["type"] in ("CampCardPlaced", "CardPlayed") and seat != event["seat"]:
                secret = {event["card"]}
            if event["type"] == "RoundDealt":
                secret = {c for s, hand in enumerate(event["hands"]) if s != seat for c in hand}
            if event["type"] == "RoundWon":
                secret = red_black_hidden(before, seat) - set(event["stack"])
            named = {card for card in secret if plain(red_black_card_name(card)) in shown}
            assert not named, f"{event['type']} shows {named} to seat {seat}"


def red_black_end(run: Run) -> None:
    """The richer player wins (both on a draw), once one is bankrupt or has 30 chips."""
    state, result = run.state, run.rules.result(run.state)
    assert result["chips"] == list(state.chips)
    best = max(state.chips)
    assert result["winners"] == [s for s in (0, 1) if state.chips[s] == best]
    assert min(state.chips) <= 4 or best >= 30


def red_black_move(run: Run) -> tuple[int, dict[str, Any]]:
    """A fold by either seat at the config's fold rate, else a card of a seat to act."""
    state = run.state
    if state.phase == "play" and run.rng.random() < run.fold_rate:
        return run.rng.choice((0, 1)), FOLD
    seat = run.rng.choice(sorted(run.rules.to_act(state)))
    return seat, run.rng.choice([a for a in run.rules.legal_actions(state, seat) if a != FOLD])


def red_black_hidden_choice(state: Any, seat: int) -> bool:
    """The first camp card of a round, or the first card of a comparison, lies face down."""
    first_camp = state.phase == "camp" and state.camp_cards == (None, None)
    return (first_camp or (state.phase == "play" and state.table == (None, None))) and len(
        state.hands[seat]
    ) >= 2


RED_BLACK = Spec(
    cards=RED_BLACK_DECK,
    view_type=RedBlackView,
    unique=True,
    configs=[(2, {})],
    places=red_black_places,
    hidden=red_black_hidden,
    check_state=red_black_state,
    check_new=red_black_new,
    check_end=red_black_end,
    choose=red_black_move,
    hidden_choice=red_black_hidden_choice,
    examples=80,
    view_rate=0.5,
)

SPECS = {"dualis": DUALIS, "double_side": DOUBLE_SIDE, "dupli": DUPLI, "red_black": RED_BLACK}
DECK_KINDS = ("seed", "one", "two")  # no deck option, one fixed deck, a list of two
FOLD_RATES = (0.0, 0.03, 0.15, 0.5)  # Red and Black: how often a seat folds when it may


def cases() -> list[Any]:
    """Every game, option combination and example (each example its own deck kind and seed)."""
    out = []
    for game in GAMES:
        spec = SPECS[game]
        for seats, options in spec.configs:
            for i in range(spec.examples):
                label = "-".join(k for k, v in options.items() if v is True) or "plain"
                out.append(pytest.param(game, seats, options, i, id=f"{game}-{seats}p-{label}-{i}"))
    return out


@pytest.mark.parametrize(("game", "seats", "options", "example"), cases())
def test_random_legal_games_keep_the_contract(
    game: str, seats: int, options: dict[str, Any], example: int
) -> None:
    spec = SPECS[game]
    seed = random.Random(f"{game}:{seats}:{js(options)}:{example}").randrange(2**31)
    deck = deck_options(spec, DECK_KINDS[example % len(DECK_KINDS)], random.Random(seed))
    play(spec, game, seats, {**options, **deck}, seed, FOLD_RATES[example % len(FOLD_RATES)])


# ------------------------------------------------------------------------------- the deck option


CONFIGS = [(game, seats, options) for game in GAMES for seats, options in SPECS[game].configs]


@settings(max_examples=80, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**31 - 1),
    example=st.integers(0, len(DECK_KINDS) * len(FOLD_RATES) - 1),
)
def test_games_hypothesis_draws_keep_the_contract(
    config: tuple[str, int, dict[str, Any]], seed: int, example: int
) -> None:
    """The same contract run on games hypothesis draws (a failure shrinks to a small seed)."""
    game, seats, options = config
    spec = SPECS[game]
    deck = deck_options(spec, DECK_KINDS[example % len(DECK_KINDS)], random.Random(seed))
    play(spec, game, seats, {**options, **deck}, seed, FOLD_RATES[example % len(FOLD_RATES)])
