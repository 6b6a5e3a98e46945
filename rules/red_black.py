"""Red and Black Duel (赤と黒のデュエル): a two-player bluffing duel with a standard deck and chips.

Each player starts with 15 chips and, every round, a hand of 6 cards from the deck.

1. Camp: both players put one card face down at once, then reveal them. Different colours: each
   player's camp is their own card's colour. Same colour: the stronger card's player gets that colour,
   the other the other colour. Red is ♥♦, Black is ♠♣. Camp cards stay out for the round.
2. Pot: the bank puts 3 chips in the middle.
3. Comparisons: the player whose card was stronger in the previous comparison (the camp cards for
   the first) puts a card face down and pays a 1-chip fee into the pot; then the other does the same;
   both are revealed and the stronger card wins the play and goes on top of the stack.
4. From the moment the pot is set either player may fold at any time: the other takes the pot.
5. Otherwise the round ends when the winning (top) cards show 3 of one colour, whoever won them:
   that colour's camp takes the pot. Every card of the round, hands included, is discarded.
6. Next round: 6 more cards each from the deck; when only 4 are left, all 52 are shuffled anew.

Strength: rank A > K > ... > 2; equal rank by suit ♠ > ♥ > ♦ > ♣ (RULINGS.md §4). At the start of
each round the game ends if a player has 4 chips or fewer (bankrupt) or anyone has 30 or more; more
chips wins, equal chips is a draw.

Cards are written rank + suit: "AS", "10H", "7D", "2C". Actions: {"card": "AS"} puts a card face down
(the camp card in the camp phase, a play in the play phase); {"fold": true} folds the round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NotRequired, TypedDict

from rules.base import (
    N_,
    START,
    Action,
    Closure,
    Event,
    Game,
    Heading,
    Message,
    ScoreRow,
    ScoreSheet,
    Teller,
    decks_as_json,
    fixed_decks,
    listing,
    name_of,
    require,
    word,
)
from rules.determinize import Place, deal_hidden, new_seed, unseen
from rules.rng import SeededRandom
from rules.shapes import Choice, Shape

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # weakest first
SUITS = ("C", "D", "H", "S")  # weakest first: ♣ < ♦ < ♥ < ♠
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
STRENGTH: dict[str, int] = {card: i for i, card in enumerate(DECK)}
COLOUR: dict[str, str] = {"C": "black", "S": "black", "D": "red", "H": "red"}
OTHER_COLOUR = {"red": "black", "black": "red"}
RANK_NAMES: dict[str, str] = {"A": N_("Ace"), "K": N_("King"), "Q": N_("Queen"), "J": N_("Jack")}
SUIT_NAMES: dict[str, str] = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}

SEATS = (0, 1)
HAND_SIZE = 6
START_CHIPS = 15
POT = 3  # chips the bank puts in the pot each round
FEE = 1  # chips paid into the pot with every played card (not the camp card)
TO_WIN = 3  # winning cards of one colour that end a round
BANKRUPT = 4  # at most this many chips at the start of a round ends the game
TARGET = 30  # at least this many chips at the start of a round ends the game

FOLD: Action = {"fold": True}
# The one situation a play is chosen ahead for: the seat's next face-down card of this round ("card:3");
# a new round deals a new hand, so a play chosen in an earlier round no longer answers.
NEXT_CARD = "card"
ACTION_SHAPES = (
    Shape({"card": Choice(DECK, N_("%(value)s is not a card: cards are written like AS, 10H, 7D or 2C."))}),
    Shape({"fold": Choice((True,), N_('To fold, send {"fold": true}.'))}),
)


# --------------------------------------------------------------------------------------- cards


def colour_of(card: str) -> str:
    """The card's colour: "red" for ♥♦, "black" for ♠♣."""
    return COLOUR[card[-1]]


def stronger(a: str, b: str) -> str:
    """The stronger of two different cards: higher rank, or on equal rank the higher suit."""
    return a if STRENGTH[a] > STRENGTH[b] else b


def why_stronger(a: str, b: str) -> str:
    """Why one card beats the other: "rank", or "suit" when the ranks are equal."""
    return "suit" if a[:-1] == b[:-1] else "rank"


def next_card(state: State) -> str:
    """The situation of the seat's next face-down card in the round being played."""
    return f"{NEXT_CARD}:{state.round}"


