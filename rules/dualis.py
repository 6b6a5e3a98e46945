"""Duālis (デュアリス): a trick-taking game where the trump colour is bid for with coins.

52 cards: Star `S` and Moon `M`, numbers 1-13, each printed once in Red `R` and once in Blue `B`
(`S9B` = Star 9 Blue). 7 Red and 7 Blue bidding coins lie in the centre (5 + 5 in the short game).

* Four players in two partnerships (seats 0+2 against 1+3), 13 cards each (9 in the short game, the
  rest set aside unseen). Iso Play: 3 or 4 players each on their own, 13 (or 9) cards each.
* The leader plays any card; the others must follow the led *suit* if they can (never the colour).
* While playing a card a player may take one coin of the opposite colour from the centre and put it
  on the card: the card now counts as the coin's colour and the coin counts for the player's bid.
* At the end of the trick the centre decides the trump: more Red coins left → Red, more Blue → Blue,
  equal → no trump. The strongest card of the trump colour wins if one was played, else the
  strongest card of the led suit; of two equally strong cards the later one wins.
* High-Low variant: a Red lead (after any coin on it) makes high numbers strong, a Blue lead low ones.
* Round scoring per side: tricks T equal to coins C → +T, else −|T − C|. Partnerships: the higher
  score wins the round (equal → more tricks); the first side to win 2 rounds wins the game. Iso
  Play: running totals; the game ends once two totals are 7 or more apart, or after 4 rounds.
* Each round is re-dealt with fresh coins; the winner of the last trick leads the next round.

Rulings from RULINGS.md §1: at most one coin per card, the leader may take one too; the host may
fix the first leader (else it is drawn from the seed); coins are never passed to a partner; earlier
tricks of the round are shown only with the `open_history` table option or once the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NotRequired, TypedDict

from rules.base import (
    N_,
    START,
    Action,
    Closure,
    Event,
    Game,
    Heading,
    IllegalAction,
    Message,
    ScoreRow,
    ScoreSheet,
    Teller,
    decks_as_json,
    fixed_decks,
    name_of,
    require,
    together,
    word,
)
from rules.determinize import TrickTable, deal_trick_round, new_seed
from rules.rng import SeededRandom
from rules.shapes import Choice, Shape
from rules.tricks import (
    LEAD,
    LED,
    CompletedTrick,
    Play,
    TrickWindow,
    coming_card_number,
    coming_card_situations,
    face_down_line,
    face_down_play,
    next_seat,
    owed_card_situation,
    playable,
    seat_order,
    shown_tricks,
    situation_words,
    trick_heading,
    trick_window,
    unfollowed,
    winning_index,
)

SUITS = ("S", "M")
COLOURS = ("R", "B")
OPPOSITE = {"R": "B", "B": "R"}
# Why a card of another suit may not be played: the refusal, and the reason a page gives for it.
MUST_FOLLOW = {"S": N_("You must follow suit: play a Star."), "M": N_("You must follow suit: play a Moon.")}
# Stars before Moons, then by number, Red before Blue: the order a hand is shown in.
CARDS: tuple[str, ...] = tuple(f"{s}{n}{c}" for s in SUITS for n in range(1, 14) for c in COLOURS)
CARD_INFO: dict[str, tuple[str, int, str]] = {card: (card[0], int(card[1:-1]), card[-1]) for card in CARDS}
SORT_KEY: dict[str, int] = {card: i for i, card in enumerate(CARDS)}
SITUATION_NAMES: dict[str, str] = {
    LEAD: N_("if I lead"),
    LED + "S": N_("if Stars are led"),
    LED + "M": N_("if Moons are led"),
}
SUIT_NAMES: dict[str, str] = {"S": N_("Star"), "M": N_("Moon")}
COLOUR_NAMES: dict[str, str] = {"R": N_("Red"), "B": N_("Blue")}
ACTION_SHAPES = (
    Shape(
        {"card": Choice(CARDS, N_("%(value)s is not a Duālis card: cards are written like S9B or M13R."))},
        {"coin": Choice((True, False), N_('"coin" must be true or false.'))},
    ),
)

HAND_SIZE, SHORT_HAND_SIZE = 13, 9
COINS, SHORT_COINS = 7, 5
WINS_NEEDED = 2  # partnership: rounds to win the game
ISO_ROUNDS, ISO_GAP = 4, 7  # Iso Play ends after 4 rounds or once two totals are 7 apart
PARTNERSHIPS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
BOOL_OPTIONS = ("short", "high_low", "iso", "open_history")


def card_name(card: str, coin_colour: str | None = None) -> Message:
    """A card for people, as its face shows it: "Star 9 Blue"; with `coin_colour` (the colour a coin
    on it turned it into) "Star 9 Blue with a coin, now Red"."""
    suit, number, printed = CARD_INFO[card]
    params: dict[str, Any] = {
        "suit": word(SUIT_NAMES[suit]),
        "number": number,
        "colour": word(COLOUR_NAMES[printed]),
    }
    if coin_colour is None:
        return N_("%(suit)s %(number)s %(colour)s"), params
    return N_("%(suit)s %(number)s %(colour)s with a coin, now %(now)s"), {
        **params,
        "now": word(COLOUR_NAMES[coin_colour]),
    }


# --------------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class PlayedCard(Play):
    """A card in a trick, with whether a coin lies on it and the colour it counts as."""

    coin: bool = False
    colour: str = "R"


@dataclass(frozen=True)
class SettledTrick(CompletedTrick[PlayedCard]):
    """A finished trick with the reason it was won: the centre, trump and direction at its end."""

    card: str
    led_suit: str
    centre: tuple[int, int]
    trump: str | None
    direction: str
    reason: str


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
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.base)


def evolve(state: State, **changes: Any) -> State:
    """A copy of the state with some fields changed: `dataclasses.replace` without re-running
    `__init__` over every field, because the service folds whole logs often."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__, **changes)
    return new


