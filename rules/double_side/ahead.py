"""Double Side Play's plays chosen ahead: a card for leading or following each colour, in the
coming trick or (unless the hands are turned over between) the one after."""

from __future__ import annotations

from rules.ahead import Ahead
from rules.double_side.cards import (
    COLOUR_NAMES,
    COLOURS,
    SITUATION_NAMES,
    TURN_OVER_AFTER,
    card_name,
    colour,
    sort_key,
)
from rules.double_side.state import State, led_colour
from rules.messages import N_, Message, require, word
from rules.shapes import Action
from rules.tricks.ahead import (
    coming_card_number,
    coming_card_situations,
    coming_trick,
    owed_card_situation,
    situation_words,
    unfollowed,
)


class DoubleSideAhead(Ahead[State]):
    """A card for the seat's coming trick or the one after, by the colour it leads or follows."""

    def open_situations(self, state: State, seat: int) -> tuple[str, ...]:
        """Leading or following each colour in the coming trick, or the colour led in this one; and
        in the trick after, while the round lasts that long and the hands are not turned over
        between the two (a card chosen would then count another number than the page showed)."""
        hand = state.hands[seat] if state.phase in ("trump", "play") else ()
        if not hand:
            return ()
        leader = state.leader if state.phase == "trump" else state.turn
        then = len(hand) > 1 and coming_trick(seat, state.trick, len(state.completed)) != TURN_OVER_AFTER
        return coming_card_situations(seat, state.trick, leader, COLOURS, led_colour(state), then)

    def coming_play(self, state: State, seat: int) -> int:
        return coming_card_number(state.round, seat, state.trick, len(state.completed))

    def owed_situation(self, state: State, seat: int) -> str | None:
        """The card owed (the trump choice is made once the dice are known, so never ahead)."""
        return owed_card_situation(led_colour(state)) if state.phase == "play" else None

    def situation_name(self, situation: str) -> Message:
        return situation_words(situation, SITUATION_NAMES)

    def candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        hand = sorted(state.hands[seat], key=sort_key(state.side))
        return [({"card": card}, card_name(card, state.side)) for card in hand]

    def check_play(self, state: State, seat: int, situation: str, action: Action) -> None:
        """A card the seat holds, following the colour of the situation."""
        hand = state.hands[seat]
        require("card" in action, N_("Only a card can be chosen ahead."))
        card: str = action["card"]
        require(card in hand, N_("You do not hold %(card)s."), card=card_name(card, state.side))
        led = unfollowed(hand, card, situation, colour)
        require(led is None, N_("You must follow %(colour)s."), colour=word(COLOUR_NAMES.get(led or "", "")))

    def card_words(self, state: State, card: str) -> Message:
        """A card by the face in force on the side the hands show now."""
        return card_name(card, state.side)