def by_strength(cards: Sequence[str]) -> list[str]:
    """The cards strongest first (the order a hand is shown in)."""
    return sorted(cards, key=STRENGTH.__getitem__, reverse=True)


def camp_colours(cards: Sequence[str]) -> tuple[str, str]:
    """Each seat's camp from the two camp cards (seat order)."""
    first, second = colour_of(cards[0]), colour_of(cards[1])
    if first != second:
        return first, second
    if stronger(cards[0], cards[1]) == cards[0]:
        return first, OTHER_COLOUR[first]
    return OTHER_COLOUR[second], second


def game_end(chips: Sequence[int]) -> dict[str, Any] | None:
    """The game's outcome if it ends at the start of a round with these chips, else None."""
    bankrupt = [s for s in SEATS if chips[s] <= BANKRUPT]
    reached = [s for s in SEATS if chips[s] >= TARGET]
    if not bankrupt and not reached:
        return None
    best = max(chips)
    winners = [s for s in SEATS if chips[s] == best]
    return {
        "winners": winners,
        "draw": len(winners) > 1,
        "chips": list(chips),
        "bankrupt": bankrupt,
        "reached_30": reached,
    }


# --------------------------------------------------------------------------------------- state


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
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.base)

    def stack(self) -> list[str]:
        """This round's winning cards, bottom first (the last one is on top)."""
        return [play.winning_card() for play in self.plays]

    def counts(self) -> dict[str, int]:
        """Winning cards of each colour this round."""
        stack = self.stack()
        red = sum(1 for card in stack if COLOUR[card[-1]] == "red")
        return {"red": red, "black": len(stack) - red}


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The cards with one card taken out."""
    return tuple(c for c in cards if c != card)


def _put(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    """A per-seat pair with one seat's entry replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


class _Log:
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


# --------------------------------------------------------------------------------------- game


class RedBlackDuelView(TypedDict):
    """The shape of every Red and Black Duel view (`view`, `open_view`), which the table templates and
    the JSON API read: one declared shape. Nested parts are plain JSON."""

    seat: int | None
    phase: str
    round: int
    to_act: list[Any]
    chips: list[Any]
    pot: int
    hand: list[Any] | None
    hand_counts: list[Any]
    camp_cards: list[Any]
    camps: list[Any]
    placed: list[Any]
    face_down: str | None
    leader: int | None
    plays: list[Any]
    last_play: dict[str, Any] | None
    stack: list[Any]
    counts: dict[str, Any]
    deck_number: int
    deck_left: int
    discards: int
    last_round: dict[str, Any] | None
    previous_play: dict[str, Any] | None  # until a comparison of the new round: the round before's last
    rounds: list[Any]
    result: dict[str, Any] | None
    hands: NotRequired[list[Any]]  # open_view only
    table_cards: NotRequired[list[Any]]  # open_view only
    # chips that win, chips that bankrupt, winners of one colour that end a round, suits strongest first
    goal: dict[str, Any]
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


