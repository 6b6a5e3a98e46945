"""Dupli's state: what a game is at one moment (hands, sets, the war being revealed, the VP piles)
and how each event folds into it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.dupli.cards import AGGRESSIVE, BASE_STRENGTH, Slot, sort_hand, without
from rules.game import Event
from rules.table import Closure


@dataclass(frozen=True)
class Aim:
    """One Benevolence's choice: the aiming seat and slot, its target (None: passed) and outcome."""

    seat: int
    slot: int
    target: Slot | None
    outcome: str  # "passed", "zeroed", "cancelled", or "asked" while the owner decides


@dataclass(frozen=True)
class WarResult:
    """How a war ended: strengths, winners and where the cards went."""

    strengths: tuple[int, ...]
    best: int | None
    winners: tuple[int, ...]
    field: int  # cards on the field (Patriotism excluded)
    pool: int  # cards shared out: the field, plus the centre in the last war
    share: int  # cards each winner took
    to_centre: int  # cards left over after the split
    centre: int  # cards in the centre afterwards
    last: bool


@dataclass(frozen=True)
class Reveal:
    """A war from its reveal on: the final sets and everything the resolution did to them."""

    war: int
    sets: tuple[tuple[str, str], ...]
    charges_up: tuple[Slot, ...]
    banked: tuple[int, ...]  # Patriotisms each seat banked at this reveal
    subversion: bool
    eliminated: tuple[int, ...]
    live: tuple[bool, ...]  # per seat: it set a Benevolence that counts (+1, may aim)
    order: tuple[Slot, ...]  # aiming order: (seat, slot of its Benevolence)
    tie_drawn: bool
    aims: tuple[Aim, ...] = ()
    zeroed: frozenset[Slot] = frozenset()
    cancelled: frozenset[Slot] = frozenset()  # Benevolences cancelled by a Patriotism
    result: WarResult | None = None


@dataclass(frozen=True)
class State:
    """The whole game: hands, this war's sets, VP piles, centre and the resolution in progress."""

    seed: int
    seats: int
    phase: str  # deal, set, charge, aim, react, end, over
    war: int
    hands: tuple[tuple[str, ...], ...] = ()
    set_aside: tuple[str, ...] = ()
    sets: tuple[tuple[str, str] | None, ...] = ()  # this war's pairs, hidden until the reveal
    charges_up: tuple[Slot, ...] = ()  # Charges turned face up in the Charge window
    answered: tuple[bool, ...] = ()  # Charge window answers given
    vp: tuple[tuple[str, ...], ...] = ()
    centre: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()  # Patriotisms spent, out of the game
    reveal: Reveal | None = None  # this war, once revealed
    last: Reveal | None = None  # the war before, resolved
    wars: tuple[Reveal, ...] = ()  # every war resolved so far (the score sheet)
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.table)


# --- reading state


def slot_json(slot: Slot) -> dict[str, int]:
    """A (seat, slot) pair as the JSON the actions use."""
    return {"seat": slot[0], "slot": slot[1]}


def card_strength(reveal: Reveal, seat: int, slot: int) -> int:
    """One revealed card's strength now: zeroed and cancelled marks and Benevolence's condition applied."""
    card = reveal.sets[seat][slot]
    if card in AGGRESSIVE and (seat, slot) in reveal.zeroed:
        return 0
    if card == "benevolence":
        return int(reveal.live[seat] and (seat, slot) not in reveal.cancelled)
    return BASE_STRENGTH[card]


def seat_strength(reveal: Reveal, seat: int) -> int:
    """A seat's strength: the sum of its two set cards (a banked Patriotism counts 0)."""
    return card_strength(reveal, seat, 0) + card_strength(reveal, seat, 1)


def targets(reveal: Reveal) -> list[Slot]:
    """Every Tyranny or Charge on the field, zeroed or not: what a Benevolence may aim at."""
    return [(s, i) for s, pair in enumerate(reveal.sets) for i, card in enumerate(pair) if card in AGGRESSIVE]


def current_aim(reveal: Reveal | None) -> Slot | None:
    """The Benevolence whose turn it is to aim, if any is left."""
    if reveal is None or len(reveal.aims) >= len(reveal.order):
        return None
    return reveal.order[len(reveal.aims)]


def answerers(state: State) -> list[int]:
    """The seats that must answer the Charge: every seat without a face-up Charge."""
    charged = {seat for seat, _ in state.charges_up}
    return [s for s in range(state.seats) if s not in charged]


def pending(state: State) -> Aim:
    """The aim awaiting its target's Patriotism answer."""
    assert state.reveal is not None and state.reveal.aims
    return state.reveal.aims[-1]


# --- folding events


def fold_game_started(e: Event) -> State:
    """A new game: seats and seed recorded, nothing dealt yet (empty hands and piles, so that the
    table before the deal can be viewed)."""
    n = e["seats"]
    return State(
        seed=e["seed"],
        seats=n,
        phase="deal",
        war=1,
        hands=((),) * n,
        sets=(None,) * n,
        answered=(False,) * n,
        vp=((),) * n,
    )


def fold_hands_dealt(state: State, e: Event) -> State:
    """Hands dealt; the first war's set phase begins."""
    n = state.seats
    return replace(
        state,
        phase="set",
        hands=tuple(sort_hand(h) for h in e["hands"]),
        set_aside=tuple(e["set_aside"]),
        sets=(None,) * n,
        answered=(False,) * n,
        vp=((),) * n,
    )


