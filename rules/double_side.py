"""Double Side Play (ダブルサイドプレイ): a trick-taking game for 3 or 4 players with two-sided cards.

48 cards in four colours, Red R, Blue B, Green G and Yellow Y, each with a black number 1-12 and a
white number that differs by 6 (white = black + 6 for 1-6, black - 6 for 7-12). A card is written
as its colour and black number: "G3" is Green, black 3, white 9.

Each round every player gets 12 cards (with 3 players 12 more are set aside unseen) and rolls two
dice, rolling both again until they differ; the dice are public. The lowest dice sum leads first
(then the lowest single die, then a draw). Tricks 1-6 compare black numbers; then every hand is
turned over and tricks 7-12 compare white numbers. Players must follow the led colour; the highest
number of the led colour wins and leads next. A player whose trick count equals one of their dice
scores a point (a 6 counts as 6 or 0). Rounds repeat until someone has 2 points; players reaching 2
in the same round share the win.

Option `trump`: after the roll the highest dice sum (then the highest single die, then a draw)
names a trump colour; a trump beats every non-trump card and the highest trump wins. There is no
duty to trump and trump may be led. Option `open_history` shows every trick of the round instead
of only the last one. Options `deck` and `dice` fix the shuffles and rolls (tests, imports).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
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
    fixed_decks,
    name_of,
    require,
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
    coming_trick,
    face_down_line,
    face_down_play,
    next_seat,
    owed_card_situation,
    playable,
    shown_tricks,
    situation_words,
    trick_heading,
    trick_window,
    unfollowed,
    winning_index,
)

COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
COLOUR_NAMES: dict[str, str] = {"R": N_("Red"), "B": N_("Blue"), "G": N_("Green"), "Y": N_("Yellow")}
SITUATION_NAMES: dict[str, str] = {
    LEAD: N_("if I lead"),
    LED + "R": N_("if Red is led"),
    LED + "B": N_("if Blue is led"),
    LED + "G": N_("if Green is led"),
    LED + "Y": N_("if Yellow is led"),
}
DECK: tuple[str, ...] = tuple(f"{colour}{black}" for colour in COLOURS for black in range(1, 13))
ACTION_SHAPES = (
    Shape(
        {
            "card": Choice(
                DECK,
                N_("There is no card %(value)s: a card is a colour R, B, G or Y and a number 1-12, e.g. G3."),
            )
        }
    ),
    Shape({"trump": Choice(COLOURS, N_("Name one of the four colours as trump: R, B, G or Y."))}),
)
HAND_SIZE = 12
TRICKS_PER_ROUND = 12
TURN_OVER_AFTER = 6  # hands are turned over once this many tricks of the round are done
POINTS_TO_WIN = 2
BLACK, WHITE = "black", "white"
Dice = tuple[int, int]


def colour(card: str) -> str:
    """The card's colour code, e.g. "G" for G3."""
    return card[0]


def black(card: str) -> int:
    """The card's black number (the astronaut side), the one its code names."""
    return int(card[1:])


def white_of(black_number: int) -> int:
    """The white number printed with a black number: +6 for 1-6, -6 for 7-12 (RULINGS.md §2)."""
    return black_number + 6 if black_number <= 6 else black_number - 6


# Looked up on every play and every comparison, so computed once.
_NUMBER: dict[tuple[str, str], int] = {
    (card, side): black(card) if side == BLACK else white_of(black(card))
    for card in DECK
    for side in (BLACK, WHITE)
}


def number(card: str, side: str) -> int:
    """The card's number on the side in force ("black" or "white")."""
    return _NUMBER[(card, side)]


# Why a card of another colour may not be played, as a page gives the reason.
MUST_FOLLOW_COLOUR = N_("You must follow the colour led while you hold a card of it.")


def side_of_trick(trick_number: int) -> str:
    """Which side decides a trick: black for tricks 1-6 of a round, white for 7-12."""
    return BLACK if trick_number <= TURN_OVER_AFTER else WHITE


def sort_key(side: str) -> Callable[[str], tuple[int, int]]:
    """Hand order: by colour (R, B, G, Y), then by the number on the side in force."""
    return lambda card: (COLOURS.index(colour(card)), number(card, side))


