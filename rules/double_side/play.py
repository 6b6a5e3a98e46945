"""Double Side Play's play: the options, the deal and dice, each action's events and the result,
behind the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.decks import fixed_decks
from rules.double_side.ahead import DoubleSideAhead
from rules.double_side.cards import (
    ACTION_SHAPES,
    COLOUR_NAMES,
    COLOURS,
    DECK,
    HAND_SIZE,
    NAME,
    POINTS_TO_WIN,
    TURN_OVER_AFTER,
    card_name,
    colour,
    first_leader,
    number,
    roll_dice,
    targets,
    trick_winner,
    trump_chooser,
)
from rules.double_side.state import (
    FOLDS,
    State,
    dice_option,
    fold_game_started,
    led_colour,
    playable_cards,
    record_json,
)
from rules.double_side.view import DoubleSideView, dealt_again, open_view, view
from rules.double_side.words import TELLERS, score_sheet
from rules.game import Event, Parts
from rules.messages import N_, require, word
from rules.rng import SeededRandom
from rules.shapes import Action
from rules.tricks.replay import TrickGame, round_and_trick


def json_copy(value: object) -> object:
    """A plain-JSON copy of an option value (tuples become lists)."""
    if isinstance(value, (list, tuple)):
        return [json_copy(item) for item in value]
    return value


class DoubleSide(TrickGame[State]):
    """Double Side Play's rules behind the common contract."""

    view_shape = DoubleSideView
    action_shapes = ACTION_SHAPES
    ahead_type = DoubleSideAhead
    tellers = TELLERS
    parts = Parts(
        started=fold_game_started,
        folds=FOLDS,
        view=view,
        open_view=open_view,
        dealt_again=dealt_again,
        heading=round_and_trick,
        score_sheet=score_sheet,
    )

    name: ClassVar[str] = NAME
    seat_counts: ClassVar[tuple[int, ...]] = (3, 4)
    default_options: ClassVar[dict[str, Any]] = {
        "trump": False,
        "open_history": False,
        "deck": None,
        "dice": None,
    }

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted (seed, seats, all options) and the first RoundDealt."""
        if type(seed) is not int:
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        opts = self.check_options(seats, options)
        for flag in ("trump", "open_history"):
            if type(opts[flag]) is not bool:
                raise ValueError(f"option {flag} must be true or false, not {opts[flag]!r}")
        fixed_decks(opts["deck"], DECK, NAME)
        dice_option(opts["dice"], seats)
        opts = {key: json_copy(value) for key, value in opts.items()}
        started = self.event("GameStarted", game=NAME, seed=seed, seats=seats, options=opts)
        return [started, self._deal(self.apply(None, started), 1)]

    def _deal(self, st: State, round_no: int) -> Event:
        """RoundDealt: the shuffle (or the fixed deck), dice with every re-roll, leader, chooser."""
        if round_no <= len(st.decks):
            deck = list(st.decks[round_no - 1])
        else:
            deck = SeededRandom(st.seed, "deal", round_no).shuffled(DECK)
        if round_no <= len(st.fixed_dice):
            rolls = [[list(pair)] for pair in st.fixed_dice[round_no - 1]]
        else:
            rolls = [roll_dice(SeededRandom(st.seed, "dice", round_no, seat)) for seat in range(st.seats)]
        dice = [seat_rolls[-1] for seat_rolls in rolls]
        leader, leader_reason = first_leader(dice, st.seed, round_no)
        chooser, chooser_reason = trump_chooser(dice, st.seed, round_no) if st.trump_option else (None, None)
        hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(st.seats)]
        return self.event(
            "RoundDealt",
            round=round_no,
            hands=hands,
            set_aside=deck[st.seats * HAND_SIZE :],
            rolls=rolls,
            dice=dice,
            leader=leader,
            leader_reason=leader_reason,
            trump_chooser=chooser,
            chooser_reason=chooser_reason,
        )

    def _to_act(self, state: State) -> frozenset[int]:
        """The trump chooser while trump is open, else the seat to play; nobody between rounds."""
        seat = state.chooser if state.phase == "trump" else state.turn if state.phase == "play" else None
        if seat is not None:
            return frozenset((seat,))
        return frozenset()

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """The four trump colours for the chooser, or the cards this seat may play now."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "trump":
            return [{"trump": c} for c in COLOURS]
        return [{"card": card} for card in playable_cards(state, seat)]

    def _act(self, state: State, seat: int, action: Action) -> list[Event]:
        """The events of a trump choice or a card play; IllegalAction for anything else."""
        require(state is not None and state.phase != "starting", N_("The game has not started."))
        require(
            type(seat) is int and 0 <= seat < state.seats, N_("There is no seat %(seat)s."), seat=str(seat)
        )
        require(state.phase != "over", N_("The game is over."))
        if "trump" in action:
            return self._choose_trump(state, seat, action["trump"])
        return self._play(state, seat, action["card"])

    def _choose_trump(self, state: State, seat: int, choice: str) -> list[Event]:
        """TrumpChosen, after checking the chooser and the phase."""
        require(state.trump_option, N_("This game is played without trump."))
        require(state.phase == "trump", N_("Trump has already been chosen for this round."))
        require(seat == state.chooser, N_("Only the player with the highest dice chooses trump this round."))
        return [self.event("TrumpChosen", round=state.round, seat=seat, trump=choice)]

    def _play(self, state: State, seat: int, card: str) -> list[Event]:
        """CardPlayed and whatever it settles, after checking the turn, the hand and following."""
        require(state.phase != "trump", N_("Trump must be chosen before the first card is played."))
        require(seat == state.turn, N_("It is not your turn."))
        require(card in state.hands[seat], N_("You do not hold %(card)s."), card=card_name(card, state.side))
        led = led_colour(state)
        if led is not None and colour(card) != led:
            require(
                all(colour(c) != led for c in state.hands[seat]),
                N_("You must follow %(colour)s."),
                colour=word(COLOUR_NAMES[led]),
            )
        return self._play_events(state, seat, card)

    def _play_events(self, state: State, seat: int, card: str) -> list[Event]:
        """CardPlayed, then as they fall due: TrickWon, HandsTurnedOver, RoundScored, and GameEnded
        or the next RoundDealt. Each event is applied before the next is decided."""
        events: list[Event] = []
        st = state

        def emit(event: Event) -> None:
            nonlocal st
            events.append(event)
            st = self.apply(st, event)

        side = state.side
        emit(
            self.event(
                "CardPlayed",
                round=st.round,
                trick=st.trick_number,
                seat=seat,
                card=card,
                side=side,
                number=number(card, side),
            )
        )
        if len(st.trick) < st.seats:
            return events
        emit(self._trick_won(st))
        if st.trick_number == TURN_OVER_AFTER + 1:
            emit(self.event("HandsTurnedOver", round=st.round))
        if st.phase == "scoring":
            emit(self._round_scored(st))
            emit(self._game_ended(st) if max(st.points) >= POINTS_TO_WIN else self._deal(st, st.round + 1))
        return events

    def _trick_won(self, st: State) -> Event:
        """TrickWon for the full trick on the table, with everything that explains it."""
        cards = [play.card for play in st.trick]
        index = trick_winner(cards, st.side, st.trump)
        card = cards[index]
        return self.event(
            "TrickWon",
            round=st.round,
            trick=st.trick_number,
            winner=st.trick[index].seat,
            card=card,
            side=st.side,
            number=number(card, st.side),
            colour=colour(card),
            led=colour(cards[0]),
            trump=st.trump,
            by_trump=colour(card) == st.trump,
            plays=[{"seat": p.seat, "card": p.card} for p in st.trick],
        )

    def _round_scored(self, st: State) -> Event:
        """RoundScored: each seat's tricks against its dice; a point for every seat on target."""
        scorers = [seat for seat in range(st.seats) if st.tricks_won[seat] in targets(st.dice[seat])]
        points = [p + (seat in scorers) for seat, p in enumerate(st.points)]
        return self.event(
            "RoundScored",
            round=st.round,
            dice=[list(d) for d in st.dice],
            targets=[targets(d) for d in st.dice],
            tricks=list(st.tricks_won),
            scorers=scorers,
            points=points,
        )

    def _game_ended(self, st: State) -> Event:
        """GameEnded: everyone on 2 points wins together."""
        winners = [seat for seat, p in enumerate(st.points) if p >= POINTS_TO_WIN]
        return self.event("GameEnded", winners=winners, points=list(st.points), rounds=st.round)

    def _result(self, state: State) -> dict[str, Any] | None:
        """None while running; else the winners, points, rounds played and the score sheet."""
        if state.phase != "over":
            return None
        return {
            "winners": list(state.winners or ()),
            "points": list(state.points),
            "rounds": state.round,
            "history": [record_json(r, True) for r in state.history],
        }

    def finished(self, state: State) -> bool:
        """Whether the play is over."""
        return state.phase == "over"