def fold_cards_set(state: State, e: Event) -> State:
    """A seat's two cards leave its hand face down."""
    seat, pair = e["seat"], tuple(e["cards"])
    hands = _put(state.hands, seat, without(state.hands[seat], pair))
    return replace(state, hands=hands, sets=_put(state.sets, seat, pair))


def fold_charge_revealed(state: State, e: Event) -> State:
    """Set Charges turned face up; the Charge window opens."""
    return replace(state, phase="charge", charges_up=tuple((c["seat"], c["slot"]) for c in e["charges"]))


def fold_swap_answered(state: State, e: Event) -> State:
    """A seat's answer to the Charge: its new pair (maybe the same) from set + hand."""
    seat, pair = e["seat"], tuple(e["cards"])
    pool = state.hands[seat] + tuple(state.sets[seat] or ())
    hands = _put(state.hands, seat, sort_hand(without(pool, pair)))
    return replace(
        state, hands=hands, sets=_put(state.sets, seat, pair), answered=_put(state.answered, seat, True)
    )


def fold_cards_revealed(state: State, e: Event) -> State:
    """Every set shown; Patriotisms banked; the resolution begins (the aiming, if any)."""
    sets = tuple((p[0], p[1]) for p in e["sets"])
    vp = tuple(pile + ("patriotism",) * k for pile, k in zip(state.vp, e["banked"], strict=True))
    reveal = Reveal(
        war=e["war"],
        sets=sets,
        charges_up=state.charges_up,
        banked=tuple(e["banked"]),
        subversion=e["subversion"],
        eliminated=tuple(e["eliminated"]),
        live=tuple(e["benevolence_counts"]),
        order=tuple((o["seat"], o["slot"]) for o in e["order"]),
        tie_drawn=e["tie_drawn"],
    )
    return replace(state, phase="aim", vp=vp, reveal=reveal)


def fold_benevolence_aimed(state: State, e: Event) -> State:
    """A Benevolence's aim: passed, zeroed at once, or asked of the owner (react phase)."""
    reveal = state.reveal
    assert reveal is not None
    target = (e["target"]["seat"], e["target"]["slot"]) if e["target"] else None
    aims = (*reveal.aims, Aim(e["seat"], e["slot"], target, e["outcome"]))
    zeroed = reveal.zeroed | {target} if e["outcome"] == "zeroed" and target else reveal.zeroed
    phase = "react" if e["outcome"] == "asked" else "aim"
    return replace(state, phase=phase, reveal=replace(reveal, aims=aims, zeroed=zeroed))


def fold_patriotism_answered(state: State, e: Event) -> State:
    """The owner's answer: a Patriotism leaves the game and cancels the Benevolence, or the card is zeroed."""
    reveal = state.reveal
    assert reveal is not None
    aim = reveal.aims[-1]
    seat = e["seat"]
    if e["cancel"]:
        done = replace(aim, outcome="cancelled")
        reveal = replace(
            reveal, aims=(*reveal.aims[:-1], done), cancelled=reveal.cancelled | {(aim.seat, aim.slot)}
        )
        vp = _put(state.vp, seat, without(state.vp[seat], ["patriotism"]))
        return replace(state, phase="aim", reveal=reveal, vp=vp, removed=(*state.removed, "patriotism"))
    done = replace(aim, outcome="zeroed")
    target = (e["target"]["seat"], e["target"]["slot"])
    reveal = replace(reveal, aims=(*reveal.aims[:-1], done), zeroed=reveal.zeroed | {target})
    return replace(state, phase="aim", reveal=reveal)


def fold_war_resolved(state: State, e: Event) -> State:
    """The war's winners take their shares as VP, the rest waits in the centre; the next war begins."""
    reveal = state.reveal
    assert reveal is not None
    n = state.seats
    result = WarResult(
        strengths=tuple(e["strengths"]),
        best=e["best"],
        winners=tuple(e["winners"]),
        field=len(e["field"]),
        pool=e["pool"],
        share=e["share"],
        to_centre=len(e["to_centre"]),
        centre=len(e["centre"]),
        last=e["last"],
    )
    vp = tuple(pile + tuple(taken) for pile, taken in zip(state.vp, e["taken"], strict=True))
    last = e["last"]
    return replace(
        state,
        phase="end" if last else "set",
        war=state.war if last else state.war + 1,
        sets=(None,) * n,
        charges_up=(),
        answered=(False,) * n,
        vp=vp,
        centre=tuple(e["centre"]),
        reveal=None,
        last=replace(reveal, result=result),
        wars=(*state.wars, replace(reveal, result=result)),
    )


def fold_game_ended(state: State, e: Event) -> State:
    """The game is over."""
    return replace(state, phase="over")


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


FOLDS: Mapping[str, Callable[[State, Event], State]] = {
    "HandsDealt": fold_hands_dealt,
    "CardsSet": fold_cards_set,
    "ChargeRevealed": fold_charge_revealed,
    "SwapAnswered": fold_swap_answered,
    "CardsRevealed": fold_cards_revealed,
    "BenevolenceAimed": fold_benevolence_aimed,
    "PatriotismAnswered": fold_patriotism_answered,
    "WarResolved": fold_war_resolved,
    "GameEnded": fold_game_ended,
}
