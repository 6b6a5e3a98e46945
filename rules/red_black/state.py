"""Red and Black Duel's state: what a game is at one moment (chips, hands, camps, the comparison on
the table) and how each event folds into it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.decks import fixed_decks
from rules.game import Event
from rules.red_black.cards import COLOUR, DECK, NEXT_CARD, START_CHIPS
from rules.table import Closure


@dataclass(frozen=True, slots=True)
class Comparison:
    """One settled comparison: both cards (by seat), who led, who won and why."""

    number: int
    leader: int
    cards: tuple[str, str]
    winner: int
    reason: str  # "rank" or "suit"

    def winning_card(self) -> str:
        """The card that went on top of the stack."""
        return self.cards[self.winner]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended: who took the pot of how many chips, by colour or by the other's fold."""

    round: int
    winner: int
    how: str  # "colour" or "fold"
    colour: str | None
    folder: int | None
    pot: int
    last_play: Comparison | None  # the round's last comparison (face up), None if there was none


@dataclass(frozen=True, slots=True)
class State:
    """Everything the log says so far. Cards are tuples of codes; per-seat pairs are in seat order."""

    seed: int
    decks: tuple[tuple[str, ...], ...]  # decks fixed by the options, first shuffle first
    deck_number: int = 0  # how many decks have been shuffled
    pile: tuple[str, ...] = ()  # the draw pile, top first
    discards: tuple[str, ...] = ()  # face-down discards since the last shuffle
    round: int = 0
    phase: str = "deal"  # deal (before the first deal) | camp | play | between (inside one act) | over
    chips: tuple[int, int] = (START_CHIPS, START_CHIPS)
    pot: int = 0
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    camp_cards: tuple[str | None, str | None] = (None, None)
    camps: tuple[str | None, str | None] = (None, None)  # "red"/"black" once revealed
    leader: int | None = None  # who plays first in the current comparison
    table: tuple[str | None, str | None] = (None, None)  # face-down cards of the current comparison
    plays: tuple[Comparison, ...] = ()  # this round's settled comparisons
    outcomes: tuple[Outcome, ...] = ()  # every finished round
    end: tuple[tuple[str, Any], ...] | None = None  # the GameEnded details, lists as tuples
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.table)

    def stack(self) -> list[str]:
        """This round's winning cards, bottom first (the last one is on top)."""
        return [play.winning_card() for play in self.plays]

    def counts(self) -> dict[str, int]:
        """Winning cards of each colour this round."""
        stack = self.stack()
        red = sum(1 for card in stack if COLOUR[card[-1]] == "red")
        return {"red": red, "black": len(stack) - red}


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The cards with one card taken out."""
    return tuple(c for c in cards if c != card)


def put(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    """A per-seat pair with one seat's entry replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# --- reading state


def seat_to_play(state: State) -> int:
    """The seat that puts the next card of the current comparison face down."""
    leader = state.leader if state.leader is not None else 0
    return leader if state.table[leader] is None else 1 - leader


def next_card(state: State) -> str:
    """The situation of the seat's next face-down card in the round being played."""
    return f"{NEXT_CARD}:{state.round}"


# --- folding events


def fold_game_started(e: Event) -> State:
    """A fresh game: the seed and any fixed decks; 15 chips each."""
    return State(seed=e["seed"], decks=fixed_decks(e["options"]["deck"], DECK, "red_black"))


def fold_deck_shuffled(state: State, e: Event) -> State:
    """All 52 cards form a new draw pile; the discards went into it."""
    return replace(state, deck_number=e["number"], pile=tuple(e["cards"]), discards=())


def fold_round_dealt(state: State, e: Event) -> State:
    """Six cards each from the top of the pile; a fresh round in the camp phase."""
    hands = (tuple(e["hands"][0]), tuple(e["hands"][1]))
    return replace(
        state, round=e["round"], phase="camp", hands=hands, pile=state.pile[len(hands[0]) + len(hands[1]) :]
    )


def fold_camp_card_placed(state: State, e: Event) -> State:
    """A camp card leaves the hand and lies face down."""
    seat, card = e["seat"], e["card"]
    return replace(
        state,
        hands=put(state.hands, seat, without(state.hands[seat], card)),
        camp_cards=put(state.camp_cards, seat, card),
    )


def fold_camps_revealed(state: State, e: Event) -> State:
    """Camp cards revealed: each seat's colour; the stronger camp card leads the first comparison."""
    return replace(state, camps=(e["camps"][0], e["camps"][1]), leader=e["leader"])


def fold_pot_set(state: State, e: Event) -> State:
    """The bank's chips go into the pot; the card plays begin."""
    return replace(state, pot=state.pot + e["amount"], phase="play")


def fold_card_played(state: State, e: Event) -> State:
    """A card leaves the hand face down and its fee goes from the player to the pot."""
    seat, card, fee = e["seat"], e["card"], e["fee"]
    chips = put(state.chips, seat, state.chips[seat] - fee)
    return replace(
        state,
        hands=put(state.hands, seat, without(state.hands[seat], card)),
        table=put(state.table, seat, card),
        chips=chips,
        pot=state.pot + fee,
    )


def fold_play_won(state: State, e: Event) -> State:
    """Both cards face up; the winning card is on top and its player leads next."""
    play = Comparison(e["number"], e["leader"], (e["cards"][0], e["cards"][1]), e["winner"], e["reason"])
    return replace(state, plays=(*state.plays, play), table=(None, None), leader=e["winner"])


def fold_round_won(state: State, e: Event) -> State:
    """The pot goes to the winner; every card of the round goes to the discards."""
    winner = e["winner"]
    gone = [*state.hands[0], *state.hands[1], *(c for c in (*state.camp_cards, *state.table) if c)]
    gone += [card for play in state.plays for card in play.cards]
    last = state.plays[-1] if state.plays else None
    outcome = Outcome(e["round"], winner, e["how"], e["colour"], e["folder"], state.pot, last)
    return replace(
        state,
        chips=put(state.chips, winner, state.chips[winner] + state.pot),
        pot=0,
        phase="between",
        hands=((), ()),
        camp_cards=(None, None),
        camps=(None, None),
        leader=None,
        table=(None, None),
        plays=(),
        discards=(*state.discards, *gone),
        outcomes=(*state.outcomes, outcome),
    )


def fold_game_ended(state: State, e: Event) -> State:
    """The game is over; the result is recorded."""
    keys = ("winners", "draw", "chips", "bankrupt", "reached_30", "rounds")
    end = tuple((k, tuple(e[k]) if isinstance(e[k], list) else e[k]) for k in keys)
    return replace(state, phase="over", end=end)


FOLDS: Mapping[str, Callable[[State, Event], State]] = {
    "DeckShuffled": fold_deck_shuffled,
    "RoundDealt": fold_round_dealt,
    "CampCardPlaced": fold_camp_card_placed,
    "CampsRevealed": fold_camps_revealed,
    "PotSet": fold_pot_set,
    "CardPlayed": fold_card_played,
    "PlayWon": fold_play_won,
    "RoundWon": fold_round_won,
    "GameEnded": fold_game_ended,
}