class RedBlackDuel(Game[State]):
    """Red and Black Duel for two players."""

    view_shape = RedBlackDuelView
    action_shapes = ACTION_SHAPES

    name: ClassVar[str] = "red_black"
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    default_options: ClassVar[dict[str, Any]] = {"deck": None}

    # --- starting ----------------------------------------------------------------------------

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted, the first shuffle and the first deal."""
        opts = self.check_options(seats, options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        fixed_decks(opts["deck"], DECK, self.name)
        log = _Log(self, None)
        log.add(
            self.event("GameStarted", seed=seed, seats=seats, options={"deck": decks_as_json(opts["deck"])})
        )
        self._start_round(log)
        return log.events

    def _start_round(self, log: _Log) -> None:
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

    # --- folding events ----------------------------------------------------------------------

    def _started(self, event: Event) -> State:
        return _on_started(None, event)

    @property
    def folds(self) -> Mapping[str, Callable[[State, Event], State]]:
        """Each Red and Black Duel event's fold."""
        return _FOLDS

    # --- reading state -----------------------------------------------------------------------

    def _to_act(self, state: State) -> frozenset[int]:
        """Camp phase: every seat that has not placed its camp card; play phase: whose turn it is."""
        if state.phase == "camp":
            return frozenset(s for s in SEATS if state.camp_cards[s] is None)
        if state.phase == "play":
            return frozenset((self._turn(state),))
        return frozenset()

    @staticmethod
    def _turn(state: State) -> int:
        """The seat that puts the next card of the current comparison face down."""
        leader = state.leader if state.leader is not None else 0
        return leader if state.table[leader] is None else 1 - leader

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """The seat's hand cards when it is to act (strongest first); fold for both seats in play."""
        if state.phase == "over" or seat not in SEATS:
            return []
        cards = [{"card": c} for c in by_strength(state.hands[seat])]
        if state.phase == "camp":
            return cards if state.camp_cards[seat] is None else []
        if state.phase == "play":
            return [*cards, dict(FOLD)] if self._turn(state) == seat else [dict(FOLD)]
        return []

    # --- plays chosen ahead ---------------------------------------------------------------------

    def _ahead(self, state: State, seat: int) -> tuple[str, ...]:
        """The next face-down card (the other's card is hidden anyway); a fold is never chosen ahead."""
        return (next_card(state),) if state.phase in ("camp", "play") and state.hands[seat] else ()

    def _situation(self, state: State, seat: int) -> str | None:
        return next_card(state) if state.phase in ("camp", "play") else None

    def situation_name(self, situation: str) -> Message:
        if situation.partition(":")[0] != NEXT_CARD:
            raise ValueError(f"red_black has no situation {situation!r}")
        return word(N_("my next face-down card"))

    def _ahead_candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        return [({"card": card}, card_name(card)) for card in by_strength(state.hands[seat])]

    def play_ahead(self, state: State, seat: int, chosen: Mapping[str, Action]) -> Action | Message:
        """A card chosen in an earlier round was chosen from another hand: never played (a card of
        the same name may be dealt again after a reshuffle)."""
        if self.situation(state, seat) not in chosen and chosen:
            return N_("it was chosen in an earlier round, for another hand"), {}
        return super().play_ahead(state, seat, chosen)

    def _check_ahead(self, state: State, seat: int, situation: str, action: Action) -> None:
        require("card" in action, N_("A fold is never chosen ahead: fold when you mean it."))
        card = action["card"]
        require(card in state.hands[seat], N_("You do not hold %(card)s."), card=card_name(card))

    def _result(self, state: State) -> dict[str, Any] | None:
        """None while running; else winners, draw, final chips, who was bankrupt / reached 30, rounds."""
        if state.end is None:
            return None
        return {key: list(value) if isinstance(value, tuple) else value for key, value in state.end}

    # --- acting ------------------------------------------------------------------------------

    def _act(self, state: State, seat: int, action: Action) -> list[Event]:
        """The events of a seat's action; IllegalAction with the reason if the rules refuse it."""
        require(isinstance(state, State), N_("The game has not started."))
        require(type(seat) is int and seat in SEATS, N_("There is no seat %(seat)s in this game."), seat=seat)
        require(state.phase != "over", N_("The game is over."))
        log = _Log(self, state)
        if "fold" in action:
            self._fold(log, seat)
        elif state.phase == "camp":
            self._place_camp_card(log, seat, action["card"])
        else:
            self._play_card(log, seat, action["card"])
        return log.events

    def _fold(self, log: _Log, seat: int) -> None:
        """Give up the round: the other seat takes the pot; any face-down card is discarded unseen."""
        state = log.now
        require(
            state.phase == "play",
            N_("You may fold only once the pot is set, after the camp cards are revealed."),
        )
        self._win_round(log, 1 - seat, how="fold", colour=None, folder=seat)

    def _place_camp_card(self, log: _Log, seat: int, card: str) -> None:
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

    def _play_card(self, log: _Log, seat: int, card: str) -> None:
        """Put a card face down paying the fee; the second card of a comparison settles it."""
        state = log.now
        turn = self._turn(state)
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
        cards = _put(state.table, seat, card)
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

    def _win_round(self, log: _Log, winner: int, how: str, colour: str | None, folder: int | None) -> None:
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

    # --- what a seat sees --------------------------------------------------------------------

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything this seat may know, as plain JSON (seat None: public information only)."""
        me = seat if seat in SEATS else None
        revealed = state.camps[0] is not None
        over = state.phase == "over"
        camp_cards = [c if revealed or s == me or over else None for s, c in enumerate(state.camp_cards)]
        waiting = state.camp_cards if state.phase == "camp" else state.table
        face_down = None if me is None else waiting[me]
        plays = [_play_json(c) for c in state.plays]
        return {
            "seat": me,
            "phase": state.phase,
            "round": state.round,
            "to_act": sorted(self.to_act(state)),
            "chips": list(state.chips),
            "pot": state.pot,
            "hand": None if me is None else by_strength(state.hands[me]),
            "hand_counts": [len(h) for h in state.hands],
            "camp_cards": camp_cards,
            "camps": list(state.camps),
            "placed": [c is not None for c in waiting],
            "face_down": face_down,
            "leader": state.leader if state.phase == "play" else None,
            "plays": plays,
            "last_play": plays[-1] if plays else None,
            "stack": state.stack(),
            "counts": state.counts(),
            "deck_number": state.deck_number,
            "goal": {
                "chips_to_win": TARGET,
                "bankrupt_at": BANKRUPT,
                "colours_to_win": TO_WIN,
                "suit_order": list(reversed(SUITS)),
            },
            "deck_left": len(state.pile),
            "discards": len(state.discards),
            "last_round": _outcome_json(state.outcomes[-1]) if state.outcomes else None,
            "previous_play": _previous_play(state),
            "rounds": [_outcome_json(o) for o in state.outcomes],
            "result": self.result(state),
        }

    # --- the seat's view dealt again (search bots) -----------------------------------------

    def _determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> State:
        """The view's round with the unseen cards dealt again over the other hand, its face-down
        card, the draw pile and the discards (the last comparison of the round before lies among
        the discards unless a shuffle since took every card back)."""
        me, phase = view["seat"], view["phase"]
        other = 1 - me
        camp = view["camp_cards"]
        plays = tuple(comparison_from_json(p) for p in view["plays"])
        mine_down = view["face_down"] if phase == "play" else None
        previous = view["previous_play"]
        known_discards = list(previous["cards"]) if previous and view["discards"] else []
        seen = [*(c for c in camp if c), *(c for p in plays for c in p.cards), *known_discards]
        cards = unseen(DECK, view["hand"], [mine_down] if mine_down else [], seen)
        other_down = view["placed"][other] and (phase == "play" or camp[other] is None)
        places = [
            Place("hand", view["hand_counts"][other]),
            Place("down", int(other_down)),
            Place("pile", view["deck_left"]),
            Place("discards", view["discards"] - len(known_discards)),
        ]
        dealt = deal_hidden(cards, places, lambda card: "card", rng)
        hands = _put(((), ()), me, tuple(view["hand"]))
        hands = _put(hands, other, tuple(dealt["hand"]))
        down = dealt["down"][0] if dealt["down"] else None
        table = _put(_put((None, None), me, mine_down), other, down if phase == "play" else None)
        camp_cards = _put(
            _put(tuple(camp), other, camp[other] or (down if phase == "camp" else None)), me, camp[me]
        )
        return State(
            seed=new_seed(rng),
            decks=(),
            deck_number=view["deck_number"],
            pile=tuple(dealt["pile"]),
            discards=(*known_discards, *dealt["discards"]),
            round=view["round"],
            phase=phase,
            chips=(view["chips"][0], view["chips"][1]),
            pot=view["pot"],
            hands=hands,
            camp_cards=camp_cards,
            camps=(view["camps"][0], view["camps"][1]),
            leader=view["leader"],
            table=table,
            plays=plays,
            outcomes=outcomes_from_json(view["rounds"], previous),
        )

    # --- replay ------------------------------------------------------------------------------

    def _open_view(self, state: State) -> dict[str, Any]:
        """The public view with both hands, both camp cards and both face-down cards on the table."""
        view = self.view(state, None)
        view["hands"] = [by_strength(hand) for hand in state.hands]
        view["camp_cards"] = list(state.camp_cards)
        view["table_cards"] = list(state.table)
        return view

    def heading(self, state: State, event: Event) -> Heading:
        """Start, then each round (from its shuffle or deal) and, inside it, each comparison."""
        kind = event["type"]
        if kind == "GameStarted":
            return START
        round_ = state.round + 1 if kind == "DeckShuffled" else state.round
        title: Message = (N_("Round %(round)s"), {"round": round_})
        if kind == "CardPlayed":
            number = len(state.plays) + 1
        elif kind == "PlayWon":
            number = event["number"]
        else:
            return Heading(round_, title)
        return Heading(round_, title, number, (N_("Comparison %(number)s"), {"number": number}))

    def score_sheet(self, state: State) -> ScoreSheet:
        """Per player and round: who took the pot and how, or folded; the chips now."""
        rows = tuple(
            ScoreRow(o.round, tuple(_outcome_cell(o, seat) for seat in SEATS), (o.winner,))
            for o in state.outcomes
        )
        standing = tuple((N_("%(chips)s chips"), {"chips": chips}) for chips in state.chips)
        return ScoreSheet(tuple((s,) for s in SEATS), rows, standing)

    # --- events in words ---------------------------------------------------------------------

    @property
    def tellers(self) -> Mapping[str, Teller]:
        """Each event in words; a face-down card only as "played a card"."""
        return _TELLERS


# --------------------------------------------------------------------------------------- parsing


def card_name(card: str) -> Message:
    """A card for people: "Ace of spades", "10 of hearts"."""
    rank, suit = card[:-1], card[-1]
    return N_("%(rank)s of %(suit)s"), {
        "rank": word(RANK_NAMES[rank]) if rank in RANK_NAMES else rank,
        "suit": word(SUIT_NAMES[suit]),
    }


# --------------------------------------------------------------------------------------- apply


def _on_started(state: State | None, e: Event) -> State:
    """A fresh game: the seed and any fixed decks; 15 chips each."""
    if state is not None:
        raise ValueError("red_black: GameStarted in the middle of a log")
    return State(seed=e["seed"], decks=fixed_decks(e["options"]["deck"], DECK, "red_black"))


def _on_shuffled(state: State, e: Event) -> State:
    """All 52 cards form a new draw pile; the discards went into it."""
    return replace(state, deck_number=e["number"], pile=tuple(e["cards"]), discards=())


def _on_dealt(state: State, e: Event) -> State:
    """Six cards each from the top of the pile; a fresh round in the camp phase."""
    hands = (tuple(e["hands"][0]), tuple(e["hands"][1]))
    return replace(
        state, round=e["round"], phase="camp", hands=hands, pile=state.pile[len(hands[0]) + len(hands[1]) :]
    )


def _on_camp_card(state: State, e: Event) -> State:
    """A camp card leaves the hand and lies face down."""
    seat, card = e["seat"], e["card"]
    return replace(
        state,
        hands=_put(state.hands, seat, _without(state.hands[seat], card)),
        camp_cards=_put(state.camp_cards, seat, card),
    )


def _on_camps(state: State, e: Event) -> State:
    """Camp cards revealed: each seat's colour; the stronger camp card leads the first comparison."""
    return replace(state, camps=(e["camps"][0], e["camps"][1]), leader=e["leader"])


