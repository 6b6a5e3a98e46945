"""A seat's view of Dupli dealt again for the search bots: the cards it has not seen spread over
the other hands, the other sets and the cards set aside, consistently with everything it saw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.determinize import Place, deal_hidden, new_seed, unseen
from rules.dupli.cards import CARD_ORDER, FULL_DECK, HAND_SIZE, SET_SIZE, Slot, forbidden, sort_hand
from rules.dupli.state import Aim, Reveal, State, WarResult
from rules.rng import SeededRandom


def dealt_again(view: Mapping[str, Any], rng: SeededRandom) -> State:
    """The view's war with the unseen cards dealt again over the other hands and face-down sets
    (a face-up Charge where the window shows one, no Charge in the set of a seat still to answer
    it, no forbidden pair), the cards set aside, the victory-point piles (their Patriotisms as
    counted) and the centre; the cards of the war before lie in the piles or the centre."""
    me, seats = view["seat"], view["seats"]
    hidden = _DupliHidden.of(view)
    dealt = deal_hidden(hidden.cards, hidden.places, _kind, rng, accept=hidden.legal_sets)
    cards = {name: [_card(c) for c in dealt_cards] for name, dealt_cards in dealt.items()}
    hands = tuple(
        sort_hand(c["card"] for c in view["hand"]) if s == me else sort_hand(cards[("hand", s)])
        for s in range(seats)
    )
    current = _reveal_from_json(view["current_war"]) if view["current_war"] else None
    last = _reveal_from_json(view["last_war"]) if view["last_war"] else None
    charge = view["charge"]
    return State(
        seed=new_seed(rng),
        seats=seats,
        phase=view["phase"],
        war=view["war"],
        hands=hands,
        set_aside=tuple(cards["set_aside"]),
        sets=tuple(hidden.pair(s, cards, view, current) for s in range(seats)),
        charges_up=hidden.charges_up,
        answered=tuple(charge["answered"]) if charge else (False,) * seats,
        vp=tuple(("patriotism",) * view["patriotism"][s] + tuple(cards[("vp", s)]) for s in range(seats)),
        centre=tuple(cards["centre"]),
        removed=("patriotism",) * view["removed"],
        reveal=current,
        last=last,
        wars=(last,) if last else (),
    )


FIELD = "@field"  # marks a card seen on the field of the war before: it lies in a VP pile or the centre


def _kind(token: str) -> str:
    """A dealt card's kind for the places' constraints (a card of the war before keeps its mark)."""
    return token


def _card(token: str) -> str:
    """The card a dealt token stands for."""
    return token.removesuffix(FIELD)


@dataclass(frozen=True)
class _DupliHidden:
    """What a Dupli view hides, as cards to deal and places to deal them to."""

    cards: tuple[str, ...]
    places: tuple[Place, ...]
    charges_up: tuple[Slot, ...]

    @staticmethod
    def of(view: Mapping[str, Any]) -> _DupliHidden:
        """The hidden cards and places of a seat's view of a running war."""
        me, seats = view["seat"], view["seats"]
        charge = view["charge"]
        up = tuple((c["seat"], c["slot"]) for c in charge["face_up"]) if charge else ()
        revealed = view["current_war"] is not None
        field_cards = _field_cards(view["last_war"])
        seen = [c["card"] for c in view["hand"]]
        if revealed:  # every set is face up (the seat's own too); banked Patriotisms count with the piles
            seen += [c["card"] for p in view["current_war"]["players"] for c in p["cards"] if not c["banked"]]
        else:
            seen += list(view["my_set"] or ())
        seen += ["patriotism"] * (sum(view["patriotism"]) + view["removed"])
        seen += ["charge" for s, _ in up if s != me]
        pool = unseen(FULL_DECK, seen, field_cards)
        marked = [card + FIELD for card in field_cards]
        places = [Place(("hand", s), view["hand_counts"][s], _MARKED) for s in range(seats) if s != me]
        if not revealed:
            places += [_set_place(s, up, charge) for s in range(seats) if s != me and view["set_done"][s]]
        places.append(Place("set_aside", len(FULL_DECK) - HAND_SIZE * seats, _MARKED))
        places += [
            Place(("vp", s), view["vp"][s] - view["patriotism"][s], frozenset({"patriotism"}))
            for s in range(seats)
        ]
        places.append(Place("centre", view["centre"], frozenset({"patriotism"})))
        return _DupliHidden(tuple(pool + marked), tuple(places), up)

    def legal_sets(self, dealt: Mapping[Any, list[str]]) -> bool:
        """Whether every face-down set dealt is a pair the rules allow (with its face-up Charges)."""
        for name, cards in dealt.items():
            if isinstance(name, tuple) and name[0] == "set":
                pair = [*cards, *("charge" for s, _ in self.charges_up if s == name[1])]
                if len(pair) == SET_SIZE and forbidden(pair[0], pair[1]):
                    return False
        return True

    def pair(
        self, seat: int, cards: Mapping[Any, list[str]], view: Mapping[str, Any], current: Reveal | None
    ) -> tuple[str, str] | None:
        """A seat's set this war: revealed, its own, dealt again, or None before it set."""
        if current is not None:
            return current.sets[seat]
        if seat == view["seat"]:
            mine = view["my_set"]
            return (mine[0], mine[1]) if mine else None
        if not view["set_done"][seat]:
            return None
        first, second = sorted([*cards[("set", seat)], *("charge" for s, _ in self.charges_up if s == seat)])
        return first, second


