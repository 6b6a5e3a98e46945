"""Red and Black Duel's plays chosen ahead: the seat's next face-down card (a fold is never chosen
ahead)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.ahead import Ahead
from rules.messages import N_, Message, require, word
from rules.red_black.cards import NEXT_CARD, by_strength, card_name
from rules.red_black.state import State, next_card
from rules.shapes import Action


class RedBlackAhead(Ahead[State]):
    """The next face-down card, chosen from the hand of this round."""

    def open_situations(self, state: State, seat: int) -> tuple[str, ...]:
        """The next face-down card (the other's card is hidden anyway); a fold is never chosen ahead."""
        return (next_card(state),) if state.phase in ("camp", "play") and state.hands[seat] else ()

    def owed_situation(self, state: State, seat: int) -> str | None:
        return next_card(state) if state.phase in ("camp", "play") else None

    def situation_name(self, situation: str) -> Message:
        if situation.partition(":")[0] != NEXT_CARD:
            raise ValueError(f"red_black has no situation {situation!r}")
        return word(N_("my next face-down card"))

    def candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        return [({"card": card}, card_name(card)) for card in by_strength(state.hands[seat])]

    def unchosen(self, situation: str, chosen: Mapping[str, Action]) -> Message:
        """A card chosen in an earlier round was chosen from another hand: never played (a card of
        the same name may be dealt again after a reshuffle)."""
        if chosen:
            return N_("it was chosen in an earlier round, for another hand"), {}
        return super().unchosen(situation, chosen)

    def check_play(self, state: State, seat: int, situation: str, action: Action) -> None:
        require("card" in action, N_("A fold is never chosen ahead: fold when you mean it."))
        card = action["card"]
        require(card in state.hands[seat], N_("You do not hold %(card)s."), card=card_name(card))
