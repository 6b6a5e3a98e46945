"""Dupli's plays chosen ahead: keeping the set cards if a Charge comes, and the standing answer
to a Benevolence aimed at the seat's card."""

from __future__ import annotations

from rules.ahead import Ahead
from rules.dupli.cards import CHARGE_ANSWER, PATRIOTISM_ANSWER, SITUATION_NAMES, pair_name
from rules.dupli.state import State
from rules.messages import N_, Message, require, word
from rules.shapes import Action


class DupliAhead(Ahead[State]):
    """The answer to a Charge and the answer to an aimed Benevolence, each its own play."""

    def open_situations(self, state: State, seat: int) -> tuple[str, ...]:
        """Keeping the set cards if a Charge comes (once set), and the Patriotism answer while the
        seat holds a Patriotism anywhere."""
        if state.phase in ("deal", "end", "over"):
            return ()
        keep = (CHARGE_ANSWER,) if state.phase == "set" and state.sets[seat] is not None else ()
        held = state.hands[seat] + tuple(state.sets[seat] or ()) + state.vp[seat]
        return keep + ((PATRIOTISM_ANSWER,) if "patriotism" in held else ())

    def owed_situation(self, state: State, seat: int) -> str | None:
        return {"charge": CHARGE_ANSWER, "react": PATRIOTISM_ANSWER}.get(state.phase)

    def situation_name(self, situation: str) -> Message:
        return word(SITUATION_NAMES[situation])

    def answered_together(self, owed: str, chosen: str) -> bool:
        """The two answers are separate plays."""
        return owed == chosen

    def candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        if situation == CHARGE_ANSWER:
            pair = list(state.sets[seat] or ())
            return [({"set": pair}, (N_("keep %(cards)s"), {"cards": pair_name(pair)}))]
        return [
            ({"cancel": True}, word(N_("spend a Patriotism"))),
            ({"cancel": False}, word(N_("keep my Patriotism"))),
        ]

    def check_play(self, state: State, seat: int, situation: str, action: Action) -> None:
        if situation == CHARGE_ANSWER:
            pair = sorted(action.get("set") or ())
            require(pair == list(state.sets[seat] or ()), N_("Only keeping your set cards is chosen ahead."))
        else:
            require("cancel" in action, N_("Choose whether to spend a Patriotism."))

    def ready(self, state: State, seat: int, action: Action) -> Action | Message:
        """Keeping applies only to the cards set when it was chosen."""
        if "set" in action and sorted(action["set"]) != list(state.sets[seat] or ()):
            return N_("your set cards are not the ones you chose to keep"), {}
        return action
