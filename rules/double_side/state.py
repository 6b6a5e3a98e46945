"""Double Side Play's state: what a game is at one moment, how each event folds into it, and what
it says."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.decks import fixed_decks
from rules.double_side.cards import (
    BLACK,
    DECK,
    NAME,
    TRICKS_PER_ROUND,
    WHITE,
    Dice,
    colour,
    sort_key,
    targets,
)
from rules.game import Event
from rules.table import Closure
from rules.tricks.play import CompletedTrick, Play, next_seat, playable


@dataclass(frozen=True)
class RoundRecord:
    """A finished round as the score sheet keeps it."""

    number: int
    dice: tuple[Dice, ...]
    tricks: tuple[int, ...]
    scorers: tuple[int, ...]
    points: tuple[int, ...]
    trump: str | None
    set_aside: tuple[str, ...]


@dataclass(frozen=True)
class State:
    """The whole game: options, the round in play (hands, dice, tricks) and the score sheet.

    Phases: "starting" (before the first deal), "trump" (the chooser names trump), "play",
    "scoring" (the twelfth trick is done), "round_over" (scored, next deal follows), "over".
    """

    seed: int
    seats: int
    trump_option: bool
    open_history: bool
    decks: tuple[tuple[str, ...], ...]
    fixed_dice: tuple[tuple[Dice, ...], ...]
    round: int = 0
    phase: str = "starting"
    hands: tuple[tuple[str, ...], ...] = ()
    set_aside: tuple[str, ...] = ()
    rolls: tuple[tuple[Dice, ...], ...] = ()
    dice: tuple[Dice, ...] = ()
    leader: int | None = None
    leader_reason: str | None = None
    chooser: int | None = None
    chooser_reason: str | None = None
    trump: str | None = None
    turned: bool = False
    turn: int | None = None
    trick_number: int = 1
    trick: tuple[Play, ...] = ()
    completed: tuple[CompletedTrick[Play], ...] = ()
    previous_trick: CompletedTrick[Play] | None = None  # the last trick of the round before (public)
    tricks_won: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    history: tuple[RoundRecord, ...] = ()
    winners: tuple[int, ...] | None = None
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.table)

    @property
    def side(self) -> str:
        """The side in force: white once the hands are turned over."""
        return WHITE if self.turned else BLACK


def evolve(state: State, **changes: Any) -> State:
    """A copy of the state with some fields changed. Same result as dataclasses.replace, but several
    times faster (no __init__ over every field), which matters because whole logs are folded often."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__, **changes)
    return new


