"""Duālis's state: what a game is at one moment, how each event folds into it, and what it says."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.decks import fixed_decks
from rules.dualis.cards import (
    CARD_INFO,
    CARDS,
    NAME,
    OPPOSITE,
    PARTNERSHIPS,
    PlayedCard,
    SettledTrick,
    colour_index,
    suit_of,
)
from rules.game import Event
from rules.table import Closure
from rules.tricks.play import next_seat, playable


@dataclass(frozen=True)
class RoundResult:
    """One round's count and score: per seat, then per side (partnership or single player)."""

    round: int
    seat_tricks: tuple[int, ...]
    seat_coins: tuple[int, ...]
    tricks: tuple[int, ...]
    coins: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class State:
    """Everything about a game of Duālis; `decks` are the host's fixed shuffles, if any."""

    seed: int
    seats: int
    short: bool
    high_low: bool
    iso: bool
    open_history: bool
    decks: tuple[tuple[str, ...], ...]
    round: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    set_aside: tuple[str, ...] = ()
    centre: tuple[int, int] = (0, 0)  # (Red, Blue) coins left in the centre
    coins: tuple[tuple[int, int], ...] = ()  # (Red, Blue) coins each seat took this round
    won: tuple[int, ...] = ()  # tricks each seat won this round
    leader: int = 0
    trick: tuple[PlayedCard, ...] = ()
    completed: tuple[SettledTrick, ...] = ()
    previous_trick: SettledTrick | None = None  # the last trick of the round before (public)
    results: tuple[RoundResult, ...] = ()
    winners: tuple[int, ...] | None = None  # set once the game is over
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.table)


def evolve(state: State, **changes: Any) -> State:
    """A copy of the state with some fields changed: `dataclasses.replace` without re-running
    `__init__` over every field, because the service folds whole logs often."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__, **changes)
    return new


# --- folding events


def fold_game_started(event: Event) -> State:
    """A fresh game from GameStarted."""
    opts = event["options"]
    decks = fixed_decks(opts.get("deck"), CARDS, NAME)
    seats = event["seats"]
    # Empty per-seat tuples, so that the table before the first deal can be viewed (replays).
    return State(
        seed=event["seed"],
        seats=seats,
        decks=decks,
        short=bool(opts.get("short", False)),
        high_low=bool(opts.get("high_low", False)),
        iso=bool(opts.get("iso", False)),
        open_history=bool(opts.get("open_history", False)),
        hands=((),) * seats,
        coins=((0, 0),) * seats,
        won=(0,) * seats,
    )


def fold_round_dealt(state: State, event: Event) -> State:
    """A new round: hands, set-aside cards, full centre, nothing won yet; the last trick of the
    round before stays in view."""
    coins = event["coins"]
    return evolve(
        state,
        round=event["round"],
        hands=tuple(tuple(h) for h in event["hands"]),
        set_aside=tuple(event["set_aside"]),
        centre=(coins["R"], coins["B"]),
        coins=((0, 0),) * state.seats,
        won=(0,) * state.seats,
        leader=event["leader"],
        trick=(),
        completed=(),
        previous_trick=state.completed[-1] if state.completed else None,
    )


def fold_card_played(state: State, event: Event) -> State:
    """A card leaves a hand for the trick; a coin on it leaves the centre for the player."""
    seat, card, coin = event["seat"], event["card"], event["coin"]
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    centre, coins = state.centre, state.coins
    if coin:
        i = colour_index(event["colour"])
        centre = (centre[0] - 1, centre[1]) if i == 0 else (centre[0], centre[1] - 1)
        took = list(coins)
        mine = took[seat]
        took[seat] = (mine[0] + 1, mine[1]) if i == 0 else (mine[0], mine[1] + 1)
        coins = tuple(took)
    play = PlayedCard(seat=seat, card=card, coin=coin, colour=event["colour"])
    return evolve(state, hands=tuple(hands), centre=centre, coins=coins, trick=(*state.trick, play))


def fold_trick_won(state: State, event: Event) -> State:
    """The winner takes the trick and leads next; coins on its cards stay with their placers."""
    centre = event["centre"]
    settled = SettledTrick(
        number=event["trick"],
        plays=state.trick,
        winner=event["winner"],
        card=event["card"],
        led_suit=event["led_suit"],
        centre=(centre["R"], centre["B"]),
        trump=event["trump"],
        direction=event["direction"],
        reason=event["reason"],
    )
    won = list(state.won)
    won[settled.winner] += 1
    return evolve(
        state, won=tuple(won), leader=settled.winner, trick=(), completed=(*state.completed, settled)
    )


def fold_round_scored(state: State, event: Event) -> State:
    """The round's score joins the match history."""
    result = RoundResult(
        round=event["round"],
        seat_tricks=tuple(event["seat_tricks"]),
        seat_coins=tuple(event["seat_coins"]),
        tricks=tuple(event["tricks"]),
        coins=tuple(event["coins"]),
        scores=tuple(event["scores"]),
        winners=tuple(event["winners"]),
    )
    return evolve(state, results=(*state.results, result))