def card_info(card: str, side: str) -> dict[str, Any]:
    """A card as a page shows it: code, colour, both numbers and the number in force."""
    return {
        "card": card,
        "colour": colour(card),
        "black": black(card),
        "white": white_of(black(card)),
        "number": number(card, side),
    }


def card_name(card: str, side: str) -> Message:
    """A card for people by the face in force on `side`: "Green 3" (black), "Yellow 8 (white side)"
    once the hands are turned over (Y2 shows 8 then)."""
    params = {"colour": word(COLOUR_NAMES[colour(card)]), "number": number(card, side)}
    if side == BLACK:
        return N_("%(colour)s %(number)s"), params
    return N_("%(colour)s %(number)s (white side)"), params


def roll_dice(rng: SeededRandom) -> list[list[int]]:
    """One player's roll: both dice, rolled again while they show a double; every roll in order,
    the last one (which differs) is kept."""
    rolls = []
    while True:
        pair = [rng.die(), rng.die()]
        rolls.append(pair)
        if pair[0] != pair[1]:
            return rolls


ZERO_DIE = 6  # a die showing this also counts as 0 tricks


def targets(dice: Sequence[int]) -> list[int]:
    """The trick counts that score with these dice: each die, and 0 as well for a 6."""
    out = []
    for die in dice:
        out += [die, 0] if die == ZERO_DIE else [die]
    return out


def _tie_break(keys: Sequence[tuple[int, int]], seed: int, *label: object) -> tuple[int, str]:
    """The seat with the smallest key (sum key, single-die key) and what decided it: "sum", "die",
    or "draw" (the rulebook's rock-paper-scissors, drawn from the seed under `label`)."""
    best = min(key[0] for key in keys)
    tied = [seat for seat, key in enumerate(keys) if key[0] == best]
    if len(tied) == 1:
        return tied[0], "sum"
    best = min(keys[seat][1] for seat in tied)
    tied = [seat for seat in tied if keys[seat][1] == best]
    if len(tied) == 1:
        return tied[0], "die"
    return SeededRandom(seed, *label).choice(tied), "draw"


def first_leader(dice: Sequence[Sequence[int]], seed: int, round_no: int) -> tuple[int, str]:
    """The round's first leader: lowest dice sum, then lowest single die, then a seeded draw."""
    return _tie_break([(a + b, min(a, b)) for a, b in dice], seed, "leader", round_no)


def trump_chooser(dice: Sequence[Sequence[int]], seed: int, round_no: int) -> tuple[int, str]:
    """Who names trump: highest dice sum, then highest single die, then a seeded draw."""
    return _tie_break([(-(a + b), -max(a, b)) for a, b in dice], seed, "trump chooser", round_no)


def trick_winner(cards: Sequence[str], side: str, trump: str | None) -> int:
    """The position of the winning card: the highest trump if one was played, else the highest card
    of the led colour; numbers are read on the side in force (they are unique per colour)."""
    led = colour(cards[0])
    tiers = [lambda card: colour(card) == led]
    if trump is not None:
        tiers.insert(0, lambda card: colour(card) == trump)
    return winning_index(cards, tiers, lambda card: number(card, side))


# --------------------------------------------------------------------------------- options


def _is_int(value: object, low: int, high: int) -> bool:
    """Whether value is a plain int (not a bool) in [low, high]."""
    return type(value) is int and low <= value <= high


def _parse_dice(dice: object, seats: int) -> tuple[tuple[Dice, ...], ...]:
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
                or not all(_is_int(d, 1, 6) for d in pair)
            ):
                raise ValueError(f"option dice: round {i + 1} has {pair!r}, not a pair of dice 1-6")
            if pair[0] == pair[1]:
                raise ValueError(
                    f"option dice: round {i + 1} has the double {pair!r}; the two dice must differ"
                )
        rounds.append(tuple((pair[0], pair[1]) for pair in entry))
    return tuple(rounds)


def trick_from_json(trick: Mapping[str, Any]) -> CompletedTrick[Play]:
    """A completed trick from its JSON (`_trick_view`)."""
    plays = tuple(Play(seat=p["seat"], card=p["card"]) for p in trick["plays"])
    return CompletedTrick(trick["number"], plays, trick["winner"])