def bump(values: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The tuple with one more at `index`."""
    return (*values[:index], values[index] + 1, *values[index + 1 :])


# --- the options kept in the state


def is_int(value: object, low: int, high: int) -> bool:
    """Whether value is a plain int (not a bool) in [low, high]."""
    return type(value) is int and low <= value <= high


def dice_option(dice: object, seats: int) -> tuple[tuple[Dice, ...], ...]:
    """The `dice` option as one roll per seat per round; ValueError for a bad or doubled pair."""
    if dice is None:
        return ()
    if not isinstance(dice, (list, tuple)):
        raise ValueError("option dice must be a list (one entry per round) of a pair of dice per seat")
    rounds = []
    for i, entry in enumerate(dice):
        if not isinstance(entry, (list, tuple)) or len(entry) != seats:
            raise ValueError(
                f"option dice: round {i + 1} must give a pair of dice for each of the {seats} seats"
            )
        for pair in entry:
            if (
                not isinstance(pair, (list, tuple))
                or len(pair) != 2
                or not all(is_int(d, 1, 6) for d in pair)
            ):
                raise ValueError(f"option dice: round {i + 1} has {pair!r}, not a pair of dice 1-6")
            if pair[0] == pair[1]:
                raise ValueError(
                    f"option dice: round {i + 1} has the double {pair!r}; the two dice must differ"
                )
        rounds.append(tuple((pair[0], pair[1]) for pair in entry))
    return tuple(rounds)


# --- folding events


def fold_game_started(e: Event) -> State:
    """A new game with no round dealt yet."""
    opts, seats = e["options"], e["seats"]
    return State(
        seed=e["seed"],
        seats=seats,
        trump_option=opts["trump"],
        open_history=opts["open_history"],
        decks=fixed_decks(opts["deck"], DECK, NAME),
        fixed_dice=dice_option(opts["dice"], seats),
        points=(0,) * seats,
    )


def fold_round_dealt(st: State, e: Event) -> State:
    """A fresh round: hands, set-aside cards, dice, first leader and any trump chooser; the last
    trick of the round before stays in view."""
    chooser = e["trump_chooser"]
    return evolve(
        st,
        round=e["round"],
        phase="play" if chooser is None else "trump",
        hands=tuple(tuple(hand) for hand in e["hands"]),
        set_aside=tuple(e["set_aside"]),
        rolls=tuple(tuple((a, b) for a, b in seat_rolls) for seat_rolls in e["rolls"]),
        dice=tuple((a, b) for a, b in e["dice"]),
        leader=e["leader"],
        leader_reason=e["leader_reason"],
        chooser=chooser,
        chooser_reason=e["chooser_reason"],
        trump=None,
        turned=False,
        turn=e["leader"],
        trick_number=1,
        trick=(),
        completed=(),
        previous_trick=st.completed[-1] if st.completed else None,
        tricks_won=(0,) * st.seats,
    )


def fold_trump_chosen(st: State, e: Event) -> State:
    """Trump named; the first leader may lead."""
    return evolve(st, phase="play", trump=e["trump"])


def fold_card_played(st: State, e: Event) -> State:
    """A card leaves its hand for the trick; the next seat is to play."""
    seat, card = e["seat"], e["card"]
    hand = tuple(c for c in st.hands[seat] if c != card)
    hands = (*st.hands[:seat], hand, *st.hands[seat + 1 :])
    return evolve(st, hands=hands, trick=(*st.trick, Play(seat, card)), turn=next_seat(seat, st.seats))


def fold_trick_won(st: State, e: Event) -> State:
    """The trick goes to its winner, who leads next (unless the round is done)."""
    winner = e["winner"]
    done = CompletedTrick(number=e["trick"], plays=st.trick, winner=winner)
    last = e["trick"] >= TRICKS_PER_ROUND
    return evolve(
        st,
        completed=(*st.completed, done),
        tricks_won=bump(st.tricks_won, winner),
        trick=(),
        trick_number=e["trick"] + 1,
        turn=None if last else winner,
        phase="scoring" if last else st.phase,
    )


def fold_hands_turned_over(st: State, e: Event) -> State:
    """Every hand turned over: white numbers from now on."""
    return evolve(st, turned=True)


def fold_round_scored(st: State, e: Event) -> State:
    """Points added and the round written on the score sheet."""
    record = RoundRecord(
        number=e["round"],
        dice=st.dice,
        tricks=tuple(e["tricks"]),
        scorers=tuple(e["scorers"]),
        points=tuple(e["points"]),
        trump=st.trump,
        set_aside=st.set_aside,
    )
    return evolve(st, points=tuple(e["points"]), history=(*st.history, record), phase="round_over")


def fold_game_ended(st: State, e: Event) -> State:
    """The game is over."""
    return evolve(st, phase="over", winners=tuple(e["winners"]), turn=None)


FOLDS: Mapping[str, Callable[[State, Event], State]] = {
    "RoundDealt": fold_round_dealt,
    "TrumpChosen": fold_trump_chosen,
    "CardPlayed": fold_card_played,
    "TrickWon": fold_trick_won,
    "HandsTurnedOver": fold_hands_turned_over,
    "RoundScored": fold_round_scored,
    "GameEnded": fold_game_ended,
}


# --- reading state


def led_colour(state: State) -> str | None:
    """The led colour of the trick in progress, None before the lead."""
    return colour(state.trick[0].card) if state.trick else None


def playable_cards(state: State, seat: int) -> list[str]:
    """The seat's cards that may be played now (following the led colour), in hand order."""
    hand = sorted(state.hands[seat], key=sort_key(state.side))
    return playable(hand, led_colour(state), colour)


def record_json(record: RoundRecord, over: bool) -> dict[str, Any]:
    """A score-sheet line: dice, targets, tricks, who scored, points after; set-aside once over."""
    return {
        "round": record.number,
        "dice": [list(d) for d in record.dice],
        "targets": [targets(d) for d in record.dice],
        "tricks": list(record.tricks),
        "scorers": list(record.scorers),
        "points": list(record.points),
        "trump": record.trump,
        "set_aside": sorted(record.set_aside, key=sort_key(BLACK)) if over else None,
    }
