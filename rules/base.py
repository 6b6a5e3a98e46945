"""The rules contract every game module implements (DESIGN.md, "Rules contract").

A game is an object with pure functions: `start` makes the opening events from a seed, `apply`
folds one event into a state, `act` turns a seat's action into events. Everything else (to_act,
legal_actions, view, result) reads a state. States are immutable; nothing here touches I/O, the
clock or global randomness.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, TypeVar, cast

from rules.messages import N_ as N_
from rules.messages import IllegalAction as IllegalAction
from rules.messages import Message as Message
from rules.messages import is_message as is_message
from rules.messages import listing as listing
from rules.messages import plain as plain
from rules.messages import require as require
from rules.messages import together as together
from rules.messages import word as word
from rules.rng import SeededRandom
from rules.shapes import Action as Action
from rules.shapes import Shape, actions_schema, check_action

Event = dict[str, Any]
# Tells an event in words to a seat (None: a spectator) given the players' names; None: nothing shown.
Teller = Callable[[Event, "int | None", Sequence[str]], "Message | None"]


@dataclass(frozen=True)
class Heading:
    """Where a replay step belongs: its chapter (a round or war, numbered from 1; 0 before the first)
    and, inside it, its part (a trick or comparison; None outside one), each with its title."""

    chapter: int
    title: Message
    part: int | None = None
    part_title: Message | None = None


START = Heading(0, (N_("Start"), {}))


@dataclass(frozen=True)
class ScoreRow:
    """One finished chapter on the score sheet: a cell per column, and the columns that won it."""

    chapter: int
    cells: tuple[Message, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class ScoreSheet:
    """A game's score sheet so far: its columns (the seats of each side, or one player each), a row
    per finished chapter and each column's standing. Public information only."""

    columns: tuple[tuple[int, ...], ...]
    rows: tuple[ScoreRow, ...]
    standing: tuple[Message, ...]


# Decisions that end a game outside its play, made by the game (a timeout) or its host, and folded by
# every game alike: a seat's forfeit, a draw the host declares and a cancellation. Each game's State
# carries `closure`.
FORFEITED = "GameForfeited"
DRAWN = "GameDrawn"
CANCELLED = "GameCancelled"
CLOSING_EVENTS = frozenset({FORFEITED, DRAWN, CANCELLED})
# Decisions of the host about who sits at the table and their time, logged like moves but changing
# nothing of the play (every game folds them as they are): a seat given to a new player, a seat the
# seat-keeper takes over or gives back, a fresh clock for a seat's owed move.
SEAT_REPLACED = "SeatReplaced"
SEAT_KEPT = "SeatKept"
DEADLINE_EXTENDED = "DeadlineExtended"
TABLE_EVENTS = frozenset({SEAT_REPLACED, SEAT_KEPT, DEADLINE_EXTENDED})
# The bots a seat may be given, weakest first, in words (bots.LEVELS plays them): the seat-keeper,
# and search bots of two strengths. A SeatKept event without a level is the seat-keeper's.
KEEPER = "keeper"
BOT_LEVELS: dict[str, str] = {
    KEEPER: N_("seat-keeper"),
    "steady": N_("steady"),
    "strong": N_("strong"),
}