# ------------------------------------------------------------------------------- pure rules


def suit_of(card: str) -> str:
    """The suit of a card code."""
    return CARD_INFO[card][0]


def colour_index(colour: str) -> int:
    """Index of a colour in (Red, Blue) pairs."""
    return 0 if colour == "R" else 1


def trump_colour(centre: tuple[int, int]) -> str | None:
    """The trump colour the centre makes: the colour with more coins left, None if equal."""
    red, blue = centre
    return "R" if red > blue else "B" if blue > red else None


def direction_of(lead: PlayedCard, high_low: bool) -> str:
    """Whether high or low numbers are strong this trick: in High-Low the lead's effective colour
    decides (Red → high, Blue → low); otherwise always high."""
    return "low" if high_low and lead.colour == "B" else "high"


def trick_outcome(plays: Sequence[PlayedCard], centre: tuple[int, int], high_low: bool) -> SettledTrick:
    """Who wins these plays if the trick ended with this centre, and why."""
    led_suit = suit_of(plays[0].card)
    trump = trump_colour(centre)
    direction = direction_of(plays[0], high_low)
    sign = 1 if direction == "high" else -1
    tiers: list[Callable[[PlayedCard], bool]] = [lambda p: suit_of(p.card) == led_suit]
    if trump is not None:
        tiers.insert(0, lambda p: p.colour == trump)
    best = plays[winning_index(plays, tiers, lambda p: sign * CARD_INFO[p.card][1])]
    reason = "trump" if best.colour == trump else "suit"
    return SettledTrick(0, tuple(plays), best.seat, best.card, led_suit, centre, trump, direction, reason)


def side_score(tricks: int, coins: int) -> int:
    """A side's round score: +tricks when tricks equal coins, else minus the difference."""
    return tricks if tricks == coins else -abs(tricks - coins)


def round_winners(scores: Sequence[int], tricks: Sequence[int], iso: bool) -> tuple[int, ...]:
    """The sides that win a round: the highest score; partnerships break a tie by more tricks,
    in Iso Play the tied players share it (only shown, it decides nothing)."""
    top = max(scores)
    best = [i for i, s in enumerate(scores) if s == top]
    if not iso and len(best) > 1:
        most = max(tricks[i] for i in best)
        best = [i for i in best if tricks[i] == most]
    return tuple(best)


def score_round(
    sides: Sequence[Sequence[int]], seat_tricks: Sequence[int], seat_coins: Sequence[int], iso: bool
) -> tuple[list[int], list[int], list[int], tuple[int, ...]]:
    """Tricks, coins and score per side and the round's winning sides."""
    tricks = [sum(seat_tricks[s] for s in side) for side in sides]
    coins = [sum(seat_coins[s] for s in side) for side in sides]
    scores = [side_score(t, c) for t, c in zip(tricks, coins, strict=True)]
    return tricks, coins, scores, round_winners(scores, tricks, iso)


def iso_game_over(totals: Sequence[int], rounds_played: int) -> bool:
    """Whether Iso Play ends: two totals 7 or more apart, or 4 rounds played."""
    return rounds_played >= ISO_ROUNDS or max(totals) - min(totals) >= ISO_GAP


def top_sides(totals: Sequence[int]) -> list[int]:
    """The sides with the highest total (several share the win)."""
    top = max(totals)
    return [i for i, t in enumerate(totals) if t == top]