def record_from_json(record: Mapping[str, Any]) -> RoundRecord:
    """A score-sheet line from its JSON (`_record_view`) while the game runs: the cards set aside
    then are not shown, and nothing ahead depends on them."""
    return RoundRecord(
        number=record["round"],
        dice=tuple((a, b) for a, b in record["dice"]),
        tricks=tuple(record["tricks"]),
        scorers=tuple(record["scorers"]),
        points=tuple(record["points"]),
        trump=record["trump"],
        set_aside=(),
    )


def _json_copy(value: object) -> object:
    """A plain-JSON copy of an option value (tuples become lists)."""
    if isinstance(value, (list, tuple)):
        return [_json_copy(item) for item in value]
    return value


# --------------------------------------------------------------------------------- state


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
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.base)

    @property
    def side(self) -> str:
        """The side in force: white once the hands are turned over."""
        return WHITE if self.turned else BLACK


def _evolve(state: State, **changes: Any) -> State:
    """A copy of the state with some fields changed. Same result as dataclasses.replace, but several
    times faster (no __init__ over every field), which matters because whole logs are folded often."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__, **changes)
    return new


def _bump(values: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The tuple with one more at `index`."""
    return (*values[:index], values[index] + 1, *values[index + 1 :])


# --------------------------------------------------------------------------------- the game


class DoubleSideView(TypedDict):
    """The shape of every Double Side Play view (`view`, `open_view`), which the table templates and the JSON
    API read: one declared shape. Nested parts are plain JSON."""

    game: str
    seat: int | None
    to_act: list[Any]
    phase: str
    round: int
    trick_number: int | None
    side: str
    turned_over: bool
    turn: int | None
    options: dict[str, Any]
    trump: str | None
    trump_chooser: int | None
    trump_chooser_reason: str | None
    choosing_trump: int | None
    leader: int
    leader_reason: str
    players: list[Any]
    points: list[Any]
    points_to_win: int
    hand: list[Any]
    hands: list[Any] | None
    current_trick: dict[str, Any] | None
    last_trick: dict[str, Any] | None
    previous_round: dict[str, Any] | None  # until a trick of the new round is won: the round before
    tricks: list[Any]
    set_aside_count: int
    set_aside: list[Any] | None
    history: list[Any]
    winners: list[Any] | None
    colour_names: dict[str, Any]
    goal: dict[str, Any]  # points to win, tricks per round, the trick after which hands turn over, the 0 die
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