@dataclass(frozen=True)
class Closure:
    """How a game was ended by a decision: a seat's forfeit (with the winners it gives), a draw
    (every seat among the winners, by whom) or a cancellation (by whom, no winner)."""

    kind: str  # FORFEITED, DRAWN or CANCELLED
    seat: int | None = None
    winners: tuple[int, ...] = ()
    by: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The closure as the views show it (public)."""
        if self.kind == FORFEITED:
            return {"forfeited": self.seat, "winners": list(self.winners)}
        if self.kind == DRAWN:
            return {"drawn": True, "by": self.by, "winners": list(self.winners)}
        return {"cancelled": True, "by": self.by}


S = TypeVar("S")  # a game's state type

# A situation of the play after the seat's coming one ("then:lead"), in the games that number plays.
THEN = "then:"


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]
    seat_counts: ClassVar[tuple[int, ...]]
    default_options: ClassVar[dict[str, Any]]
    schema_version: ClassVar[int] = 1
    view_shape: ClassVar[type]  # the TypedDict every view of the game has (templates and the API read it)
    action_shapes: ClassVar[tuple[Shape, ...]]  # every action of the game has one (RULINGS.md)

    # --- building state -------------------------------------------------------------------

    @abstractmethod
    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """The opening events (options and seed recorded, the first deal, dice, leader...)."""

    def apply(self, state: S | None, event: Event) -> S:
        """The state after one event; `state` is None before the first event. Never mutates."""
        if closure(state):
            raise ValueError(f"nothing follows the decision that ended this {self.name} game")
        if event.get("type") in CLOSING_EVENTS:
            if state is None:
                raise ValueError(f"a {self.name} log must begin with GameStarted, not {event.get('type')!r}")
            # Every game's State is a frozen dataclass with a `closure` field (see each State).
            return cast(S, replace(cast(Any, state), closure=closure_of(event)))
        if event.get("type") in TABLE_EVENTS:
            if state is None:
                raise ValueError(f"a {self.name} log must begin with GameStarted, not {event.get('type')!r}")
            return state  # who sits at the table and their time: nothing of the play changes
        return self._apply(state, event)

    def _apply(self, state: S | None, event: Event) -> S:
        """The state after one of this game's own events, by the game's fold for its type."""
        kind = event.get("type")
        if kind == "GameStarted":
            return self._started(event)
        if state is None:
            raise ValueError(f"a {self.name} log must begin with GameStarted, not {kind!r}")
        fold = self.folds.get(kind) if isinstance(kind, str) else None
        if fold is None:
            raise ValueError(f"unknown {self.name} event type {kind!r}")
        return fold(state, event)

    @abstractmethod
    def _started(self, event: Event) -> S:
        """A new game's state from its GameStarted event."""

    @property
    @abstractmethod
    def folds(self) -> Mapping[str, Callable[[S, Event], S]]:
        """How each of this game's event types (GameStarted aside) folds into the state."""

    def fold(self, events: Iterable[Event]) -> S:
        """The state a log of events describes: the only way state is built."""
        state: S | None = None
        for event in events:
            state = self.apply(state, event)
        if state is None:
            raise ValueError(f"an empty log is no {self.name} game")
        return state

    # --- reading state --------------------------------------------------------------------

    def to_act(self, state: S) -> frozenset[int]:
        """The seats the game is waiting on (none once a decision ended it)."""
        return frozenset() if closure(state) else self._to_act(state)

    @abstractmethod
    def _to_act(self, state: S) -> frozenset[int]:
        """The seats the game's play waits on."""

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal action of that seat, each once, in the shapes of RULINGS.md."""
        return [] if closure(state) else self._legal_actions(state, seat)

    @abstractmethod
    def _legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal action of that seat while the game is played."""

    def act(self, state: S, seat: int, action: object) -> list[Event]:
        """The events an action causes; raises IllegalAction with a clear message, and nothing else,
        whatever JSON value `action` is."""
        require(not closure(state), N_("This game is over."))
        return self._act(state, seat, self.check_action(action))

    def check_action(self, action: object) -> Action:
        """The action, once it has one of the game's shapes; IllegalAction naming what is wrong."""
        return check_action(self.action_shapes, action)

    def action_schema(self) -> dict[str, Any]:
        """The JSON Schema of the game's actions."""
        return actions_schema(self.action_shapes)

    @abstractmethod
    def _act(self, state: S, seat: int, action: Action) -> list[Event]:
        """The events of a well-formed action (it has one of `action_shapes`) in a game being played."""

    # --- plays chosen ahead of the turn ---------------------------------------------------------

    def ahead_situations(self, state: S, seat: int) -> tuple[str, ...]:
        """The situations of the seat's coming play it may choose a play for now, ahead of its turn
        (none while it owes a move, once the game is over, or where its game queues nothing)."""
        if closure(state) or self.result(state) is not None or seat in self.to_act(state):
            return ()
        return self._ahead(state, seat)

    def _ahead(self, state: S, seat: int) -> tuple[str, ...]:
        """The situations a seat not owing a move may choose its coming play for (games override)."""
        return ()

    def situation(self, state: S, seat: int) -> str | None:
        """The situation of the play the seat owes now, if a play chosen ahead may answer it."""
        if closure(state) or seat not in self.to_act(state):
            return None
        return self._situation(state, seat)

    def _situation(self, state: S, seat: int) -> str | None:
        """The situation of an owed play, for the games that queue plays (games override)."""
        return None

    def situation_name(self, situation: str) -> Message:
        """A situation in the game's words ("if Stars are led")."""
        raise ValueError(f"{self.name} has no situation {situation!r}")

    def check_ahead(self, state: S, seat: int, situation: str, action: object) -> Action:
        """A play chosen ahead for one situation of the seat's coming play, checked as far as it can
        be now (its shape, a card the seat holds, following); IllegalAction naming what is wrong."""
        require(
            situation in self.ahead_situations(state, seat),
            N_("That situation cannot arise for your coming play."),
        )
        checked = self.check_action(action)
        self._check_ahead(state, seat, situation, checked)
        return checked

    def check_ahead_queue(self, state: S, seat: int, chosen: Mapping[str, Action]) -> None:
        """Plays chosen ahead (by situation) that cannot all be made: a card chosen for the trick after
        that the coming card certainly uses up, being chosen for every situation the coming trick may
        bring. IllegalAction naming the card (the play would always be dropped as no longer held)."""
        coming = [s for s in self.ahead_situations(state, seat) if not s.startswith(THEN)]
        for situation, action in chosen.items():
            card = action.get("card")
            if not situation.startswith(THEN) or card is None or not coming:
                continue
            if all(chosen.get(now, {}).get("card") == card for now in coming):
                raise IllegalAction(
                    N_("%(card)s is your coming card: choose another card for the trick after."),
                    card=self.card_words(state, card),
                )

    def card_words(self, state: S, card: str) -> Message:
        """A card of this game in words as it stands in `state`, by its module's `card_name` (the
        package's index of games imports this module, hence the import here)."""
        from rules import card_name

        return card_name(self.name, card)

    def ahead_choices(self, state: S, seat: int, situation: str) -> list[tuple[Action, Message]]:
        """Every play the seat may choose ahead for a situation it is offered, each with its words."""
        choices = []
        for action, label in self._ahead_candidates(state, seat, situation):
            try:
                choices.append((self.check_ahead(state, seat, situation, action), label))
            except IllegalAction:
                continue
        return choices

    def _ahead_candidates(self, state: S, seat: int, situation: str) -> list[tuple[Action, Message]]:
        """Plays a seat might choose ahead for a situation, with their words (games override)."""
        return []

    def _check_ahead(self, state: S, seat: int, situation: str, action: Action) -> None:
        """The game's own checks of a play chosen ahead (games that queue plays override)."""
        raise IllegalAction(N_("That situation cannot arise for your coming play."))

    def play_ahead(self, state: S, seat: int, chosen: Mapping[str, Action]) -> Action | Message:
        """The play to make now among those the seat chose ahead (by situation) for the play it owes,
        or why none fits: none chosen for this situation, or the rules refuse it now."""
        situation = self.situation(state, seat)
        if situation is None:
            raise ValueError("the seat owes no play a play chosen ahead answers")
        if situation not in chosen:
            return N_("you chose no play for this case: %(situation)s"), {
                "situation": self.situation_name(situation)
            }
        action = self._ready(state, seat, chosen[situation])
        if is_message(action):
            return cast(Message, action)
        try:
            self.act(state, seat, action)
        except IllegalAction as refusal:
            return refusal.msgid, refusal.params
        return action

    def _ready(self, state: S, seat: int, action: Action) -> Action | Message:
        """A play chosen ahead as it is made now (Duālis drops a coin none is left of), or why it
        no longer fits."""
        return action

    def coming_play(self, state: S, seat: int) -> int | None:
        """The number of the seat's coming play, counted through the game, in the games that let a
        seat choose past its coming play (`THEN` situations); None in the others."""
        return None

    def ahead_target(self, state: S, seat: int, situation: str) -> tuple[str, int | None]:
        """A situation offered now as the play it answers will be owed: the owed situation and the
        number of that play (None where plays are not numbered)."""
        number = self.coming_play(state, seat)
        if number is None:
            return situation, None
        if situation.startswith(THEN):
            return situation.removeprefix(THEN), number + 1
        return situation, number

    def ahead_now(self, state: S, seat: int, situation: str, number: int | None) -> str | None:
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
        owed = self.situation(state, seat)
        if owed is None or not self.answered_together(owed, situation):
            return False
        return number is None or number == self.coming_play(state, seat)

    def answered_together(self, owed: str, chosen: str) -> bool:
        """Whether a play chosen ahead for `chosen` is used up when the seat owes a play in situation
        `owed`: by default every situation is an alternative of the one coming play."""
        return True

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What that seat may see (None: a spectator), as plain JSON, with how a decision ended it."""
        return with_closure(self._view(state, seat), state)

    @abstractmethod
    def _view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What that seat may see of the play."""

    def result(self, state: S) -> dict[str, Any] | None:
        """None while the game runs (or after a cancellation), else at least {"winners": [seats]}."""
        ended = closure(state)
        if ended is None:
            return self._result(state)
        if ended.kind == FORFEITED:
            return {"winners": list(ended.winners), "forfeit": ended.seat}
        if ended.kind == DRAWN:
            return {"winners": list(ended.winners), "draw": True}
        return None

    def determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> S:
        """A complete state that `view` (a seat's view of a running game) could have come from, its
        hidden parts (other hands, face-down cards, the cards set aside, the draw pile, the seed)
        dealt from `rng` consistently with everything the view shows or implies, so that
        `view(state, seat) == view`. Search bots play such states out instead of the real one."""
        require_running_view(view)
        return self._determinize(view, rng)

    @abstractmethod
    def _determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> S:
        """The game's own dealing of the hidden parts of a running game's view."""

    @abstractmethod
    def _result(self, state: S) -> dict[str, Any] | None:
        """The result of the play: None while it runs."""

    def forfeit_result(self, state: S, seat: int, seats: int) -> dict[str, Any]:
        """The result when `seat` forfeits a running game: every other side wins."""
        return {"winners": [other for other in range(seats) if other != seat], "forfeit": seat}

    def cancelled(self, state: S) -> bool:
        """Whether a decision cancelled the game (it ended without a result)."""
        ended = closure(state)
        return ended is not None and ended.kind == CANCELLED

    # --- decisions that end a game --------------------------------------------------------

    def forfeit(self, state: S, seat: int, seats: int) -> list[Event]:
        """The event of `seat` forfeiting the running game (the winners as `forfeit_result` says)."""
        self._require_running(state)
        require(0 <= seat < seats, N_("This game has no such seat."))
        winners = self.forfeit_result(state, seat, seats)["winners"]
        return [self.event(FORFEITED, seat=seat, winners=list(winners))]

    def cancel(self, state: S, by: str) -> list[Event]:
        """The event of the running game being cancelled (`by`: who decided, e.g. "host")."""
        self._require_running(state)
        return [self.event(CANCELLED, by=by)]

    def draw(self, state: S, by: str, seats: int) -> list[Event]:
        """The event of the running game ended as a draw (`by`: who decided): every seat wins."""
        self._require_running(state)
        return [self.event(DRAWN, by=by, winners=list(range(seats)))]

    def replace_seat(self, state: S, seat: int, name: str, replaced: str, seats: int) -> list[Event]:
        """The event of a seat of the running game given to a new player `name` (was `replaced`)."""
        self._require_seat(state, seat, seats)
        require(name.strip(), N_("Give the new player's name."))
        return [self.event(SEAT_REPLACED, seat=seat, name=name, replaced=replaced)]

    def keep_seat(self, state: S, seat: int, by_keeper: bool, seats: int, level: str = KEEPER) -> list[Event]:
        """The event of a bot of `level` taking over a seat of the running game (or giving it back).
        The seat-keeper's event has no level, as every such event had before levels."""
        self._require_seat(state, seat, seats)
        require(level in BOT_LEVELS, N_("There is no such bot level."))
        if by_keeper and level != KEEPER:
            return [self.event(SEAT_KEPT, seat=seat, by_keeper=True, level=level)]
        return [self.event(SEAT_KEPT, seat=seat, by_keeper=by_keeper)]

    def extend_deadline(self, state: S, seat: int, days: int, seats: int) -> list[Event]:
        """The event of a fresh clock of `days` days for the move `seat` owes in the running game."""
        self._require_seat(state, seat, seats)
        require(seat in self._to_act(state), N_("The game is not waiting on this seat."))
        require(0 < days <= 365, N_("Give between 1 and 365 days."))
        return [self.event(DEADLINE_EXTENDED, seat=seat, days=days)]

    def decide(self, state: S, decision: Action, seats: int) -> list[Event]:
        """The events of a decision (one of the `..._decision` actions below) on the running game."""
        kind, seat = decision.get("decision"), decision.get("seat")
        has_seat = isinstance(seat, int) and not isinstance(seat, bool)
        if kind == "forfeit" and has_seat:
            return self.forfeit(state, decision["seat"], seats)
        if kind == "cancel" and isinstance(decision.get("by"), str):
            return self.cancel(state, decision["by"])
        if kind == "draw" and isinstance(decision.get("by"), str):
            return self.draw(state, decision["by"], seats)
        if kind == "replace" and has_seat and _strings(decision, "name", "replaced"):
            return self.replace_seat(state, decision["seat"], decision["name"], decision["replaced"], seats)
        if kind == "keep" and has_seat and isinstance(decision.get("by_keeper"), bool):
            level = decision.get("level", KEEPER)
            require(isinstance(level, str), N_("There is no such bot level."))
            return self.keep_seat(state, decision["seat"], decision["by_keeper"], seats, level)
        days = decision.get("days")
        if kind == "extend" and has_seat and isinstance(days, int) and not isinstance(days, bool):
            return self.extend_deadline(state, decision["seat"], days, seats)
        raise IllegalAction(N_("That is not a decision this game knows."))

    def _require_seat(self, state: S, seat: int, seats: int) -> None:
        self._require_running(state)
        require(0 <= seat < seats, N_("This game has no such seat."))

    def _require_running(self, state: S) -> None:
        require(state is not None and not closure(state), N_("This game is over."))
        require(self._result(state) is None, N_("This game is over."))

    # --- words ----------------------------------------------------------------------------

    def describe(self, event: Event, seat: int | None, names: list[str]) -> Message | None:
        """One line in words of what `event` shows to `seat` (None: public only), as a gettext
        msgid with %(name)s parameters; None when the event shows that seat nothing."""
        if event.get("type") in CLOSING_EVENTS:
            return closing_line(event, names)
        if event.get("type") in TABLE_EVENTS:
            return table_line(event, names)
        return self._describe(event, seat, names)

    def _describe(self, event: Event, seat: int | None, names: list[str]) -> Message | None:
        """One line in words of one of this game's own events, by the game's teller for its type."""
        teller = self.tellers.get(event.get("type", ""))
        return teller(event, seat, names) if teller else None

    @property
    @abstractmethod
    def tellers(self) -> Mapping[str, Teller]:
        """How each of this game's event types is told in words to a seat (None: public only)."""

    # --- replay ---------------------------------------------------------------------------

    def open_view(self, state: S) -> dict[str, Any]:
        """Everything at this state face up (a finished game's replay): the public view plus every
        hand, every hidden choice, the set-aside cards and every trick of the round."""
        return with_closure(self._open_view(state), state)

    @abstractmethod
    def _open_view(self, state: S) -> dict[str, Any]:
        """Everything of the play at this state face up."""

    def replay_view(self, state: S, seat: int | None, now: S) -> dict[str, Any]:
        """What `seat` (None: a spectator) saw at `state` that it may still look at in `now`, a later
        state of the same game. The view then, unless the game hides again what it once showed
        (collected tricks lie face down): such games override this and `replay_describe`."""
        return self.view(state, seat)

    def replay_describe(self, event: Event, seat: int | None, names: list[str], now: S) -> Message | None:
        """`describe` for a replay seen from `now`, under the same rule as `replay_view`."""
        return self.describe(event, seat, names)

    @abstractmethod
    def heading(self, state: S, event: Event) -> Heading:
        """Where the step of `event` (which led to `state`) belongs in a replay."""

    @abstractmethod
    def score_sheet(self, state: S) -> ScoreSheet:
        """The score sheet so far: a row per finished round or war (chapters as in `heading`)."""

    # --- shared helpers -------------------------------------------------------------------

    def check_options(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options merged over the defaults; ValueError for unknown ones or a bad seat count."""
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.default_options))
        if unknown:
            raise ValueError(f"unknown option(s) for {self.name}: {', '.join(unknown)}")
        if seats not in self.seat_counts:
            counts = " or ".join(map(str, self.seat_counts))
            raise ValueError(f"{self.name} is played by {counts} players, not {seats}")
        return {**self.default_options, **given}

    def event(self, type_: str, **data: Any) -> Event:
        """An event dict with its type and schema version."""
        return {"type": type_, "v": self.schema_version, **data}


def fixed_decks(value: object, cards: Sequence[str], game: str) -> tuple[tuple[str, ...], ...]:
    """The `deck` option as fixed decks, first shuffle first: one deck (a list of card codes, top
    first) or a list of such decks, each holding exactly the game's `cards`. ValueError otherwise."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(
            f"the {game} option deck must be a list of card codes (top first) or a list of such lists"
        )
    decks = [value] if all(isinstance(card, str) for card in value) else list(value)
    wanted = Counter(cards)
    for number, deck in enumerate(decks, start=1):
        if not isinstance(deck, list | tuple) or not all(isinstance(card, str) for card in deck):
            raise ValueError(f"the {game} option deck: deck {number} is not a list of card codes")
        if Counter(deck) != wanted:
            unknown = sorted(set(deck) - set(wanted))
            detail = f" (unknown: {', '.join(unknown)})" if unknown else ""
            raise ValueError(
                f"the {game} option deck: deck {number} must hold the game's {len(cards)} cards{detail}"
            )
    return tuple(tuple(deck) for deck in decks)