def fold_game_ended(state: State, event: Event) -> State:
    """The game is over; the winning seats are recorded."""
    return evolve(state, winners=tuple(event["winners"]))


FOLDS: Mapping[str, Callable[[State, Event], State]] = {
    "RoundDealt": fold_round_dealt,
    "CardPlayed": fold_card_played,
    "TrickWon": fold_trick_won,
    "RoundScored": fold_round_scored,
    "GameEnded": fold_game_ended,
}


# --- reading state


def scoring_sides(state: State) -> tuple[tuple[int, ...], ...]:
    """The scoring sides: the two partnerships, or each player alone in Iso Play."""
    return tuple((s,) for s in range(state.seats)) if state.iso else PARTNERSHIPS


def side_of(state: State, seat: int) -> int:
    """The index of a seat's side."""
    return seat if state.iso else seat % 2


def match_scores(state: State) -> list[int]:
    """Per side: rounds won (partnerships) or the running total (Iso Play)."""
    n = len(scoring_sides(state))
    if state.iso:
        return [sum(r.scores[i] for r in state.results) for i in range(n)]
    return [sum(i in r.winners for r in state.results) for i in range(n)]


def current_seat(state: State) -> int:
    """The seat to play the next card of the trick: the leader, then clockwise."""
    return next_seat(state.trick[-1].seat, state.seats) if state.trick else state.leader


def led_suit(state: State) -> str | None:
    """The suit led in the trick in progress, None before the lead."""
    return suit_of(state.trick[0].card) if state.trick else None


def coin_left(state: State, card: str) -> bool:
    """Whether the centre still holds a coin of the colour opposite to the card's print."""
    return state.centre[colour_index(OPPOSITE[CARD_INFO[card][2]])] > 0


def playable_cards(state: State, seat: int) -> list[str]:
    """The cards a seat may play now (following the led suit if it can)."""
    if state.winners is not None or seat != current_seat(state):
        return []
    return playable(state.hands[seat], led_suit(state), suit_of)


# --- as JSON


def play_json(play: PlayedCard) -> dict[str, Any]:
    """A card in a trick as JSON: seat, card, its printed and effective colour, coin or not."""
    suit, number, printed = CARD_INFO[play.card]
    return {
        "seat": play.seat,
        "card": play.card,
        "suit": suit,
        "number": number,
        "printed_colour": printed,
        "colour": play.colour,
        "coin": play.coin,
    }


def settled_json(trick: SettledTrick) -> dict[str, Any]:
    """A finished trick as JSON, with the reason its winner won."""
    return {
        "number": trick.number,
        "plays": [play_json(p) for p in trick.plays],
        "winner": trick.winner,
        "card": trick.card,
        "led_suit": trick.led_suit,
        "centre": {"R": trick.centre[0], "B": trick.centre[1]},
        "trump": trick.trump,
        "direction": trick.direction,
        "reason": trick.reason,
    }


def played_from_json(play: Mapping[str, Any]) -> PlayedCard:
    """A card in a trick from its JSON (`play_json`)."""
    return PlayedCard(seat=play["seat"], card=play["card"], coin=play["coin"], colour=play["colour"])


def settled_from_json(trick: Mapping[str, Any]) -> SettledTrick:
    """A settled trick from its JSON (`settled_json`)."""
    return SettledTrick(
        number=trick["number"],
        plays=tuple(played_from_json(p) for p in trick["plays"]),
        winner=trick["winner"],
        card=trick["card"],
        led_suit=trick["led_suit"],
        centre=(trick["centre"]["R"], trick["centre"]["B"]),
        trump=trick["trump"],
        direction=trick["direction"],
        reason=trick["reason"],
    )


def face_down_trick(number: int, cards: Sequence[str], winner: int) -> SettledTrick:
    """A trick of the round no view shows, dealt again: one card of each seat (by seat) and its
    winner. What decided it is not known, and nothing of the play ahead depends on it."""
    plays = tuple(PlayedCard(seat=s, card=c, colour=CARD_INFO[c][2]) for s, c in enumerate(cards))
    return SettledTrick(
        number=number,
        plays=plays,
        winner=winner,
        card=cards[winner],
        led_suit=suit_of(cards[0]),
        centre=(0, 0),
        trump=None,
        direction="high",
        reason="face down",
    )


def as_tuple(value: Any) -> Any:
    """A JSON list as a tuple (for the frozen records), anything else as it is."""
    return tuple(value) if isinstance(value, list) else value


def round_json(result: RoundResult) -> dict[str, Any]:
    """A scored round as JSON: per seat tricks and coins, per side tricks, coins, score, winners."""
    return {
        "round": result.round,
        "seat_tricks": list(result.seat_tricks),
        "seat_coins": list(result.seat_coins),
        "tricks": list(result.tricks),
        "coins": list(result.coins),
        "scores": list(result.scores),
        "winners": list(result.winners),
    }