def _on_pot(state: State, e: Event) -> State:
    """The bank's chips go into the pot; the card plays begin."""
    return replace(state, pot=state.pot + e["amount"], phase="play")


def _on_card(state: State, e: Event) -> State:
    """A card leaves the hand face down and its fee goes from the player to the pot."""
    seat, card, fee = e["seat"], e["card"], e["fee"]
    chips = _put(state.chips, seat, state.chips[seat] - fee)
    return replace(
        state,
        hands=_put(state.hands, seat, _without(state.hands[seat], card)),
        table=_put(state.table, seat, card),
        chips=chips,
        pot=state.pot + fee,
    )


def _on_play_won(state: State, e: Event) -> State:
    """Both cards face up; the winning card is on top and its player leads next."""
    play = Comparison(e["number"], e["leader"], (e["cards"][0], e["cards"][1]), e["winner"], e["reason"])
    return replace(state, plays=(*state.plays, play), table=(None, None), leader=e["winner"])


def _on_round_won(state: State, e: Event) -> State:
    """The pot goes to the winner; every card of the round goes to the discards."""
    winner = e["winner"]
    gone = [*state.hands[0], *state.hands[1], *(c for c in (*state.camp_cards, *state.table) if c)]
    gone += [card for play in state.plays for card in play.cards]
    last = state.plays[-1] if state.plays else None
    outcome = Outcome(e["round"], winner, e["how"], e["colour"], e["folder"], state.pot, last)
    return replace(
        state,
        chips=_put(state.chips, winner, state.chips[winner] + state.pot),
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


def _on_ended(state: State, e: Event) -> State:
    """The game is over; the result is recorded."""
    keys = ("winners", "draw", "chips", "bankrupt", "reached_30", "rounds")
    end = tuple((k, tuple(e[k]) if isinstance(e[k], list) else e[k]) for k in keys)
    return replace(state, phase="over", end=end)


_FOLDS: dict[str, Callable[[State, Event], State]] = {
    "DeckShuffled": _on_shuffled,
    "RoundDealt": _on_dealt,
    "CampCardPlaced": _on_camp_card,
    "CampsRevealed": _on_camps,
    "PotSet": _on_pot,
    "CardPlayed": _on_card,
    "PlayWon": _on_play_won,
    "RoundWon": _on_round_won,
    "GameEnded": _on_ended,
}


# --------------------------------------------------------------------------------------- view parts


def _play_json(play: Comparison) -> dict[str, Any]:
    """A settled comparison for a page."""
    win = play.winning_card()
    return {
        "number": play.number,
        "leader": play.leader,
        "cards": list(play.cards),
        "winner": play.winner,
        "winning_card": win,
        "losing_card": play.cards[1 - play.winner],
        "reason": play.reason,
        "colour": colour_of(win),
    }


def comparison_from_json(play: Mapping[str, Any]) -> Comparison:
    """A settled comparison from its JSON (`_play_json`)."""
    first, second = play["cards"]
    return Comparison(play["number"], play["leader"], (first, second), play["winner"], play["reason"])


def outcomes_from_json(
    rounds: Sequence[Mapping[str, Any]], previous: Mapping[str, Any] | None
) -> tuple[Outcome, ...]:
    """The finished rounds from their JSON (`_outcome_json`); the last one's last comparison when the
    view shows it (earlier ones no view shows, and nothing ahead depends on them)."""
    outcomes = [
        Outcome(r["round"], r["winner"], r["how"], r["colour"], r["folder"], r["pot"], None) for r in rounds
    ]
    if outcomes and previous:
        outcomes[-1] = replace(outcomes[-1], last_play=comparison_from_json(previous))
    return tuple(outcomes)


def _previous_play(state: State) -> dict[str, Any] | None:
    """The last comparison of the round before (face up when made), until one of this round is
    settled; None once the game is over."""
    if state.plays or not state.outcomes or state.phase == "over":
        return None
    last = state.outcomes[-1].last_play
    return _play_json(last) if last else None


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    """A finished round for a page."""
    return {
        "round": outcome.round,
        "winner": outcome.winner,
        "how": outcome.how,
        "colour": outcome.colour,
        "folder": outcome.folder,
        "pot": outcome.pot,
    }


def _outcome_cell(outcome: Outcome, seat: int) -> Message:
    """One seat's score-sheet cell for a finished round."""
    pot = {"pot": outcome.pot}
    if seat != outcome.winner:
        return (N_("folded"), {}) if outcome.how == "fold" else (N_("lost the round"), {})
    if outcome.how == "fold":
        return N_("took the pot of %(pot)s: the other folded"), pot
    if outcome.colour == "red":
        return N_("took the pot of %(pot)s: three red"), pot
    return N_("took the pot of %(pot)s: three black"), pot


# --------------------------------------------------------------------------------------- describe


def _d_started(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The players and their starting chips."""
    return N_("Game started: %(first)s and %(second)s have %(chips)s chips each."), {
        "first": name_of(names, 0),
        "second": name_of(names, 1),
        "chips": START_CHIPS,
    }


def _d_shuffled(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A shuffle, never its order."""
    if e["number"] == 1:
        return N_("The deck is shuffled."), {}
    return N_("New deck shuffled: only 4 cards were left, so all 52 cards are shuffled (deck %(number)s)."), {
        "number": e["number"]
    }


def _d_dealt(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The deal; a player also reads their own new hand."""
    if seat in SEATS:
        return N_("Round %(round)s dealt, 6 cards each. Your hand: %(hand)s."), {
            "round": e["round"],
            "hand": listing([card_name(card) for card in by_strength(e["hands"][seat])]),
        }
    return N_("Round %(round)s dealt, 6 cards each."), {"round": e["round"]}


def _d_camp_card(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A camp card placed; its face only to its owner."""
    player = name_of(names, e["seat"])
    if seat == e["seat"]:
        return N_("%(player)s placed camp card %(card)s face down."), {
            "player": player,
            "card": card_name(e["card"]),
        }
    return N_("%(player)s placed a camp card face down."), {"player": player}


def _d_camps(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Both camp cards, each camp and who plays first."""
    red = e["camps"].index("red")
    return N_(
        "Camps: %(red)s Red (%(red_card)s), %(black)s Black (%(black_card)s); %(leader)s plays first."
    ), {
        "red": name_of(names, red),
        "red_card": card_name(e["cards"][red]),
        "black": name_of(names, 1 - red),
        "black_card": card_name(e["cards"][1 - red]),
        "leader": name_of(names, e["leader"]),
    }


def _d_pot(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The bank's chips in the pot."""
    return N_("The bank puts %(amount)s chips in the pot."), {"amount": e["amount"]}


def _d_card(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A card put face down with its fee; its face only to its owner (the reveal follows in PlayWon)."""
    player = name_of(names, e["seat"])
    if seat == e["seat"]:
        return N_("%(player)s put %(card)s face down and paid 1 chip (pot %(pot)s)."), {
            "player": player,
            "card": card_name(e["card"]),
            "pot": e["pot"],
        }
    return N_("%(player)s put a card face down and paid 1 chip (pot %(pot)s)."), {
        "player": player,
        "pot": e["pot"],
    }


def _d_play_won(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Both cards revealed, the winner and why, and the colour count on the stack."""
    lead = e["leader"]
    params = {
        "first": name_of(names, lead),
        "first_card": card_name(e["cards"][lead]),
        "second": name_of(names, 1 - lead),
        "second_card": card_name(e["cards"][1 - lead]),
        "winner": name_of(names, e["winner"]),
        "card": card_name(e["winning_card"]),
        "red": e["counts"]["red"],
        "black": e["counts"]["black"],
    }
    if e["reason"] == "suit":
        return N_(
            "%(first)s played %(first_card)s, %(second)s played %(second_card)s: %(winner)s wins the play "
            "(%(card)s, same rank, stronger suit). Red %(red)s, Black %(black)s."
        ), params
    return N_(
        "%(first)s played %(first_card)s, %(second)s played %(second_card)s: %(winner)s wins the play "
        "(%(card)s is stronger). Red %(red)s, Black %(black)s."
    ), params


def _d_round_won(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Who took the pot, by colour or by the other's fold."""
    params = {"winner": name_of(names, e["winner"]), "pot": e["pot"]}
    if e["how"] == "fold":
        return N_("%(folder)s folded: %(winner)s takes the pot of %(pot)s."), {
            **params,
            "folder": name_of(names, e["folder"]),
        }
    if e["colour"] == "red":
        return N_("Red wins the round with three red cards: %(winner)s takes the pot of %(pot)s."), params
    return N_("Black wins the round with three black cards: %(winner)s takes the pot of %(pot)s."), params


def _d_ended(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The final chips and the winner (or the draw)."""
    chips = e["chips"]
    if e["draw"]:
        return N_("Game over: a draw, both players have %(chips)s chips."), {"chips": chips[0]}
    win = e["winners"][0]
    params = {
        "winner": name_of(names, win),
        "loser": name_of(names, 1 - win),
        "winner_chips": chips[win],
        "loser_chips": chips[1 - win],
    }
    if e["bankrupt"]:
        return N_(
            "Game over: %(loser)s is bankrupt with %(loser_chips)s chips; %(winner)s wins with "
            "%(winner_chips)s chips."
        ), params
    return N_("Game over: %(winner)s wins with %(winner_chips)s chips to %(loser_chips)s."), params


_TELLERS: dict[str, Teller] = {
    "GameStarted": _d_started,
    "DeckShuffled": _d_shuffled,
    "RoundDealt": _d_dealt,
    "CampCardPlaced": _d_camp_card,
    "CampsRevealed": _d_camps,
    "PotSet": _d_pot,
    "CardPlayed": _d_card,
    "PlayWon": _d_play_won,
    "RoundWon": _d_round_won,
    "GameEnded": _d_ended,
}

__all__ = ["DECK", "GAME", "RedBlackDuel", "State", "card_name", "colour_of", "game_end", "stronger"]

GAME = RedBlackDuel()