def decks_as_json(value: object) -> object:
    """The `deck` option as plain JSON (tuples become lists), its shape kept, for GameStarted."""
    if not isinstance(value, list | tuple):
        return value
    return [card if isinstance(card, str) else list(card) for card in value]


def forfeit_decision(seat: int) -> Action:
    """The decision that `seat` forfeits (logged as the action of its events)."""
    return {"decision": "forfeit", "seat": seat}


def cancel_decision(by: str) -> Action:
    """The decision to cancel the game, taken by `by` (e.g. "host")."""
    return {"decision": "cancel", "by": by}


def draw_decision(by: str) -> Action:
    """The decision to end the game as a draw, taken by `by` (e.g. "host")."""
    return {"decision": "draw", "by": by}


def replace_decision(seat: int, name: str, replaced: str) -> Action:
    """The decision to give `seat` (played by `replaced`) to a new player `name` (no address: the
    log is shown to every player)."""
    return {"decision": "replace", "seat": seat, "name": name, "replaced": replaced}


def keep_decision(seat: int, by_keeper: bool, level: str = KEEPER) -> Action:
    """The decision that a bot of `level` plays `seat` (or, `by_keeper` false, that its player does);
    the seat-keeper's decision has no level, as before levels."""
    if by_keeper and level != KEEPER:
        return {"decision": "keep", "seat": seat, "by_keeper": True, "level": level}
    return {"decision": "keep", "seat": seat, "by_keeper": by_keeper}


