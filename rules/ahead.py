"""Plays chosen ahead of the turn, beside every game's play: the situations a seat's coming play may
meet, checking and storing a play chosen for one, and making it once the play is owed. Written once
here; each game gives its own hooks (the `Ahead` subclass it names as `ahead_type`) and is reached
as `game.ahead`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from rules.messages import N_, IllegalAction, Message, is_message, require
from rules.shapes import Action
from rules.table import closure

if TYPE_CHECKING:
    from rules.game import Game

S = TypeVar("S")  # a game's state type

# A situation of the play after the seat's coming one ("then:lead"), in the games that number plays.
THEN = "then:"


class Ahead(Generic[S]):
    """One game's plays chosen ahead. The public methods are the same for every game; the hooks
    (`open_situations` to `card_words`) are the game's own, by default a game that queues nothing."""

    def __init__(self, game: Game[S]) -> None:
        self.game = game

    # --- the same for every game ------------------------------------------------------------------

    def situations(self, state: S, seat: int) -> tuple[str, ...]:
        """The situations of the seat's coming play it may choose a play for now, ahead of its turn
        (none while it owes a move, once the game is over, or where its game queues nothing)."""
        game = self.game
        if closure(state) or game.result(state) is not None or seat in game.to_act(state):
            return ()
        return self.open_situations(state, seat)

    def owed(self, state: S, seat: int) -> str | None:
        """The situation of the play the seat owes now, if a play chosen ahead may answer it."""
        if closure(state) or seat not in self.game.to_act(state):
            return None
        return self.owed_situation(state, seat)

    def check(self, state: S, seat: int, situation: str, action: object) -> Action:
        """A play chosen ahead for one situation of the seat's coming play, checked as far as it can
        be now (its shape, a card the seat holds, following); IllegalAction naming what is wrong."""
        require(
            situation in self.situations(state, seat),
            N_("That situation cannot arise for your coming play."),
        )
        checked = self.game.check_action(action)
        self.check_play(state, seat, situation, checked)
        return checked

    def check_queue(self, state: S, seat: int, chosen: Mapping[str, Action]) -> None:
        """Plays chosen ahead (by situation) that cannot all be made: a card chosen for the trick after
        that the coming card certainly uses up, being chosen for every situation the coming trick may
        bring. IllegalAction naming the card (the play would always be dropped as no longer held)."""
        coming = [s for s in self.situations(state, seat) if not s.startswith(THEN)]
        for situation, action in chosen.items():
            card = action.get("card")
            if not situation.startswith(THEN) or card is None or not coming:
                continue
            if all(chosen.get(now, {}).get("card") == card for now in coming):
                raise IllegalAction(
                    N_("%(card)s is your coming card: choose another card for the trick after."),
                    card=self.card_words(state, card),
                )

    def choices(self, state: S, seat: int, situation: str) -> list[tuple[Action, Message]]:
        """Every play the seat may choose ahead for a situation it is offered, each with its words."""
        choices = []
        for action, label in self.candidates(state, seat, situation):
            try:
                choices.append((self.check(state, seat, situation, action), label))
            except IllegalAction:
                continue
        return choices

    def play(self, state: S, seat: int, chosen: Mapping[str, Action]) -> Action | Message:
        """The play to make now among those the seat chose ahead (by situation) for the play it owes,
        or why none fits: none chosen for this situation, or the rules refuse it now."""
        situation = self.owed(state, seat)
        if situation is None:
            raise ValueError("the seat owes no play a play chosen ahead answers")
        if situation not in chosen:
            return self.unchosen(situation, chosen)
        action = self.ready(state, seat, chosen[situation])
        if is_message(action):
            return cast(Message, action)
        try:
            self.game.act(state, seat, action)
        except IllegalAction as refusal:
            return refusal.msgid, refusal.params
        return action

    def target(self, state: S, seat: int, situation: str) -> tuple[str, int | None]:
        """A situation offered now as the play it answers will be owed: the owed situation and the
        number of that play (None where plays are not numbered)."""
        number = self.coming_play(state, seat)
        if number is None:
            return situation, None
        if situation.startswith(THEN):
            return situation.removeprefix(THEN), number + 1
        return situation, number

    def now(self, state: S, seat: int, situation: str, number: int | None) -> str | None:
        """A stored play chosen ahead (its owed situation and play number) as the seat's situations
        name it now; None once the play it answered has passed."""
        coming = self.coming_play(state, seat)
        if number is None or coming is None:
            return situation
        if number == coming:
            return situation
        if number == coming + 1:
            return THEN + situation
        return None

    def answers_owed(self, state: S, seat: int, situation: str, number: int | None) -> bool:
        """Whether a stored play chosen ahead answers the play the seat owes now (in a numbered game,
        only the one chosen for this very play)."""
        owed = self.owed(state, seat)
        if owed is None or not self.answered_together(owed, situation):
            return False
        return number is None or number == self.coming_play(state, seat)

    # --- each game's own ------------------------------------------------------------------------

    def open_situations(self, state: S, seat: int) -> tuple[str, ...]:
        """The situations a seat not owing a move may choose its coming play for."""
        return ()

    def owed_situation(self, state: S, seat: int) -> str | None:
        """The situation of an owed play, for the games that queue plays."""
        return None

    def situation_name(self, situation: str) -> Message:
        """A situation in the game's words ("if Stars are led")."""
        raise ValueError(f"{self.game.name} has no situation {situation!r}")

    def candidates(self, state: S, seat: int, situation: str) -> list[tuple[Action, Message]]:
        """Plays a seat might choose ahead for a situation, with their words."""
        return []

    def check_play(self, state: S, seat: int, situation: str, action: Action) -> None:
        """The game's own checks of a play chosen ahead."""
        raise IllegalAction(N_("That situation cannot arise for your coming play."))

    def unchosen(self, situation: str, chosen: Mapping[str, Action]) -> Message:
        """Why no play chosen ahead is made when none was chosen for the owed situation."""
        return N_("you chose no play for this case: %(situation)s"), {
            "situation": self.situation_name(situation)
        }

    def ready(self, state: S, seat: int, action: Action) -> Action | Message:
        """A play chosen ahead as it is made now (Duālis drops a coin none is left of), or why it
        no longer fits."""
        return action

    def coming_play(self, state: S, seat: int) -> int | None:
        """The number of the seat's coming play, counted through the game, in the games that let a
        seat choose past its coming play (`THEN` situations); None in the others."""
        return None

    def answered_together(self, owed: str, chosen: str) -> bool:
        """Whether a play chosen ahead for `chosen` is used up when the seat owes a play in situation
        `owed`: by default every situation is an alternative of the one coming play."""
        return True

    def card_words(self, state: S, card: str) -> Message:
        """A card of this game in words as it stands in `state`, by its package's `card_name` (the
        index of games imports this module, hence the import here)."""
        from rules import card_name

        return card_name(self.game.name, card)