class DoubleSide(Game[State]):
    """Double Side Play's rules behind the common contract."""

    view_shape = DoubleSideView
    action_shapes = ACTION_SHAPES

    name: ClassVar[str] = "double_side"
    seat_counts: ClassVar[tuple[int, ...]] = (3, 4)
    default_options: ClassVar[dict[str, Any]] = {
        "trump": False,
        "open_history": False,
        "deck": None,
        "dice": None,
    }

    # --- building state -------------------------------------------------------------------

    def card_words(self, state: State, card: str) -> Message:
        """A card by the face in force on the side the hands show now."""
        return card_name(card, state.side)

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted (seed, seats, all options) and the first RoundDealt."""
        if type(seed) is not int:
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        opts = self.check_options(seats, options)
        for flag in ("trump", "open_history"):
            if type(opts[flag]) is not bool:
                raise ValueError(f"option {flag} must be true or false, not {opts[flag]!r}")
        fixed_decks(opts["deck"], DECK, self.name)
        _parse_dice(opts["dice"], seats)
        opts = {key: _json_copy(value) for key, value in opts.items()}
        started = self.event("GameStarted", game=self.name, seed=seed, seats=seats, options=opts)
        return [started, self._deal(self.apply(None, started), 1)]

    def _started(self, e: Event) -> State:
        """A new game with no round dealt yet."""
        opts, seats = e["options"], e["seats"]
        return State(
            seed=e["seed"],
            seats=seats,
            trump_option=opts["trump"],
            open_history=opts["open_history"],
            decks=fixed_decks(opts["deck"], DECK, self.name),
            fixed_dice=_parse_dice(opts["dice"], seats),
            points=(0,) * seats,
        )

    def _on_dealt(self, st: State, e: Event) -> State:
        """A fresh round: hands, set-aside cards, dice, first leader and any trump chooser; the last
        trick of the round before stays in view."""
        chooser = e["trump_chooser"]
        return _evolve(
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

    def _on_trump(self, st: State, e: Event) -> State:
        """Trump named; the first leader may lead."""
        return _evolve(st, phase="play", trump=e["trump"])

    def _on_card(self, st: State, e: Event) -> State:
        """A card leaves its hand for the trick; the next seat is to play."""
        seat, card = e["seat"], e["card"]
        hand = tuple(c for c in st.hands[seat] if c != card)
        hands = (*st.hands[:seat], hand, *st.hands[seat + 1 :])
        return _evolve(st, hands=hands, trick=(*st.trick, Play(seat, card)), turn=next_seat(seat, st.seats))

    def _on_trick(self, st: State, e: Event) -> State:
        """The trick goes to its winner, who leads next (unless the round is done)."""
        winner = e["winner"]
        done = CompletedTrick(number=e["trick"], plays=st.trick, winner=winner)
        last = e["trick"] >= TRICKS_PER_ROUND
        return _evolve(
            st,
            completed=(*st.completed, done),
            tricks_won=_bump(st.tricks_won, winner),
            trick=(),
            trick_number=e["trick"] + 1,
            turn=None if last else winner,
            phase="scoring" if last else st.phase,
        )

    def _on_turned(self, st: State, e: Event) -> State:
        """Every hand turned over: white numbers from now on."""
        return _evolve(st, turned=True)

    def _on_scored(self, st: State, e: Event) -> State:
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
        return _evolve(st, points=tuple(e["points"]), history=(*st.history, record), phase="round_over")

    def _on_ended(self, st: State, e: Event) -> State:
        """The game is over."""
        return _evolve(st, phase="over", winners=tuple(e["winners"]), turn=None)

    @cached_property
    def folds(self) -> Mapping[str, Callable[[State, Event], State]]:
        """Each Double Side Play event's fold."""
        return {
            "RoundDealt": self._on_dealt,
            "TrumpChosen": self._on_trump,
            "CardPlayed": self._on_card,
            "TrickWon": self._on_trick,
            "HandsTurnedOver": self._on_turned,
            "RoundScored": self._on_scored,
            "GameEnded": self._on_ended,
        }

    # --- randomness, recorded in RoundDealt -----------------------------------------------

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

    # --- reading state --------------------------------------------------------------------

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
        return [{"card": card} for card in self._playable(state, seat)]

    def _led(self, state: State) -> str | None:
        """The led colour of the trick in progress, None before the lead."""
        return colour(state.trick[0].card) if state.trick else None

    def _playable(self, state: State, seat: int) -> list[str]:
        """The seat's cards that may be played now (following the led colour), in hand order."""
        hand = sorted(state.hands[seat], key=sort_key(state.side))
        return playable(hand, self._led(state), colour)

    # --- acting ---------------------------------------------------------------------------

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
        led = self._led(state)
        if led is not None and colour(card) != led:
            require(
                all(colour(c) != led for c in state.hands[seat]),
                N_("You must follow %(colour)s."),
                colour=word(COLOUR_NAMES[led]),
            )
        return self._play_events(state, seat, card)

    # --- plays chosen ahead ---------------------------------------------------------------------

    def _ahead(self, state: State, seat: int) -> tuple[str, ...]:
        """Leading or following each colour in the coming trick, or the colour led in this one; and
        in the trick after, while the round lasts that long and the hands are not turned over
        between the two (a card chosen would then count another number than the page showed)."""
        hand = state.hands[seat] if state.phase in ("trump", "play") else ()
        if not hand:
            return ()
        leader = state.leader if state.phase == "trump" else state.turn
        then = len(hand) > 1 and coming_trick(seat, state.trick, len(state.completed)) != TURN_OVER_AFTER
        return coming_card_situations(seat, state.trick, leader, COLOURS, self._led(state), then)

    def coming_play(self, state: State, seat: int) -> int:
        return coming_card_number(state.round, seat, state.trick, len(state.completed))

    def _situation(self, state: State, seat: int) -> str | None:
        """The card owed (the trump choice is made once the dice are known, so never ahead)."""
        return owed_card_situation(self._led(state)) if state.phase == "play" else None

    def situation_name(self, situation: str) -> Message:
        return situation_words(situation, SITUATION_NAMES)

    def _ahead_candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        hand = sorted(state.hands[seat], key=sort_key(state.side))
        return [({"card": card}, card_name(card, state.side)) for card in hand]

    def _check_ahead(self, state: State, seat: int, situation: str, action: Action) -> None:
        """A card the seat holds, following the colour of the situation."""
        hand = state.hands[seat]
        require("card" in action, N_("Only a card can be chosen ahead."))
        card: str = action["card"]
        require(card in hand, N_("You do not hold %(card)s."), card=card_name(card, state.side))
        led = unfollowed(hand, card, situation, colour)
        require(led is None, N_("You must follow %(colour)s."), colour=word(COLOUR_NAMES.get(led or "", "")))

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

    # --- views ----------------------------------------------------------------------------

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator): own hand, public dice, tricks and scores."""
        if seat is not None and not (type(seat) is int and 0 <= seat < state.seats):
            raise ValueError(f"there is no seat {seat!r}")
        over = state.phase == "over"
        side = state.side
        return {
            "game": self.name,
            "seat": seat,
            "to_act": sorted(self.to_act(state)),
            "phase": state.phase,
            "round": state.round,
            "trick_number": state.trick_number if state.trick_number <= TRICKS_PER_ROUND else None,
            "side": side,
            "turned_over": state.turned,
            "turn": state.turn if state.phase == "play" else None,
            "options": {"trump": state.trump_option, "open_history": state.open_history},
            "trump": state.trump,
            "trump_chooser": state.chooser,
            "trump_chooser_reason": state.chooser_reason,
            "choosing_trump": state.chooser if state.phase == "trump" else None,
            "leader": state.leader,
            "leader_reason": state.leader_reason,
            "players": [self._player_view(state, s) for s in range(state.seats)],
            "points": list(state.points),
            "points_to_win": POINTS_TO_WIN,
            "goal": {
                "points_to_win": POINTS_TO_WIN,
                "tricks_per_round": TRICKS_PER_ROUND,
                "turn_over_after": TURN_OVER_AFTER,
                "zero_die": ZERO_DIE,
            },
            "hand": self._hand_view(state, seat) if seat is not None else [],
            "hands": [sorted(h, key=sort_key(side)) for h in state.hands] if over else None,
            "current_trick": self._current_trick_view(state),
            "last_trick": self._trick_view(state.completed[-1], state.trump) if state.completed else None,
            "previous_round": self._previous_round(state),
            "tricks": [
                self._trick_view(t, state.trump)
                for t in shown_tricks(state.completed, state.open_history, over)
            ],
            "set_aside_count": len(state.set_aside),
            "set_aside": sorted(state.set_aside, key=sort_key(BLACK)) if over else None,
            "history": [self._record_view(r, over) for r in state.history],
            "winners": list(state.winners) if state.winners is not None else None,
            "colour_names": dict(COLOUR_NAMES),
        }

    # --- the seat's view dealt again (search bots) -----------------------------------------

    def _determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> State:
        """The view's round with the unseen cards dealt again over the other hands, the set-aside
        cards and the tricks lying face down; dice, trump and scores as the view shows them."""
        players, current = view["players"], view["current_trick"]
        seats = len(players)
        shown = [trick_from_json(t) for t in view["tricks"]]
        trick = tuple(Play(seat=p["seat"], card=p["card"]) for p in current["plays"])
        face_down = current["number"] - 1 - len(shown)
        table = TrickTable(
            deck=DECK,
            seat=view["seat"],
            hand=[c["card"] for c in view["hand"]],
            hand_counts=[p["cards"] for p in players],
            set_aside=view["set_aside_count"],
            shown=[[(p.seat, p.card) for p in t.plays] for t in shown] + [[(p.seat, p.card) for p in trick]],
            face_down=face_down,
            hidden_wins=[p["tricks"] - sum(t.winner == p["seat"] for t in shown) for p in players],
        )
        deal = deal_trick_round(table, colour, rng)
        hidden = tuple(
            CompletedTrick(n, tuple(Play(seat=s, card=c) for s, c in enumerate(cards)), winner)
            for n, (cards, winner) in enumerate(zip(deal.face_down, deal.winners, strict=True), start=1)
        )
        previous = view["previous_round"]
        return State(
            seed=new_seed(rng),
            seats=seats,
            trump_option=view["options"]["trump"],
            open_history=view["options"]["open_history"],
            decks=(),
            fixed_dice=(),
            round=view["round"],
            phase=view["phase"],
            hands=deal.hands,
            set_aside=deal.set_aside,
            rolls=tuple(tuple((a, b) for a, b in p["rolls"]) for p in players),
            dice=tuple((p["dice"][0], p["dice"][1]) for p in players),
            leader=view["leader"],
            leader_reason=view["leader_reason"],
            chooser=view["trump_chooser"],
            chooser_reason=view["trump_chooser_reason"],
            trump=view["trump"],
            turned=view["turned_over"],
            turn=view["turn"] if view["phase"] == "play" else current["leader"],
            trick_number=current["number"],
            trick=trick,
            completed=(*hidden, *shown),
            previous_trick=trick_from_json(previous["last_trick"]) if previous else None,
            tricks_won=tuple(p["tricks"] for p in players),
            points=tuple(view["points"]),
            history=tuple(record_from_json(r) for r in view["history"]),
        )

    def _player_view(self, state: State, seat: int) -> dict[str, Any]:
        """One seat's public line: dice (and re-rolls), targets, tricks, on target, points, cards left."""
        dice = list(state.dice[seat]) if state.dice else []
        tricks = state.tricks_won[seat] if state.tricks_won else 0
        return {
            "seat": seat,
            "dice": dice,
            "rolls": [list(r) for r in state.rolls[seat]] if state.rolls else [],
            "targets": targets(dice),
            "tricks": tricks,
            "on_target": bool(dice) and tricks in targets(dice),
            "points": state.points[seat],
            "cards": len(state.hands[seat]) if state.hands else 0,
        }

    def _hand_view(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The seat's own cards in hand order, each with both numbers, whether it may be played and, on
        the seat's turn, why not."""
        side = state.side
        may = (
            set(self._playable(state, seat))
            if seat in self.to_act(state) and state.phase == "play"
            else set()
        )
        hand = sorted(state.hands[seat], key=sort_key(side)) if state.hands else []
        why_not = MUST_FOLLOW_COLOUR if may else None
        return [
            {**card_info(card, side), "playable": card in may, "why_not": None if card in may else why_not}
            for card in hand
        ]

    def _current_trick_view(self, state: State) -> dict[str, Any] | None:
        """The trick on the table: number, leader, led colour and the plays so far; None between rounds."""
        if state.trick_number > TRICKS_PER_ROUND or state.phase not in ("trump", "play"):
            return None
        leader = state.trick[0].seat if state.trick else state.turn
        side = state.side
        return {
            "number": state.trick_number,
            "leader": leader,
            "led": self._led(state),
            "side": side,
            "plays": [{"seat": p.seat, **card_info(p.card, side)} for p in state.trick],
        }

    def _previous_round(self, state: State) -> dict[str, Any] | None:
        """The round before, its score-sheet line and last trick, while the new round has no trick
        won yet."""
        if state.completed or state.previous_trick is None or state.phase == "over":
            return None
        record = state.history[-1]
        return {
            "result": self._record_view(record, False),
            "last_trick": self._trick_view(state.previous_trick, record.trump),
        }

    def _trick_view(self, trick: CompletedTrick[Play], trump: str | None) -> dict[str, Any]:
        """A completed trick with its winner and why: the side, the led colour and any trump."""
        side = side_of_trick(trick.number)
        win = next(p.card for p in trick.plays if p.seat == trick.winner)
        return {
            "number": trick.number,
            "leader": trick.plays[0].seat,
            "side": side,
            "led": colour(trick.plays[0].card),
            "trump": trump,
            "by_trump": colour(win) == trump,
            "winner": trick.winner,
            "winning_card": card_info(win, side),
            "plays": [{"seat": p.seat, **card_info(p.card, side)} for p in trick.plays],
        }

    def _record_view(self, record: RoundRecord, over: bool) -> dict[str, Any]:
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

    def _result(self, state: State) -> dict[str, Any] | None:
        """None while running; else the winners, points, rounds played and the score sheet."""
        if state.phase != "over":
            return None
        return {
            "winners": list(state.winners or ()),
            "points": list(state.points),
            "rounds": state.round,
            "history": [self._record_view(r, True) for r in state.history],
        }

    # --- replay ---------------------------------------------------------------------------

    def _open_view(self, state: State) -> dict[str, Any]:
        """The public view with every hand, the set-aside cards and every trick of the round."""
        view = self.view(state, None)
        view["tricks"] = [self._trick_view(t, state.trump) for t in state.completed]
        view["hands"] = [sorted(h, key=sort_key(state.side)) for h in state.hands]
        view["set_aside"] = sorted(state.set_aside, key=sort_key(BLACK))
        return view

    def window(self, state: State) -> TrickWindow:
        """The tricks a page may show at this state."""
        on_table = state.trick_number if state.trick else None
        previous = self._previous_round(state)
        before = (state.round - 1, previous["last_trick"]["number"]) if previous else None
        over = state.phase == "over"
        return trick_window(state.round, state.completed, on_table, state.open_history, over, before)

    def replay_view(self, state: State, seat: int | None, now: State) -> dict[str, Any]:
        """The view then, with every trick that lies face down at `now` shown face down."""
        view = self.view(state, seat)
        window = self.window(now)
        if window.everything:
            return view
        trick = view["current_trick"]
        if trick and trick["plays"] and not window.shows(state.round, trick["number"]):
            view["current_trick"] = {
                **trick,
                "led": None,
                "plays": [face_down_play(p) for p in trick["plays"]],
            }
            # Which cards may follow would tell the face-down led colour.
            view["hand"] = [{**card, "playable": None, "why_not": None} for card in view["hand"]]
        view["tricks"] = [
            t if window.shows(state.round, t["number"]) else _face_down_trick(t) for t in view["tricks"]
        ]
        if view["last_trick"] and not window.shows(state.round, view["last_trick"]["number"]):
            view["last_trick"] = _face_down_trick(view["last_trick"])
        previous = view["previous_round"]
        if previous and not window.shows(state.round - 1, previous["last_trick"]["number"]):
            view["previous_round"] = {**previous, "last_trick": _face_down_trick(previous["last_trick"])}
        return view

    def replay_describe(self, event: Event, seat: int | None, names: list[str], now: State) -> Message | None:
        """The line, or only who played or won for a trick that lies face down at `now`."""
        hidden = face_down_line(event, self.window(now), lambda s: name_of(names, s))
        return hidden or self.describe(event, seat, names)

    def heading(self, state: State, event: Event) -> Heading:
        """Start, then each round and, inside it, each trick."""
        return START if event.get("type") == "GameStarted" else trick_heading(event, state.round)

    def score_sheet(self, state: State) -> ScoreSheet:
        """Per player and round: the dice, the tricks and whether they scored; the points."""
        rows = tuple(
            ScoreRow(
                r.number,
                tuple(
                    (
                        N_("dice %(dice)s, tricks %(tricks)s: scores")
                        if seat in r.scorers
                        else N_("dice %(dice)s, tricks %(tricks)s"),
                        {"dice": f"{a}+{b}", "tricks": r.tricks[seat]},
                    )
                    for seat, (a, b) in enumerate(r.dice)
                ),
                r.scorers,
            )
            for r in state.history
        )
        standing = tuple((N_("points: %(points)s"), {"points": p}) for p in state.points)
        return ScoreSheet(tuple((s,) for s in range(state.seats)), rows, standing)

    # --- words ----------------------------------------------------------------------------

    @property
    def tellers(self) -> Mapping[str, Teller]:
        """Each event in words; deals show dice and leaders only, never a hand or set-aside card."""
        return _TELLERS


def _face_down_trick(trick: dict[str, Any]) -> dict[str, Any]:
    """A completed trick (as JSON) lying face down: its number, leader, winner and the trump of the
    round, no card and nothing the cards decided."""
    plays = [face_down_play(p) for p in trick["plays"]]
    return {**trick, "led": None, "by_trump": None, "winning_card": None, "plays": plays}


def _join(parts: Sequence[str]) -> str:
    """Items joined with commas."""
    return ", ".join(parts)


def _named_list(names: Sequence[str], seats: Sequence[int], one: str, two: str, many: str) -> Message:
    """A message naming one, two or more players (each count its own msgid for translators)."""
    who = [name_of(names, s) for s in seats]
    if len(who) == 1:
        return one, {"player": who[0]}
    if len(who) == 2:
        return two, {"first": who[0], "second": who[1]}
    return many, {"players": _join(who[:-1]), "last": who[-1]}


def _describe_started(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The game's opening line."""
    params = {"count": e["seats"], "points": POINTS_TO_WIN}
    if e["options"]["trump"]:
        return N_(
            "Double Side Play with trump for %(count)s players: first to %(points)s points wins"
        ), params
    return N_("Double Side Play for %(count)s players: first to %(points)s points wins"), params


def _describe_dealt(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The deal as everyone sees it: the dice, the first leader and any trump chooser."""
    dice = _join([f"{name_of(names, s)} {a}+{b}" for s, (a, b) in enumerate(e["dice"])])
    params = {"round": e["round"], "dice": dice, "leader": name_of(names, e["leader"])}
    if e["trump_chooser"] is None:
        return N_("Round %(round)s dealt; dice: %(dice)s; %(leader)s leads"), params
    params["chooser"] = name_of(names, e["trump_chooser"])
    return N_("Round %(round)s dealt; dice: %(dice)s; %(leader)s leads; %(chooser)s chooses trump"), params


def _describe_trump(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The trump choice."""
    return N_("%(player)s chose %(colour)s as trump"), {
        "player": name_of(names, e["seat"]),
        "colour": word(COLOUR_NAMES[e["trump"]]),
    }


def _describe_card(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A card played, named by the face in force."""
    return N_("%(player)s played %(card)s"), {
        "player": name_of(names, e["seat"]),
        "card": card_name(e["card"], e["side"]),
    }


def _describe_trick(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The trick's winner and why: highest of the led colour, or highest trump."""
    params = {
        "player": name_of(names, e["winner"]),
        "trick": e["trick"],
        "card": card_name(e["card"], e["side"]),
        "colour": word(COLOUR_NAMES[e["colour"]]),
    }
    if e["by_trump"]:
        return N_("%(player)s wins trick %(trick)s with %(card)s: highest trump (%(colour)s)"), params
    return N_("%(player)s wins trick %(trick)s with %(card)s: highest %(colour)s"), params


def _describe_turned(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The hands turned over."""
    return N_("Hands turned over: white numbers from now on"), {}


def _describe_scored(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Who scored this round, and everyone's points."""
    points = _join([f"{name_of(names, s)} {p}" for s, p in enumerate(e["points"])])
    if not e["scorers"]:
        return N_("Round %(round)s: nobody scores; points %(points)s"), {
            "round": e["round"],
            "points": points,
        }
    msgid, params = _named_list(
        names,
        e["scorers"],
        N_("Round %(round)s: %(player)s scores; points %(points)s"),
        N_("Round %(round)s: %(first)s and %(second)s score; points %(points)s"),
        N_("Round %(round)s: %(players)s and %(last)s score; points %(points)s"),
    )
    return msgid, {**params, "round": e["round"], "points": points}


def _describe_ended(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The winner(s)."""
    return _named_list(
        names,
        e["winners"],
        N_("%(player)s wins the game"),
        N_("%(first)s and %(second)s share the win"),
        N_("%(players)s and %(last)s share the win"),
    )


_TELLERS: dict[str, Teller] = {
    "GameStarted": _describe_started,
    "RoundDealt": _describe_dealt,
    "TrumpChosen": _describe_trump,
    "CardPlayed": _describe_card,
    "TrickWon": _describe_trick,
    "HandsTurnedOver": _describe_turned,
    "RoundScored": _describe_scored,
    "GameEnded": _describe_ended,
}

GAME = DoubleSide()
