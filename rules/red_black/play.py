"""Red and Black Duel's play: the shuffles and deals, each action's events (camps, comparisons,
folds, the pot) and the result, behind the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.decks import decks_as_json, fixed_decks
from rules.game import Event, Game, Parts
from rules.messages import N_, require
from rules.red_black.ahead import RedBlackAhead
from rules.red_black.cards import (
    ACTION_SHAPES,
    DECK,
    FEE,
    FOLD,
    HAND_SIZE,
    NAME,
    POT,
    SEATS,
    TO_WIN,
    by_strength,
    camp_colours,
    card_name,
    colour_of,
    game_end,
    stronger,
    why_stronger,
)
from rules.red_black.state import FOLDS, State, fold_game_started, put, seat_to_play
from rules.red_black.view import RedBlackDuelView, dealt_again, open_view, view
from rules.red_black.words import TELLERS, heading, score_sheet
from rules.rng import SeededRandom
from rules.shapes import Action


class Log:
    """The events one call produces, with the state they lead to (later rules read earlier events)."""

    def __init__(self, game: RedBlackDuel, state: State | None) -> None:
        self.game = game
        self.state = state
        self.events: list[Event] = []

    @property
    def now(self) -> State:
        """The state the events so far lead to (the log has begun)."""
        assert self.state is not None
        return self.state

    def add(self, event: Event) -> None:
        """Record an event and fold it in."""
        self.events.append(event)
        self.state = self.game.apply(self.state, event)


class RedBlackDuel(Game[State]):
    """Red and Black Duel for two players."""

    view_shape = RedBlackDuelView
    action_shapes = ACTION_SHAPES
    ahead_type = RedBlackAhead
    tellers = TELLERS
    parts = Parts(
        started=fold_game_started,
        folds=FOLDS,
        view=view,
        open_view=open_view,
        dealt_again=dealt_again,
        heading=heading,
        score_sheet=score_sheet,
    )

    name: ClassVar[str] = NAME
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    default_options: ClassVar[dict[str, Any]] = {"deck": None}

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted, the first shuffle and the first deal."""
        opts = self.check_options(seats, options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        fixed_decks(opts["deck"], DECK, NAME)
        log = Log(self, None)
        log.add(
            self.event("GameStarted", seed=seed, seats=seats, options={"deck": decks_as_json(opts["deck"])})
        )
        self._start_round(log)
        return log.events

    def _start_round(self, log: Log) -> None:
        """The start of a round: the end check, a reshuffle if the deck ran low, the deal."""
        state = log.now
        end = game_end(state.chips)
        if end is not None:
            log.add(self.event("GameEnded", rounds=state.round, **end))
            return
        if len(state.pile) < 2 * HAND_SIZE:  # only 4 left (or none at the start): all 52 anew
            number = state.deck_number + 1
            fixed = number <= len(state.decks)
            cards = (
                state.decks[number - 1] if fixed else SeededRandom(state.seed, "deck", number).shuffled(DECK)
            )
            log.add(
                self.event(
                    "DeckShuffled", number=number, cards=list(cards), source="options" if fixed else "seed"
                )
            )
        pile = log.now.pile
        hands = [list(pile[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in SEATS]
        log.add(
            self.event("RoundDealt", round=state.round + 1, hands=hands, deck_left=len(pile) - 2 * HAND_SIZE)
        )

    def _to_act(self, state: State) -> frozenset[int]:
        """Camp phase: every seat that has not placed its camp card; play phase: whose turn it is."""
        if state.phase == "camp":
            return frozenset(s for s in SEATS if state.camp_cards[s] is None)
        if state.phase == "play":
            return frozenset((seat_to_play(state),))
        return frozenset()

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """The seat's hand cards when it is to act (strongest first); fold for both seats in play."""
        if state.phase == "over" or seat not in SEATS:
            return []
        cards = [{"card": c} for c in by_strength(state.hands[seat])]
        if state.phase == "camp":
            return cards if state.camp_cards[seat] is None else []
        if state.phase == "play":
            return [*cards, dict(FOLD)] if seat_to_play(state) == seat else [dict(FOLD)]
        return []

    def _result(self, state: State) -> dict[str, Any] | None:
        """None while running; else winners, draw, final chips, who was bankrupt / reached 30, rounds."""
        if state.end is None:
            return None
        return {key: list(value) if isinstance(value, tuple) else value for key, value in state.end}

    def _act(self, state: State, seat: int, action: Action) -> list[Event]:
        """The events of a seat's action; IllegalAction with the reason if the rules refuse it."""
        require(isinstance(state, State), N_("The game has not started."))
        require(type(seat) is int and seat in SEATS, N_("There is no seat %(seat)s in this game."), seat=seat)
        require(state.phase != "over", N_("The game is over."))
        log = Log(self, state)
        if "fold" in action:
            self._fold(log, seat)
        elif state.phase == "camp":
            self._place_camp_card(log, seat, action["card"])
        else:
            self._play_card(log, seat, action["card"])
        return log.events

    def _fold(self, log: Log, seat: int) -> None:
        """Give up the round: the other seat takes the pot; any face-down card is discarded unseen."""
        state = log.now
        require(
            state.phase == "play",
            N_("You may fold only once the pot is set, after the camp cards are revealed."),
        )
        self._win_round(log, 1 - seat, how="fold", colour=None, folder=seat)

    def _place_camp_card(self, log: Log, seat: int, card: str) -> None:
        """Put the camp card face down; once both are down, reveal them, decide camps and set the pot."""
        state = log.now
        require(
            state.camp_cards[seat] is None,
            N_("You have already placed your camp card; the other player has not placed theirs yet."),
        )
        require(card in state.hands[seat], N_("%(card)s is not in your hand."), card=card_name(card))
        log.add(self.event("CampCardPlaced", round=state.round, seat=seat, card=card))
        first, second = log.now.camp_cards
        if first is None or second is None:
            return  # hidden until the other camp card is down too
        log.add(
            self.event(
                "CampsRevealed",
                round=state.round,
                cards=[first, second],
                camps=list(camp_colours((first, second))),
                leader=0 if stronger(first, second) == first else 1,
                reason=why_stronger(first, second),
            )
        )
        log.add(self.event("PotSet", round=state.round, amount=POT, pot=state.pot + POT))

    def _play_card(self, log: Log, seat: int, card: str) -> None:
        """Put a card face down paying the fee; the second card of a comparison settles it."""
        state = log.now
        turn = seat_to_play(state)
        require(seat == turn, N_("It is not your turn: the other player puts the next card down."))
        require(card in state.hands[seat], N_("%(card)s is not in your hand."), card=card_name(card))
        first = state.table[1 - seat] is None
        log.add(
            self.event(
                "CardPlayed",
                round=state.round,
                seat=seat,
                card=card,
                fee=FEE,
                first=first,
                pot=state.pot + FEE,
            )
        )
        if first:
            return
        leader = state.leader if state.leader is not None else seat
        cards = put(state.table, seat, card)
        winner = cards.index(stronger(cards[0], cards[1]))
        counts = state.counts()
        counts[colour_of(cards[winner])] += 1
        log.add(
            self.event(
                "PlayWon",
                round=state.round,
                number=len(state.plays) + 1,
                leader=leader,
                cards=list(cards),
                winner=winner,
                winning_card=cards[winner],
                losing_card=cards[1 - winner],
                reason=why_stronger(*cards),
                colour=colour_of(cards[winner]),
                counts=counts,
            )
        )
        for colour in ("red", "black"):
            if counts[colour] >= TO_WIN:
                self._win_round(log, state.camps.index(colour), how="colour", colour=colour, folder=None)

    def _win_round(self, log: Log, winner: int, how: str, colour: str | None, folder: int | None) -> None:
        """The winner takes the pot, every card of the round is discarded, the next round starts."""
        state = log.now
        chips = list(state.chips)
        chips[winner] += state.pot
        log.add(
            self.event(
                "RoundWon",
                round=state.round,
                winner=winner,
                how=how,
                colour=colour,
                folder=folder,
                pot=state.pot,
                stack=state.stack(),
                chips=chips,
            )
        )
        self._start_round(log)
