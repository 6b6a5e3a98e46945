"""Duālis's play: the options, the deal, each action's events and the result, behind the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.decks import decks_as_json, fixed_decks
from rules.dualis.ahead import DualisAhead
from rules.dualis.cards import (
    ACTION_SHAPES,
    BOOL_OPTIONS,
    CARD_INFO,
    CARDS,
    COINS,
    HAND_SIZE,
    MUST_FOLLOW,
    NAME,
    OPPOSITE,
    SHORT_COINS,
    SHORT_HAND_SIZE,
    WINS_NEEDED,
    card_name,
    iso_game_over,
    score_round,
    sort_cards,
    suit_of,
    top_sides,
    trick_outcome,
)
from rules.dualis.state import (
    FOLDS,
    State,
    coin_left,
    current_seat,
    fold_game_started,
    led_suit,
    match_scores,
    play_json,
    playable_cards,
    round_json,
    scoring_sides,
    side_of,
)
from rules.dualis.view import DualisView, dealt_again, open_view, view
from rules.dualis.words import TELLERS, score_sheet
from rules.game import Event, Parts
from rules.messages import N_, IllegalAction, require
from rules.rng import SeededRandom
from rules.shapes import Action
from rules.tricks.replay import TrickGame, round_and_trick


def check_flags(options: Mapping[str, Any]) -> None:
    """ValueError unless the on/off options are true or false."""
    for key in BOOL_OPTIONS:
        if type(options[key]) is not bool:
            raise ValueError(f"dualis option {key!r} must be true or false, not {options[key]!r}")


def check_first_leader(value: object, seats: int) -> None:
    """ValueError unless first_leader is None or a seat number."""
    if value is not None and (type(value) is not int or not 0 <= value < seats):
        raise ValueError(f"dualis option 'first_leader' must be a seat from 0 to {seats - 1}, not {value!r}")


class Dualis(TrickGame[State]):
    """The rules of Duālis behind the rules contract."""

    view_shape = DualisView
    action_shapes = ACTION_SHAPES
    ahead_type = DualisAhead
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

    name = NAME
    seat_counts = (3, 4)
    default_options = {  # noqa: RUF012 (the contract's plain dict)
        "short": False,
        "high_low": False,
        "iso": False,
        "open_history": False,
        "first_leader": None,
        "deck": None,
    }

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted with the full options, then the first deal and first leader."""
        opts = self.check_options(seats, options)
        check_flags(opts)
        if not opts["iso"] and seats != 4:
            raise ValueError(f"dualis is played by 4 players in partnerships (3 or 4 with iso), not {seats}")
        check_first_leader(opts["first_leader"], seats)
        fixed_decks(opts["deck"], CARDS, NAME)
        opts["deck"] = decks_as_json(opts["deck"])
        started = self.event("GameStarted", seed=seed, seats=seats, options=opts)
        state = self.apply(None, started)
        leader = opts["first_leader"]
        if leader is None:
            leader = SeededRandom(seed, "first_leader").below(seats)
        return [started, self._deal(state, 1, leader)]

    def _deal(self, state: State, round_: int, leader: int) -> Event:
        """RoundDealt for a round: the host's deck for it if given, else a shuffle from the seed."""
        if round_ <= len(state.decks):
            deck = list(state.decks[round_ - 1])
        else:
            deck = SeededRandom(state.seed, "deal", round_).shuffled(CARDS)
        size = SHORT_HAND_SIZE if state.short else HAND_SIZE
        hands = [sort_cards(deck[i * size : (i + 1) * size]) for i in range(state.seats)]
        coins = SHORT_COINS if state.short else COINS
        return self.event(
            "RoundDealt",
            round=round_,
            leader=leader,
            hands=hands,
            set_aside=sort_cards(deck[state.seats * size :]),
            coins={"R": coins, "B": coins},
        )

    def _to_act(self, state: State) -> frozenset[int]:
        """The one seat to play, or nobody before the first deal and once the game is over."""
        if state.winners is not None or state.round == 0:
            return frozenset()
        return frozenset({current_seat(state)})

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """Each playable card, and with a coin where the opposite colour is left in the centre."""
        actions: list[Action] = []
        for card in playable_cards(state, seat):
            actions.append({"card": card})
            if coin_left(state, card):
                actions.append({"card": card, "coin": True})
        return actions

    def _act(self, state: State, seat: int, action: Action) -> list[Event]:
        """CardPlayed, and when it completes the trick TrickWon; after the last trick RoundScored
        and then the next RoundDealt or GameEnded."""
        card, coin = self._checked(state, seat, action)
        colour = OPPOSITE[CARD_INFO[card][2]] if coin else CARD_INFO[card][2]
        trick = len(state.completed) + 1
        played = self.event(
            "CardPlayed", round=state.round, trick=trick, seat=seat, card=card, coin=coin, colour=colour
        )
        events = [played]
        after = self.apply(state, played)
        if len(after.trick) < after.seats:
            return events
        events.append(self._won_event(after))
        after = self.apply(after, events[-1])
        if any(after.hands):
            return events
        events.append(self._scored_event(after))
        after = self.apply(after, events[-1])
        if self._game_over(after):
            events.append(self._ended_event(after))
        else:
            events.append(self._deal(after, after.round + 1, after.leader))
        return events

    def _checked(self, state: State, seat: int, action: Action) -> tuple[str, bool]:
        """The card and coin choice of a legal play; IllegalAction otherwise."""
        card, coin = action["card"], action.get("coin", False)
        require(state.winners is None, N_("The game is over."))
        require(
            type(seat) is int and 0 <= seat < state.seats, N_("There is no seat %(seat)s."), seat=str(seat)
        )
        require(seat == current_seat(state), N_("It is not your turn."))
        require(card in state.hands[seat], N_("You do not hold %(card)s."), card=card_name(card))
        led = led_suit(state)
        if led is not None and suit_of(card) != led and any(suit_of(c) == led for c in state.hands[seat]):
            raise IllegalAction(MUST_FOLLOW[led])
        if coin and not coin_left(state, card):
            wanted = OPPOSITE[CARD_INFO[card][2]]
            raise IllegalAction(
                N_("No Red coin is left in the centre.")
                if wanted == "R"
                else N_("No Blue coin is left in the centre.")
            )
        return card, coin

    def _won_event(self, state: State) -> Event:
        """TrickWon for a full trick, with everything that decided it."""
        outcome = trick_outcome(state.trick, state.centre, state.high_low)
        return self.event(
            "TrickWon",
            round=state.round,
            trick=len(state.completed) + 1,
            winner=outcome.winner,
            card=outcome.card,
            led_suit=outcome.led_suit,
            plays=[play_json(p) for p in state.trick],
            centre={"R": state.centre[0], "B": state.centre[1]},
            trump=outcome.trump,
            direction=outcome.direction,
            reason=outcome.reason,
        )

    def _scored_event(self, state: State) -> Event:
        """RoundScored: each seat's and side's tricks and coins, scores, winners and match score."""
        seat_coins = [sum(c) for c in state.coins]
        sides = scoring_sides(state)
        tricks, coins, scores, winners = score_round(sides, state.won, seat_coins, state.iso)
        before = match_scores(state)
        if state.iso:
            after = [t + s for t, s in zip(before, scores, strict=True)]
        else:
            after = [w + (i in winners) for i, w in enumerate(before)]
        return self.event(
            "RoundScored",
            round=state.round,
            mode="iso" if state.iso else "partnership",
            sides=[list(side) for side in sides],
            seat_tricks=list(state.won),
            seat_coins=seat_coins,
            tricks=tricks,
            coins=coins,
            scores=scores,
            winners=list(winners),
            match=after,
        )

    def _game_over(self, state: State) -> bool:
        """Whether the match ends after the rounds scored so far."""
        scores = match_scores(state)
        if state.iso:
            return iso_game_over(scores, len(state.results))
        return max(scores) >= WINS_NEEDED

    def _ended_event(self, state: State) -> Event:
        """GameEnded with the winning seats and the final match score."""
        scores = match_scores(state)
        sides = scoring_sides(state)
        best = top_sides(scores)
        return self.event(
            "GameEnded",
            mode="iso" if state.iso else "partnership",
            sides=[list(side) for side in sides],
            winning_sides=best,
            winners=sorted(s for i in best for s in sides[i]),
            match=scores,
            rounds=len(state.results),
        )

    def _result(self, state: State) -> dict[str, Any] | None:
        """None while playing; else the winners, the sides and the match score."""
        if state.winners is None:
            return None
        return {
            "winners": list(state.winners),
            "mode": "iso" if state.iso else "partnership",
            "sides": [list(side) for side in scoring_sides(state)],
            "scores": match_scores(state),
            "rounds": [round_json(r) for r in state.results],
        }

    def forfeit_result(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """The result when `seat` forfeits: the other sides win (in a partnership, the partner loses
        too)."""
        losers = scoring_sides(state)[side_of(state, seat)]
        return {"winners": [other for other in range(seats) if other not in losers], "forfeit": seat}

    def finished(self, state: State) -> bool:
        """Whether the play is over."""
        return state.winners is not None