def extend_decision(seat: int, days: int) -> Action:
    """The decision to give `seat` a fresh clock of `days` days for the move it owes."""
    return {"decision": "extend", "seat": seat, "days": days}


def require_running_view(view: Mapping[str, Any]) -> None:
    """ValueError unless `view` is a seat's view of a game being played (nothing to deal otherwise)."""
    over = view.get("result") is not None or view.get("winners") is not None
    if not isinstance(view.get("seat"), int) or view.get("closure") or over:
        raise ValueError("only a seat's view of a running game can be dealt again")
    if not view.get("to_act"):
        raise ValueError("only a seat's view of a game waiting on a move can be dealt again")


def _strings(decision: Action, *keys: str) -> bool:
    """Whether the decision has a string under each key."""
    return all(isinstance(decision.get(key), str) for key in keys)


def closure(state: Any) -> Closure | None:
    """How a decision ended the game at `state`, if one did."""
    return getattr(state, "closure", None)


def closure_of(event: Event) -> Closure:
    """The closure a GameForfeited or GameCancelled event records."""
    if event["type"] == FORFEITED:
        return Closure(FORFEITED, seat=event["seat"], winners=tuple(event["winners"]))
    if event["type"] == DRAWN:
        return Closure(DRAWN, winners=tuple(event["winners"]), by=event["by"])
    return Closure(CANCELLED, by=event["by"])


