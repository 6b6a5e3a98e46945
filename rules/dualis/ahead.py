"""Duālis's plays chosen ahead: a card (and a coin) for leading or following each suit, in the
coming trick or the one after."""

from __future__ import annotations

from rules.ahead import Ahead
from rules.dualis.cards import MUST_FOLLOW, SITUATION_NAMES, SUITS, card_name, sort_cards, suit_of
from rules.dualis.state import State, coin_left, led_suit
from rules.messages import N_, IllegalAction, Message, require
from rules.shapes import Action
from rules.tricks.ahead import (
    coming_card_number,
    coming_card_situations,
    owed_card_situation,
    situation_words,
    unfollowed,
)


class DualisAhead(Ahead[State]):
    """A card for the seat's coming trick or the one after, by the suit it leads or follows."""

    def open_situations(self, state: State, seat: int) -> tuple[str, ...]:
        """Leading or following each suit in the coming trick, or the suit led in this one; and in
        the trick after, while the round lasts that long."""
        hand = state.hands[seat] if state.round else ()
        if not hand:
            return ()
        led = led_suit(state)
        return coming_card_situations(seat, state.trick, state.leader, SUITS, led, then=len(hand) > 1)

    def coming_play(self, state: State, seat: int) -> int:
        return coming_card_number(state.round, seat, state.trick, len(state.completed))

    def owed_situation(self, state: State, seat: int) -> str | None:
        return owed_card_situation(led_suit(state))

    def situation_name(self, situation: str) -> Message:
        return situation_words(situation, SITUATION_NAMES)

    def candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        """Each card held, plainly or taking a coin if one of that colour is left."""
        choices: list[tuple[Action, Message]] = []
        for card in sort_cards(state.hands[seat]):
            choices.append(({"card": card}, card_name(card)))
            coin = (N_("%(card)s, taking a coin if one is left"), {"card": card_name(card)})
            choices.append(({"card": card, "coin": True}, coin))
        return choices

    def check_play(self, state: State, seat: int, situation: str, action: Action) -> None:
        """A card the seat holds, following the suit of the situation; a coin is taken if one of
        that colour is left when the card is played."""
        hand = state.hands[seat]
        card = action["card"]
        require(card in hand, N_("You do not hold %(card)s."), card=card_name(card))
        led = unfollowed(hand, card, situation, suit_of)
        if led is not None:
            raise IllegalAction(MUST_FOLLOW[led])

    def ready(self, state: State, seat: int, action: Action) -> Action | Message:
        """The card, with its coin only if one of that colour is left."""
        card = action["card"]
        if action.get("coin") and card in state.hands[seat] and not coin_left(state, card):
            return {"card": card}
        return action