_MARKED = frozenset(card + FIELD for card in CARD_ORDER)


def _field_cards(war: Mapping[str, Any] | None) -> list[str]:
    """The cards of a resolved war's field (every set card but the banked Patriotisms)."""
    if war is None:
        return []
    return [c["card"] for p in war["players"] for c in p["cards"] if not c["banked"]]


def _set_place(seat: int, up: Sequence[Slot], charge: Mapping[str, Any] | None) -> Place:
    """A seat's face-down set less its face-up Charges: a card beside a face-up Charge sorts (by
    name, as pairs are) on its side of it; a seat still to answer the Charge window set no Charge at all."""
    slots = [slot for s, slot in up if s == seat]
    refuses = set(_MARKED)
    if len(slots) == 1:  # pairs are sorted by name: the other card sorts on the far side of "charge"
        refuses |= {c for c in CARD_ORDER if (c >= "charge" if slots[0] == 1 else c <= "charge")}
    if charge and seat in charge["answering"] and not charge["answered"][seat]:
        refuses.add("charge")
    return Place(("set", seat), SET_SIZE - len(slots), frozenset(refuses))


def _reveal_from_json(war: Mapping[str, Any]) -> Reveal:
    """A revealed war from its JSON (`_war_json`)."""
    players = war["players"]
    slots = [(p["seat"], c) for p in players for c in p["cards"]]
    return Reveal(
        war=war["war"],
        sets=tuple((p["cards"][0]["card"], p["cards"][1]["card"]) for p in players),
        charges_up=tuple((s, c["slot"]) for s, c in slots if c["face_up_early"]),
        banked=tuple(p["banked"] for p in players),
        subversion=war["subversion"],
        eliminated=tuple(p["seat"] for p in players if p["eliminated"]),
        live=tuple(war["benevolence_counts"]),
        order=tuple((o["seat"], o["slot"]) for o in war["order"]),
        tie_drawn=war["tie_drawn"],
        aims=tuple(_aim_from_json(a) for a in war["aims"]),
        zeroed=frozenset((s, c["slot"]) for s, c in slots if c["zeroed"]),
        cancelled=frozenset((s, c["slot"]) for s, c in slots if c["cancelled"]),
        result=_war_result_from_json(war["result"]) if war["result"] else None,
    )


def _war_result_from_json(result: Mapping[str, Any]) -> WarResult:
    """A war's result from its JSON (`_result_json`)."""
    return WarResult(
        strengths=tuple(result["strengths"]),
        best=result["best"],
        winners=tuple(result["winners"]),
        field=result["field"],
        pool=result["pool"],
        share=result["share"],
        to_centre=result["to_centre"],
        centre=result["centre"],
        last=result["last"],
    )


def _aim_from_json(aim: Mapping[str, Any]) -> Aim:
    """One aim from its JSON (`_aim_json`)."""
    target = aim["target"]
    return Aim(aim["seat"], aim["slot"], (target["seat"], target["slot"]) if target else None, aim["outcome"])
