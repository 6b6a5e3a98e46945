"""Dupli as each seat sees it: its hand and set, the Charge, the war revealed and resolved, and
everything face up once over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from rules.dupli.cards import ANSWER_EFFECTS, BASE_STRENGTH, EFFECTS, NAME, SET_SIZE, WARS
from rules.dupli.state import (
    Aim,
    Reveal,
    State,
    WarResult,
    answerers,
    card_strength,
    current_aim,
    pending,
    seat_strength,
    slot_json,
    targets,
)

if TYPE_CHECKING:
    from rules.dupli.play import Dupli


class DupliView(TypedDict):
    """The shape of every Dupli view (`view`, `open_view`), which the table templates and the JSON
    API read: one declared shape. Nested parts are plain JSON."""

    game: str
    seat: int | None
    seats: int
    to_act: list[Any]
    phase: str
    round: int
    war: int
    wars: int
    wars_played: int
    scores: list[Any]
    vp: list[Any]
    patriotism: list[Any]
    centre: int
    removed: int
    hand_counts: list[Any]
    hand: list[Any] | None
    my_set: list[Any] | None
    set_done: list[Any]
    charge: dict[str, Any] | None
    targeting: dict[str, Any] | None
    pending: dict[str, Any] | None
    current_war: dict[str, Any] | None
    last_war: dict[str, Any] | None
    result: dict[str, Any] | None
    hands: NotRequired[list[Any]]
    set_aside: NotRequired[list[Any]]
    centre_cards: NotRequired[list[Any]]
    sets: NotRequired[list[Any]]  # every set card (open_view only)
    goal: dict[str, Any]  # wars in a game and cards set per war
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


def view(game: Dupli, state: State | None, seat: int | None, as_of: State | None = None) -> dict[str, Any]:
    """What that seat may see, as plain JSON (the same seen from any later state `as_of`: Dupli never
    hides again what it once showed). Keys:

    seat, seats, to_act, phase (set/charge/aim/react/over), round = war (1-4), wars (4), wars_played;
    scores = vp (VP per seat), patriotism (usable Patriotisms in each VP pile), centre (face-down
    cards waiting there), removed (Patriotisms spent), hand_counts; hand (the seat's cards, each
    {card, strength, effect}; None for a spectator), my_set (its two set cards this war);
    set_done (per seat: has set this war); charge (the Charge window, else None); targeting (while
    Benevolences aim); pending (a Benevolence awaiting its target's Patriotism answer);
    current_war (this war once revealed) and last_war (the war before, resolved), each with every
    player's cards, marks, strength and takings plus a step-by-step log; result. Once the game is
    over also hands, set_aside and centre_cards.
    """
    if state is None:
        return {"seat": seat, "to_act": [], "phase": "none", "round": 0}
    me = seat if seat is not None and 0 <= seat < state.seats else None
    over = state.phase in ("end", "over")
    vp = [len(pile) for pile in state.vp]
    out: dict[str, Any] = {
        "game": NAME,
        "seat": me,
        "seats": state.seats,
        "to_act": sorted(game.to_act(state)),
        "phase": state.phase,
        "round": state.war,
        "war": state.war,
        "wars": WARS,
        "goal": {"wars": WARS, "set_per_war": SET_SIZE},
        "wars_played": state.war if over else state.war - 1,
        "scores": vp,
        "vp": vp,
        "patriotism": [pile.count("patriotism") for pile in state.vp],
        "centre": len(state.centre),
        "removed": len(state.removed),
        "hand_counts": [len(h) for h in state.hands],
        "hand": None if me is None else hand_json(state.hands[me]),
        "my_set": my_set(state, me),
        "set_done": [pair is not None for pair in state.sets],
        "charge": charge_json(state, me),
        "targeting": targeting_json(state),
        "pending": pending_json(state, seat),
        "current_war": war_json(state.reveal, state) if state.reveal else None,
        "last_war": war_json(state.last, state) if state.last else None,
        "result": game.result(state),
    }
    if over:
        out["hands"] = [list(h) for h in state.hands]
        out["set_aside"] = list(state.set_aside)
        out["centre_cards"] = list(state.centre)
    return out


def hand_json(hand: Sequence[str]) -> list[dict[str, Any]]:
    """A hand card by card with its base strength and effect."""
    return [{"card": c, "strength": BASE_STRENGTH[c], "effect": EFFECTS[c]} for c in hand]


def my_set(state: State, seat: int | None) -> list[str] | None:
    """The seat's own two set cards this war (until the war is resolved)."""
    pair = state.sets[seat] if seat is not None and state.sets else None
    return list(pair) if pair else None


def charge_json(state: State, seat: int | None) -> dict[str, Any] | None:
    """The Charge window: face-up Charges, who answers, who has answered (not what)."""
    if state.phase != "charge":
        return None
    answering = answerers(state)
    return {
        "face_up": [{**slot_json(c), "card": "charge"} for c in state.charges_up],
        "answering": answering,
        "answered": [state.answered[s] for s in range(state.seats)],
        "must_answer": seat is not None and seat in answering and not state.answered[seat],
    }


def targeting_json(state: State) -> dict[str, Any] | None:
    """While Benevolences aim: the order, whose turn it is and the possible targets."""
    reveal = state.reveal
    if state.phase not in ("aim", "react") or reveal is None:
        return None
    turn = current_aim(reveal)
    return {
        "order": [slot_json(o) for o in reveal.order],
        "done": len(reveal.aims) - (state.phase == "react"),
        "turn": slot_json(turn) if turn and state.phase == "aim" else None,
        "targets": [
            {**slot_json(t), "card": reveal.sets[t[0]][t[1]], "zeroed": t in reveal.zeroed}
            for t in targets(reveal)
        ],
        "tie_drawn": reveal.tie_drawn,
    }


def pending_json(state: State, seat: int | None) -> dict[str, Any] | None:
    """A Benevolence awaiting its target owner's Patriotism answer, and what each answer does."""
    if state.phase != "react":
        return None
    aim = pending(state)
    assert aim.target is not None and state.reveal is not None
    owner = aim.target[0]
    return {
        "aimer": slot_json((aim.seat, aim.slot)),
        "target": {**slot_json(aim.target), "card": state.reveal.sets[owner][aim.target[1]]},
        "owner": owner,
        "patriotism": state.vp[owner].count("patriotism"),
        "mine": seat == owner,
        "answers": [{"cancel": c, "effect": ANSWER_EFFECTS[c]} for c in (True, False)],
    }


def war_json(reveal: Reveal, state: State) -> dict[str, Any]:
    """A revealed war: every player's cards, marks, strength and takings, and the resolution log."""
    res = reveal.result
    players = []
    for s, pair in enumerate(reveal.sets):
        cards = [
            {
                "slot": i,
                "card": c,
                "strength": card_strength(reveal, s, i),
                "zeroed": (s, i) in reveal.zeroed,
                "cancelled": (s, i) in reveal.cancelled,
                "banked": c == "patriotism",
                "face_up_early": (s, i) in reveal.charges_up,
            }
            for i, c in enumerate(pair)
        ]
        players.append(
            {
                "seat": s,
                "cards": cards,
                "strength": res.strengths[s] if res else seat_strength(reveal, s),
                "eliminated": s in reveal.eliminated,
                "banked": reveal.banked[s],
                "won": s in res.winners if res else None,
                "taken": (res.share if s in res.winners else 0) if res else None,
            }
        )
    return {
        "war": reveal.war,
        "players": players,
        "subversion": reveal.subversion,
        "benevolence_counts": list(reveal.live),
        "order": [slot_json(o) for o in reveal.order],
        "tie_drawn": reveal.tie_drawn,
        "aims": [aim_json(a, reveal) for a in reveal.aims],
        "result": result_json(res),
        "log": war_log(reveal),
    }


def aim_json(aim: Aim, reveal: Reveal) -> dict[str, Any]:
    """One aim as JSON: who aimed with which slot, at what, and the outcome."""
    card = reveal.sets[aim.target[0]][aim.target[1]] if aim.target else None
    target = {**slot_json(aim.target), "card": card} if aim.target else None
    return {"seat": aim.seat, "slot": aim.slot, "target": target, "outcome": aim.outcome}


def result_json(res: WarResult | None) -> dict[str, Any] | None:
    """A war's result as JSON."""
    if res is None:
        return None
    return {
        "strengths": list(res.strengths),
        "best": res.best,
        "winners": list(res.winners),
        "field": res.field,
        "pool": res.pool,
        "share": res.share,
        "to_centre": res.to_centre,
        "centre": res.centre,
        "last": res.last,
    }


def war_log(reveal: Reveal) -> list[dict[str, Any]]:
    """The war's resolution step by step, as structured entries ("step" names the kind)."""
    log: list[dict[str, Any]] = [
        {
            "step": "reveal",
            "sets": [list(p) for p in reveal.sets],
            "charges_up": [slot_json(c) for c in reveal.charges_up],
        }
    ]
    log += [{"step": "patriotism", "seat": s, "count": k} for s, k in enumerate(reveal.banked) if k]
    if reveal.subversion:
        by = [s for s, pair in enumerate(reveal.sets) if "subversion" in pair]
        log.append({"step": "subversion", "by": by, "eliminated": list(reveal.eliminated)})
    elif any("benevolence" in p for p in reveal.sets) and not reveal.order:
        log.append({"step": "no_target"})
    if reveal.order:
        log.append(
            {
                "step": "order",
                "order": [slot_json(o) for o in reveal.order],
                "tie_drawn": reveal.tie_drawn,
            }
        )
    log += [{"step": "aim", **aim_json(a, reveal)} for a in reveal.aims]
    if reveal.result:
        log.append(
            {
                "step": "result",
                **(result_json(reveal.result) or {}),
                "eliminated": list(reveal.eliminated),
            }
        )
    return log


def open_view(game: Dupli, state: State) -> dict[str, Any]:
    """The public view with every hand, this war's set cards before the reveal, the set-aside
    cards and the cards in the centre."""
    view = game.view(state, None)
    view["hands"] = [list(h) for h in state.hands]
    view["sets"] = [list(pair) if pair else None for pair in state.sets]
    view["set_aside"] = list(state.set_aside)
    view["centre_cards"] = list(state.centre)
    return view