def with_closure(view: dict[str, Any], state: Any) -> dict[str, Any]:
    """A view with how a decision ended the game, if one did (public information)."""
    ended = closure(state)
    return {**view, "closure": ended.as_json()} if ended else view


def name_of(names: Sequence[str], seat: int) -> str:
    """A seat's player name (or "Seat n" if the list is short)."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def closing_line(event: Event, names: list[str]) -> Message:
    """The words for a forfeit, a draw or a cancellation."""
    if event["type"] == DRAWN:
        if event["by"] == "host":
            return N_("The host ended the game as a draw."), {}
        return N_("The game ended as a draw."), {}
    if event["type"] == CANCELLED:
        if event["by"] == "host":
            return N_("The host cancelled the game."), {}
        return N_("The game was cancelled."), {}
    winners = [name_of(names, seat) for seat in event["winners"]]
    params = {"player": name_of(names, event["seat"]), "winners": together(winners)}
    if len(winners) == 1:
        return N_("%(player)s forfeited: %(winners)s wins."), params
    return N_("%(player)s forfeited: %(winners)s win."), params


def table_line(event: Event, names: list[str]) -> Message:
    """The words for a host's decision about a seat: a new player, the seat-keeper, more time."""
    player = name_of(names, event["seat"])
    if event["type"] == SEAT_REPLACED:
        return N_("The host gave the seat of %(replaced)s to %(player)s."), {
            "replaced": event["replaced"],
            "player": event["name"],
        }
    if event["type"] == SEAT_KEPT:
        level = event.get("level", KEEPER)  # absent in the seat-keeper's events, old and new
        if event["by_keeper"] and level != KEEPER:
            return N_("The host gave the seat of %(player)s to a bot (%(level)s)."), {
                "player": player,
                "level": word(BOT_LEVELS[level]),
            }
        if event["by_keeper"]:
            return N_("The host gave the seat of %(player)s to the seat-keeper."), {"player": player}
        return N_("The host gave the seat back to %(player)s: the seat-keeper no longer plays it."), {
            "player": player
        }
    if event["days"] == 1:
        return N_("The host gave %(player)s a fresh clock of one day for this move."), {"player": player}
    return N_("The host gave %(player)s a fresh clock of %(days)s days for this move."), {
        "player": player,
        "days": event["days"],
    }