# ---------------------------------------------------------------------------- option checks


def check_flags(options: Mapping[str, Any]) -> None:
    """ValueError unless the on/off options are true or false."""
    for key in BOOL_OPTIONS:
        if type(options[key]) is not bool:
            raise ValueError(f"dualis option {key!r} must be true or false, not {options[key]!r}")


def check_first_leader(value: object, seats: int) -> None:
    """ValueError unless first_leader is None or a seat number."""
    if value is not None and (type(value) is not int or not 0 <= value < seats):
        raise ValueError(f"dualis option 'first_leader' must be a seat from 0 to {seats - 1}, not {value!r}")


# ------------------------------------------------------------------------------------ game


class DualisView(TypedDict):
    """The shape of every Duālis view (`view`, `open_view`), which the table templates and the JSON
    API read: one declared shape. Nested parts are plain JSON."""

    game: str
    seat: int | None
    seats: int
    to_act: list[Any]
    phase: str
    round: int
    mode: str
    options: dict[str, Any]
    tricks_per_round: int
    coins_per_colour: int
    centre: dict[str, Any]
    trump_now: str | None
    leader: int
    trick: dict[str, Any]
    last_trick: dict[str, Any] | None
    previous_round: dict[str, Any] | None  # until a trick of the new round is won: the round before
    history: list[Any]
    players: list[Any]
    sides: list[Any]
    scores: list[Any]
    rounds: list[Any]
    hand: list[Any] | None
    hand_by_suit: list[Any] | None
    choices: list[Any]
    result: dict[str, Any] | None
    hands: NotRequired[list[Any]]
    set_aside: NotRequired[list[Any]]
    goal: dict[str, Any]  # rounds to win (partnerships); Iso Play's end: rounds and the gap between totals
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


class Dualis(Game[State]):
    """The rules of Duālis behind the rules contract."""

    view_shape = DualisView
    action_shapes = ACTION_SHAPES

    name = "dualis"
    seat_counts = (3, 4)
    default_options = {  # noqa: RUF012 (the contract's plain dict)
        "short": False,
        "high_low": False,
        "iso": False,
        "open_history": False,
        "first_leader": None,
        "deck": None,
    }

    # --- starting and dealing ---------------------------------------------------------------

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted with the full options, then the first deal and first leader."""
        opts = self.check_options(seats, options)
        check_flags(opts)
        if not opts["iso"] and seats != 4:
            raise ValueError(f"dualis is played by 4 players in partnerships (3 or 4 with iso), not {seats}")
        check_first_leader(opts["first_leader"], seats)
        fixed_decks(opts["deck"], CARDS, self.name)
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

    # --- folding events ---------------------------------------------------------------------

    def _started(self, event: Event) -> State:
        """A fresh game from GameStarted."""
        opts = event["options"]
        decks = fixed_decks(opts.get("deck"), CARDS, self.name)
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

    def _dealt(self, state: State, event: Event) -> State:
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

    def _played(self, state: State, event: Event) -> State:
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

    def _trick_won(self, state: State, event: Event) -> State:
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

    def _round_scored(self, state: State, event: Event) -> State:
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

    def _ended(self, state: State, event: Event) -> State:
        """The game is over; the winning seats are recorded."""
        return evolve(state, winners=tuple(event["winners"]))

    @cached_property
    def folds(self) -> Mapping[str, Callable[[State, Event], State]]:
        """Each Duālis event's fold."""
        return {
            "RoundDealt": self._dealt,
            "CardPlayed": self._played,
            "TrickWon": self._trick_won,
            "RoundScored": self._round_scored,
            "GameEnded": self._ended,
        }

    # --- reading state ----------------------------------------------------------------------

    def sides(self, state: State) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: the two partnerships, or each player alone in Iso Play."""
        return tuple((s,) for s in range(state.seats)) if state.iso else PARTNERSHIPS

    def side_of(self, state: State, seat: int) -> int:
        """The index of a seat's side."""
        return seat if state.iso else seat % 2

    def match_scores(self, state: State) -> list[int]:
        """Per side: rounds won (partnerships) or the running total (Iso Play)."""
        n = len(self.sides(state))
        if state.iso:
            return [sum(r.scores[i] for r in state.results) for i in range(n)]
        return [sum(i in r.winners for r in state.results) for i in range(n)]

    def current_seat(self, state: State) -> int:
        """The seat to play the next card of the trick: the leader, then clockwise."""
        return next_seat(state.trick[-1].seat, state.seats) if state.trick else state.leader

    def _to_act(self, state: State) -> frozenset[int]:
        """The one seat to play, or nobody before the first deal and once the game is over."""
        if state.winners is not None or state.round == 0:
            return frozenset()
        return frozenset({self.current_seat(state)})

    def led_suit(self, state: State) -> str | None:
        """The suit led in the trick in progress, None before the lead."""
        return suit_of(state.trick[0].card) if state.trick else None

    def coin_left(self, state: State, card: str) -> bool:
        """Whether the centre still holds a coin of the colour opposite to the card's print."""
        return state.centre[colour_index(OPPOSITE[CARD_INFO[card][2]])] > 0

    def playable_cards(self, state: State, seat: int) -> list[str]:
        """The cards a seat may play now (following the led suit if it can)."""
        if state.winners is not None or seat != self.current_seat(state):
            return []
        return playable(state.hands[seat], self.led_suit(state), suit_of)

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """Each playable card, and with a coin where the opposite colour is left in the centre."""
        actions: list[Action] = []
        for card in self.playable_cards(state, seat):
            actions.append({"card": card})
            if self.coin_left(state, card):
                actions.append({"card": card, "coin": True})
        return actions

    # --- acting -----------------------------------------------------------------------------

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
        require(seat == self.current_seat(state), N_("It is not your turn."))
        require(card in state.hands[seat], N_("You do not hold %(card)s."), card=card_name(card))
        led = self.led_suit(state)
        if led is not None and suit_of(card) != led and any(suit_of(c) == led for c in state.hands[seat]):
            raise IllegalAction(MUST_FOLLOW[led])
        if coin and not self.coin_left(state, card):
            wanted = OPPOSITE[CARD_INFO[card][2]]
            raise IllegalAction(
                N_("No Red coin is left in the centre.")
                if wanted == "R"
                else N_("No Blue coin is left in the centre.")
            )
        return card, coin

    # --- plays chosen ahead ---------------------------------------------------------------------

    def _ahead(self, state: State, seat: int) -> tuple[str, ...]:
        """Leading or following each suit in the coming trick, or the suit led in this one; and in
        the trick after, while the round lasts that long."""
        hand = state.hands[seat] if state.round else ()
        if not hand:
            return ()
        led = self.led_suit(state)
        return coming_card_situations(seat, state.trick, state.leader, SUITS, led, then=len(hand) > 1)

    def coming_play(self, state: State, seat: int) -> int:
        return coming_card_number(state.round, seat, state.trick, len(state.completed))

    def _situation(self, state: State, seat: int) -> str | None:
        return owed_card_situation(self.led_suit(state))

    def situation_name(self, situation: str) -> Message:
        return situation_words(situation, SITUATION_NAMES)

    def _ahead_candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        """Each card held, plainly or taking a coin if one of that colour is left."""
        choices: list[tuple[Action, Message]] = []
        for card in sort_cards(state.hands[seat]):
            choices.append(({"card": card}, card_name(card)))
            coin = (N_("%(card)s, taking a coin if one is left"), {"card": card_name(card)})
            choices.append(({"card": card, "coin": True}, coin))
        return choices

    def _check_ahead(self, state: State, seat: int, situation: str, action: Action) -> None:
        """A card the seat holds, following the suit of the situation; a coin is taken if one of
        that colour is left when the card is played."""
        hand = state.hands[seat]
        card = action["card"]
        require(card in hand, N_("You do not hold %(card)s."), card=card_name(card))
        led = unfollowed(hand, card, situation, suit_of)
        if led is not None:
            raise IllegalAction(MUST_FOLLOW[led])

    def _ready(self, state: State, seat: int, action: Action) -> Action | Message:
        """The card, with its coin only if one of that colour is left."""
        card = action["card"]
        if action.get("coin") and card in state.hands[seat] and not self.coin_left(state, card):
            return {"card": card}
        return action

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
        sides = self.sides(state)
        tricks, coins, scores, winners = score_round(sides, state.won, seat_coins, state.iso)
        before = self.match_scores(state)
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
        scores = self.match_scores(state)
        if state.iso:
            return iso_game_over(scores, len(state.results))
        return max(scores) >= WINS_NEEDED

    def _ended_event(self, state: State) -> Event:
        """GameEnded with the winning seats and the final match score."""
        scores = self.match_scores(state)
        sides = self.sides(state)
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

    # --- results and views ------------------------------------------------------------------

    def _result(self, state: State) -> dict[str, Any] | None:
        """None while playing; else the winners, the sides and the match score."""
        if state.winners is None:
            return None
        return {
            "winners": list(state.winners),
            "mode": "iso" if state.iso else "partnership",
            "sides": [list(side) for side in self.sides(state)],
            "scores": self.match_scores(state),
            "rounds": [round_json(r) for r in state.results],
        }

    def forfeit_result(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """The result when `seat` forfeits: the other sides win (in a partnership, the partner loses
        too)."""
        losers = self.sides(state)[self.side_of(state, seat)]
        return {"winners": [other for other in range(seats) if other not in losers], "forfeit": seat}

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see: public table information plus its own hand and choices."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.seats):
            raise ValueError(f"no seat {seat!r} in this game")
        over = state.winners is not None
        view: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "seats": state.seats,
            "to_act": sorted(self.to_act(state)),
            "phase": "over" if over else "play" if state.round else "start",
            "round": state.round,
            "mode": "iso" if state.iso else "partnership",
            "options": {key: getattr(state, key) for key in BOOL_OPTIONS},
            "tricks_per_round": SHORT_HAND_SIZE if state.short else HAND_SIZE,
            "goal": {"rounds_to_win": WINS_NEEDED, "iso_rounds": ISO_ROUNDS, "iso_gap": ISO_GAP},
            "coins_per_colour": SHORT_COINS if state.short else COINS,
            "centre": {"R": state.centre[0], "B": state.centre[1]},
            "trump_now": trump_colour(state.centre),
            "leader": state.leader,
            "trick": self._trick_view(state),
            "last_trick": settled_json(state.completed[-1]) if state.completed else None,
            "previous_round": self._previous_round(state),
            "history": [settled_json(t) for t in shown_tricks(state.completed, state.open_history, over)],
            "players": self._players_view(state),
            "sides": self._sides_view(state),
            "scores": self.match_scores(state),
            "rounds": [round_json(r) for r in state.results],
            "hand": None,
            "hand_by_suit": None,
            "choices": [],
            "result": self.result(state),
        }
        if seat is not None:
            view["hand"] = list(state.hands[seat])
            view["hand_by_suit"] = self._hand_view(state, seat)
            view["choices"] = self._choices(state, seat)
        if over:
            view["hands"] = [list(h) for h in state.hands]
            view["set_aside"] = list(state.set_aside)
        return view

    # --- the seat's view dealt again (search bots) -----------------------------------------

    def _determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> State:
        """The view's round with the unseen cards dealt again over the other hands, the set-aside
        cards and the tricks lying face down; the public table as the view shows it."""
        seats, options, players = view["seats"], view["options"], view["players"]
        shown = [settled_from_json(t) for t in view["history"]]
        trick = tuple(played_from_json(p) for p in view["trick"]["plays"])
        face_down = view["trick"]["number"] - 1 - len(shown)
        table = TrickTable(
            deck=CARDS,
            seat=view["seat"],
            hand=view["hand"],
            hand_counts=[p["hand_count"] for p in players],
            set_aside=len(CARDS) - seats * view["tricks_per_round"],
            shown=[[(p.seat, p.card) for p in t.plays] for t in shown] + [[(p.seat, p.card) for p in trick]],
            face_down=face_down,
            hidden_wins=[p["tricks"] - sum(t.winner == p["seat"] for t in shown) for p in players],
        )
        deal = deal_trick_round(table, suit_of, rng)
        hidden = tuple(
            face_down_trick(number, cards, winner)
            for number, (cards, winner) in enumerate(zip(deal.face_down, deal.winners, strict=True), start=1)
        )
        previous = view["previous_round"]
        return State(
            seed=new_seed(rng),
            seats=seats,
            short=options["short"],
            high_low=options["high_low"],
            iso=options["iso"],
            open_history=options["open_history"],
            decks=(),
            round=view["round"],
            hands=tuple(tuple(sort_cards(h)) for h in deal.hands),
            set_aside=tuple(sort_cards(deal.set_aside)),
            centre=(view["centre"]["R"], view["centre"]["B"]),
            coins=tuple((p["coins_by_colour"]["R"], p["coins_by_colour"]["B"]) for p in players),
            won=tuple(p["tricks"] for p in players),
            leader=view["leader"],
            trick=trick,
            completed=(*hidden, *shown),
            previous_trick=settled_from_json(previous["last_trick"]) if previous else None,
            results=tuple(RoundResult(**{k: _tuple(v) for k, v in r.items()}) for r in view["rounds"]),
        )

    def _previous_round(self, state: State) -> dict[str, Any] | None:
        """The round before, its score and last trick, while the new round has no trick won yet."""
        if state.completed or state.previous_trick is None or state.winners is not None:
            return None
        return {"result": round_json(state.results[-1]), "last_trick": settled_json(state.previous_trick)}

    def _trick_view(self, state: State) -> dict[str, Any]:
        """The trick in progress in playing order, who is still to play and who leads it now."""
        winning = trick_outcome(state.trick, state.centre, state.high_low) if state.trick else None
        played = len(state.trick)
        return {
            "number": len(state.completed) + 1,
            "leader": state.leader,
            "led_suit": self.led_suit(state),
            "direction": winning.direction if winning else None,
            "plays": [play_json(p) for p in state.trick],
            "to_play": [] if state.winners is not None else seat_order(state.leader, state.seats)[played:],
            "winning_now": {"seat": winning.winner, "card": winning.card} if winning else None,
        }

    def _players_view(self, state: State) -> list[dict[str, Any]]:
        """Per seat: its side, tricks won, coins taken (by colour) and cards left in hand."""
        return [
            {
                "seat": seat,
                "side": self.side_of(state, seat),
                "tricks": state.won[seat],
                "coins": sum(state.coins[seat]),
                "coins_by_colour": {"R": state.coins[seat][0], "B": state.coins[seat][1]},
                "hand_count": len(state.hands[seat]),
            }
            for seat in range(state.seats)
        ]

    def _sides_view(self, state: State) -> list[dict[str, Any]]:
        """Per side: seats, tricks, coins, the score if the round ended now and the match score."""
        seat_coins = [sum(c) for c in state.coins]
        sides = self.sides(state)
        tricks, coins, scores, _ = score_round(sides, state.won, seat_coins, state.iso)
        match = self.match_scores(state)
        return [
            {
                "side": i,
                "seats": list(side),
                "tricks": tricks[i],
                "coins": coins[i],
                "score_now": scores[i],
                "round_wins": None if state.iso else match[i],
                "total": match[i] if state.iso else None,
            }
            for i, side in enumerate(sides)
        ]

    def _hand_view(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The seat's hand grouped by suit (Stars, then Moons), marking the playable cards and, on the
        seat's turn, why a card may not be played."""
        legal = set(self.playable_cards(state, seat))
        led = self.led_suit(state)
        why_not = MUST_FOLLOW[led] if legal and led else None
        groups = []
        for suit in SUITS:
            cards = [
                {
                    "card": card,
                    "suit": suit,
                    "number": CARD_INFO[card][1],
                    "colour": CARD_INFO[card][2],
                    "playable": card in legal,
                    "coin_possible": card in legal and self.coin_left(state, card),
                    "why_not": None if card in legal else why_not,
                }
                for card in state.hands[seat]
                if suit_of(card) == suit
            ]
            groups.append({"suit": suit, "cards": cards})
        return groups

    def _choices(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Each legal action of the seat with what it would do: the card's colour, the centre
        after it, the trump that centre makes, the trick's direction and whether it would win if
        the trick ended now."""
        out = []
        for action in self.legal_actions(state, seat):
            card, coin = action["card"], action.get("coin", False)
            colour = OPPOSITE[CARD_INFO[card][2]] if coin else CARD_INFO[card][2]
            red, blue = state.centre
            if coin:
                red, blue = (red - 1, blue) if colour == "R" else (red, blue - 1)
            play = PlayedCard(seat=seat, card=card, coin=coin, colour=colour)
            outcome = trick_outcome((*state.trick, play), (red, blue), state.high_low)
            out.append(
                {
                    "card": card,
                    "coin": coin,
                    "suit": CARD_INFO[card][0],
                    "number": CARD_INFO[card][1],
                    "printed_colour": CARD_INFO[card][2],
                    "effective_colour": colour,
                    "centre_after": {"R": red, "B": blue},
                    "trump_now": outcome.trump,
                    "direction": outcome.direction,
                    "wins_now": outcome.winner == seat,
                }
            )
        return out

    # --- replay -----------------------------------------------------------------------------

    def _open_view(self, state: State) -> dict[str, Any]:
        """The public view with every hand, the set-aside cards and every trick of the round."""
        view = self.view(state, None)
        view["history"] = [settled_json(t) for t in state.completed]
        view["hands"] = [list(h) for h in state.hands]
        view["set_aside"] = list(state.set_aside)
        return view

    def window(self, state: State) -> TrickWindow:
        """The tricks a page may show at this state."""
        on_table = len(state.completed) + 1 if state.trick else None
        over = state.winners is not None
        previous = self._previous_round(state)
        before = (state.round - 1, previous["last_trick"]["number"]) if previous else None
        return trick_window(state.round, state.completed, on_table, state.open_history, over, before)

    def replay_view(self, state: State, seat: int | None, now: State) -> dict[str, Any]:
        """The view then, with every trick that lies face down at `now` shown face down."""
        view = self.view(state, seat)
        window = self.window(now)
        if window.everything:
            return view
        trick = view["trick"]
        if trick["plays"] and not window.shows(state.round, trick["number"]):
            hidden = {"led_suit": None, "direction": None, "winning_now": None}
            view["trick"] = {**trick, **hidden, "plays": [face_down_play(p) for p in trick["plays"]]}
            # What may be played, and what would win, would tell of the face-down cards.
            view["choices"] = []
            view["hand_by_suit"] = [
                {
                    **group,
                    "cards": [
                        {**c, "playable": None, "coin_possible": None, "why_not": None}
                        for c in group["cards"]
                    ],
                }
                for group in view["hand_by_suit"] or ()
            ] or None
        shown = [
            t if window.shows(state.round, t["number"]) else face_down_settled(t) for t in view["history"]
        ]
        view["history"] = shown
        if view["last_trick"] and not window.shows(state.round, view["last_trick"]["number"]):
            view["last_trick"] = face_down_settled(view["last_trick"])
        previous = view["previous_round"]
        if previous and not window.shows(state.round - 1, previous["last_trick"]["number"]):
            view["previous_round"] = {**previous, "last_trick": face_down_settled(previous["last_trick"])}
        return view

    def replay_describe(self, event: Event, seat: int | None, names: list[str], now: State) -> Message | None:
        """The line, or only who played or won for a trick that lies face down at `now`."""
        hidden = face_down_line(event, self.window(now), lambda s: name_of(names, s))
        return hidden or self.describe(event, seat, names)

    def heading(self, state: State, event: Event) -> Heading:
        """Start, then each round and, inside it, each trick."""
        return START if event.get("type") == "GameStarted" else trick_heading(event, state.round)

    def score_sheet(self, state: State) -> ScoreSheet:
        """Per side and round: the score with its tricks and coins; the rounds won or the total."""
        rows = tuple(
            ScoreRow(
                r.round,
                tuple(
                    (
                        N_("%(score)s (tricks %(tricks)s, coins %(coins)s)"),
                        {"score": signed(s), "tricks": t, "coins": c},
                    )
                    for s, t, c in zip(r.scores, r.tricks, r.coins, strict=True)
                ),
                r.winners,
            )
            for r in state.results
        )
        match = self.match_scores(state)
        standing: tuple[Message, ...]
        if state.iso:
            standing = tuple((N_("total %(total)s"), {"total": signed(t)}) for t in match)
        else:
            standing = tuple((N_("rounds won: %(wins)s"), {"wins": w}) for w in match)
        return ScoreSheet(self.sides(state), rows, standing)

    # --- words ------------------------------------------------------------------------------

    def _tell_started(self, event: Event, seat: int | None, names: Sequence[str]) -> Message:
        """The game begins, naming the partnerships or the players."""
        seats = event["seats"]
        if event["options"].get("iso"):
            players = ", ".join(name_of(names, s) for s in range(seats))
            return N_("A game of Duālis (Iso Play) begins for %(players)s."), {"players": players}
        return N_("A game of Duālis begins: %(team_a)s against %(team_b)s."), {
            "team_a": team_name(names, PARTNERSHIPS[0]),
            "team_b": team_name(names, PARTNERSHIPS[1]),
        }

    def _tell_dealt(self, event: Event, seat: int | None, names: Sequence[str]) -> Message:
        """A round is dealt (hands are private, so only the leader is named)."""
        return N_("Round %(round)s is dealt; %(leader)s leads."), {
            "round": event["round"],
            "leader": name_of(names, event["leader"]),
        }

    def _tell_played(self, event: Event, seat: int | None, names: Sequence[str]) -> Message:
        """A card played, with its coin and new colour if one was taken."""
        params = {"player": name_of(names, event["seat"]), "card": card_name(event["card"])}
        if not event["coin"]:
            return N_("%(player)s played %(card)s."), params
        if event["colour"] == "R":
            return N_("%(player)s played %(card)s with a coin (now Red)."), params
        return N_("%(player)s played %(card)s with a coin (now Blue)."), params

    def _tell_won(self, event: Event, seat: int | None, names: Sequence[str]) -> Message:
        """Who won the trick, and why: the centre, the trump and the strongest card's kind."""
        params = {
            "player": name_of(names, event["winner"]),
            "trick": event["trick"],
            "card": winning_card_name(event),
            "red": event["centre"]["R"],
            "blue": event["centre"]["B"],
        }
        return TRICK_WON_LINES[(event["trump"], event["reason"], event["direction"])], params

    def _tell_scored(self, event: Event, seat: int | None, names: Sequence[str]) -> Message:
        """The round's scores and who won it."""
        sides, scores = event["sides"], event["scores"]
        labels = [team_name(names, side) for side in sides]
        winners = together([labels[i] for i in event["winners"]])
        if event["mode"] == "partnership":
            return N_(
                "Round %(round)s: %(team_a)s %(score_a)s, %(team_b)s %(score_b)s; %(winner)s win the round."
            ), {
                "round": event["round"],
                "team_a": labels[0],
                "score_a": signed(scores[0]),
                "team_b": labels[1],
                "score_b": signed(scores[1]),
                "winner": winners,
            }
        params = {
            "round": event["round"],
            "scores": ", ".join(f"{label} {signed(s)}" for label, s in zip(labels, scores, strict=True)),
            "winner": winners,
        }
        if len(event["winners"]) == 1:
            return N_("Round %(round)s: %(scores)s; %(winner)s wins the round."), params
        return N_("Round %(round)s: %(scores)s; %(winner)s share the round."), params

    def _tell_ended(self, event: Event, seat: int | None, names: Sequence[str]) -> Message:
        """The final result: the winning partnership's rounds, or the winners' total in Iso Play."""
        sides, match, best = event["sides"], event["match"], event["winning_sides"]
        labels = [team_name(names, side) for side in sides]
        winner = together([labels[i] for i in best])
        if event["mode"] == "partnership":
            loser = 1 - best[0]
            return N_("Game over: %(winner)s win %(wins)s rounds to %(losses)s."), {
                "winner": winner,
                "wins": match[best[0]],
                "losses": match[loser],
            }
        params = {
            "winner": winner,
            "total": match[best[0]],
            "totals": ", ".join(
                f"{label} {signed(total)}" for label, total in zip(labels, match, strict=True)
            ),
        }
        if len(best) == 1:
            return N_("Game over: %(winner)s wins with %(total)s points (%(totals)s)."), params
        return N_("Game over: %(winner)s share the win with %(total)s points (%(totals)s)."), params

    @cached_property
    def tellers(self) -> Mapping[str, Teller]:
        """Each Duālis event in words; every one is public (deals name only the leader)."""
        return {
            "GameStarted": self._tell_started,
            "RoundDealt": self._tell_dealt,
            "CardPlayed": self._tell_played,
            "TrickWon": self._tell_won,
            "RoundScored": self._tell_scored,
            "GameEnded": self._tell_ended,
        }


# ----------------------------------------------------------------------------- JSON helpers


def sort_cards(cards: Sequence[str]) -> list[str]:
    """Cards in hand order: Stars, then Moons, by number, Red before Blue."""
    return sorted(cards, key=SORT_KEY.__getitem__)


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


def _tuple(value: Any) -> Any:
    """A JSON list as a tuple (for the frozen records), anything else as it is."""
    return tuple(value) if isinstance(value, list) else value


def face_down_settled(trick: dict[str, Any]) -> dict[str, Any]:
    """A settled trick (as JSON) lying face down: its number, winner and the centre it ended with
    (public), no card and nothing the cards decided."""
    plays = [face_down_play(p) for p in trick["plays"]]
    hidden = {"card": None, "led_suit": None, "direction": None, "reason": None}
    return {**trick, **hidden, "plays": plays}


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


def winning_card_name(won: Event) -> Message:
    """The name of a TrickWon event's winning card, in the colour a coin on it made it."""
    play = next(p for p in won["plays"] if p["seat"] == won["winner"])
    return card_name(play["card"], play["colour"] if play["coin"] else None)


def team_name(names: Sequence[str], side: Sequence[int]) -> str:
    """A side's name: its players joined with "&"."""
    return " & ".join(name_of(names, s) for s in side)


def signed(score: int) -> str:
    """A score with its sign: +5, −1, 0."""
    return f"+{score}" if score > 0 else f"−{-score}" if score < 0 else "0"


# One line per way a trick can be won: (trump, reason, direction).
TRICK_WON_LINES: dict[tuple[str | None, str, str], str] = {
    (None, "suit", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, no trump, "
        "highest of the led suit."
    ),
    (None, "suit", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, no trump, "
        "lowest of the led suit."
    ),
    ("R", "trump", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump, "
        "highest Red."
    ),
    ("R", "trump", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump, "
        "lowest Red."
    ),
    ("B", "trump", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump, "
        "highest Blue."
    ),
    ("B", "trump", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump, "
        "lowest Blue."
    ),
    ("R", "suit", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump "
        "but no Red card was played, highest of the led suit."
    ),
    ("R", "suit", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump "
        "but no Red card was played, lowest of the led suit."
    ),
    ("B", "suit", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump "
        "but no Blue card was played, highest of the led suit."
    ),
    ("B", "suit", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump "
        "but no Blue card was played, lowest of the led suit."
    ),
}


GAME = Dualis()
