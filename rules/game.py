"""The rules contract every game implements (DESIGN.md, "Rules contract").

A game is an object with pure functions: `start` makes the opening events from a seed, `apply`
folds one event into a state, `act` turns a seat's action into events. Everything else (to_act,
legal_actions, view, result, describe) reads a state. States are immutable; nothing here touches
I/O, the clock or global randomness. Beside the contract, written once for every game: the table's
decisions (`game.table`, rules/table.py) and plays chosen ahead (`game.ahead`, rules/ahead.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, TypeVar, cast

from rules.ahead import Ahead
from rules.messages import N_, Message, require
from rules.rng import SeededRandom
from rules.shapes import Action, Shape, actions_schema, check_action
from rules.table import (
    CLOSING_EVENTS,
    TABLE_EVENTS,
    Table,
    closed_result,
    closing_line,
    closure,
    closure_of,
    table_line,
    with_closure,
)

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


S = TypeVar("S")  # a game's state type


@dataclass(frozen=True)
class Owed:
    """A move the game waits on, with what a move made without a person needs: the seat's legal
    actions, the situation a play chosen ahead would answer (None: none may) and, for a seat a bot
    plays, the seat's view (what the bot may see)."""

    seat: int
    legal: list[Action]
    situation: str | None
    view: dict[str, Any] | None = None


@dataclass(frozen=True)
class Parts(Generic[S]):
    """Where a game's package keeps the contract's parts beside its play: the fold of GameStarted
    and of each other event type (state.py), the views and the dealing again (view.py), the replay's
    headings and the score sheet (words.py). A game names them once (`Game.parts`); the contract
    reaches them through it."""

    started: Callable[[Event], S]
    folds: Mapping[str, Callable[[S, Event], S]]
    view: Callable[[Any, S, int | None, S], dict[str, Any]]  # (game, state, seat, as_of)
    open_view: Callable[[Any, S], dict[str, Any]]  # (game, state)
    dealt_again: Callable[[Mapping[str, Any], SeededRandom], S]
    heading: Callable[[S, Event], Heading]
    score_sheet: Callable[[S], ScoreSheet]


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]
    seat_counts: ClassVar[tuple[int, ...]]
    default_options: ClassVar[dict[str, Any]]
    schema_version: ClassVar[int] = 1
    view_shape: ClassVar[type]  # the TypedDict every view of the game has (templates and the API read it)
    action_shapes: ClassVar[tuple[Shape, ...]]  # every action of the game has one (RULINGS.md)
    ahead_type: ClassVar[type[Ahead[Any]]] = Ahead  # the game's hooks for plays chosen ahead
    tellers: ClassVar[Mapping[str, Teller]]  # how each of its event types is told to a seat
    parts: ClassVar[Parts[Any]]  # the contract's parts in the game's package

    def __init__(self) -> None:
        self.table: Table[S] = Table(self)
        self.ahead: Ahead[S] = self.ahead_type(self)

    # --- building state -------------------------------------------------------------------

    @abstractmethod
    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """The opening events (options and seed recorded, the first deal, dice, leader...)."""

    def apply(self, state: S | None, event: Event) -> S:
        """The state after one event; `state` is None before the first event. Never mutates."""
        if closure(state):
            raise ValueError(f"nothing follows the decision that ended this {self.name} game")
        kind = event.get("type")
        if kind == "GameStarted":
            return self._started(event)
        if state is None:
            raise ValueError(f"a {self.name} log must begin with GameStarted, not {kind!r}")
        if kind in CLOSING_EVENTS:
            # Every game's State is a frozen dataclass with a `closure` field (see each State).
            return cast(S, replace(cast(Any, state), closure=closure_of(event)))
        if kind in TABLE_EVENTS:
            return state  # who sits at the table and their time: nothing of the play changes
        fold = self.folds.get(kind) if isinstance(kind, str) else None
        if fold is None:
            raise ValueError(f"unknown {self.name} event type {kind!r}")
        return fold(state, event)

    def _started(self, event: Event) -> S:
        """A new game's state from its GameStarted event."""
        started: S = self.parts.started(event)
        return started

    @property
    def folds(self) -> Mapping[str, Callable[[S, Event], S]]:
        """How each of this game's event types (GameStarted aside) folds into the state."""
        folds: Mapping[str, Callable[[S, Event], S]] = self.parts.folds
        return folds

    def fold(self, events: Iterable[Event]) -> S:
        """The state a log of events describes: the only way state is built."""
        state: S | None = None
        for event in events:
            state = self.apply(state, event)
        if state is None:
            raise ValueError(f"an empty log is no {self.name} game")
        return state

    # --- acting ---------------------------------------------------------------------------

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

    @abstractmethod
    def _act(self, state: S, seat: int, action: Action) -> list[Event]:
        """The events of a well-formed action (it has one of `action_shapes`) in a game being played."""

    def waiting_on(self, state: S, views_for: Iterable[int] = ()) -> tuple[Owed, ...]:
        """Every move the game waits on at `state`, in seat order, with the seat's view for the seats
        in `views_for` (those a bot plays): all a step asks of the rules before making a move. None
        once the game has a result."""
        if self.result(state) is not None:
            return ()
        bots = set(views_for)
        return tuple(
            Owed(
                seat,
                self.legal_actions(state, seat),
                self.ahead.owed(state, seat),
                self.view(state, seat) if seat in bots else None,
            )
            for seat in sorted(self.to_act(state))
        )

    def check_action(self, action: object) -> Action:
        """The action, once it has one of the game's shapes; IllegalAction naming what is wrong."""
        return check_action(self.action_shapes, action)

    def action_schema(self) -> dict[str, Any]:
        """The JSON Schema of the game's actions."""
        return actions_schema(self.action_shapes)

    # --- reading state --------------------------------------------------------------------

    def view(self, state: S, seat: int | None, as_of: S | None = None) -> dict[str, Any]:
        """What that seat (None: a spectator) may see at `state`, as plain JSON, with how a decision
        ended the game. `as_of`, a later state of the same game, makes it a replay's step: what the
        seat saw then that it may still look at then (collected tricks lie face down again)."""
        return with_closure(self._view(state, seat, state if as_of is None else as_of), state)

    def _view(self, state: S, seat: int | None, as_of: S) -> dict[str, Any]:
        """What that seat may see of the play at `state`, looking from `as_of` (`state` itself live;
        a game that never hides again what it once showed reads `state` alone)."""
        return self.parts.view(self, state, seat, as_of)

    def open_view(self, state: S) -> dict[str, Any]:
        """Everything at this state face up (a finished game's replay): the public view plus every
        hand, every hidden choice, the set-aside cards and every trick of the round."""
        return with_closure(self._open_view(state), state)

    def _open_view(self, state: S) -> dict[str, Any]:
        """Everything of the play at this state face up."""
        return self.parts.open_view(self, state)

    def result(self, state: S) -> dict[str, Any] | None:
        """None while the game runs (or after a cancellation), else at least {"winners": [seats]}."""
        ended = closure(state)
        return self._result(state) if ended is None else closed_result(ended)

    @abstractmethod
    def _result(self, state: S) -> dict[str, Any] | None:
        """The result of the play: None while it runs."""

    def forfeit_result(self, state: S, seat: int, seats: int) -> dict[str, Any]:
        """The result when `seat` forfeits a running game: every other side wins."""
        return {"winners": [other for other in range(seats) if other != seat], "forfeit": seat}

    def determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> S:
        """A complete state that `view` (a seat's view of a running game) could have come from, its
        hidden parts (other hands, face-down cards, the cards set aside, the draw pile, the seed)
        dealt from `rng` consistently with everything the view shows or implies, so that
        `view(state, seat) == view`. Search bots play such states out instead of the real one."""
        require_running_view(view)
        return self._determinize(view, rng)

    def _determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> S:
        """The game's own dealing of the hidden parts of a running game's view."""
        dealt: S = self.parts.dealt_again(view, rng)
        return dealt

    # --- words and the replay -------------------------------------------------------------

    def describe(
        self, event: Event, seat: int | None, names: Sequence[str], as_of: S | None = None
    ) -> Message | None:
        """One line in words of what `event` shows to `seat` (None: public only), as a gettext msgid
        with %(name)s parameters; None when the event shows that seat nothing. `as_of` as in `view`:
        a line of a replay seen from that later state."""
        if event.get("type") in CLOSING_EVENTS:
            return closing_line(event, names)
        if event.get("type") in TABLE_EVENTS:
            return table_line(event, names)
        hidden = None if as_of is None else self._hidden_line(event, names, as_of)
        if hidden is not None:
            return hidden
        teller = self.tellers.get(event.get("type", ""))
        return teller(event, seat, names) if teller else None

    def _hidden_line(self, event: Event, names: Sequence[str], as_of: S) -> Message | None:
        """The line of an event whose cards lie face down again at `as_of` (games that hide again)."""
        return None

    def heading(self, state: S, event: Event) -> Heading:
        """Where the step of `event` (which led to `state`) belongs in a replay."""
        return self.parts.heading(state, event)

    def score_sheet(self, state: S) -> ScoreSheet:
        """The score sheet so far: a row per finished round or war (chapters as in `heading`)."""
        return self.parts.score_sheet(state)

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


def require_running_view(view: Mapping[str, Any]) -> None:
    """ValueError unless `view` is a seat's view of a game being played (nothing to deal otherwise)."""
    over = view.get("result") is not None or view.get("winners") is not None
    if not isinstance(view.get("seat"), int) or view.get("closure") or over:
        raise ValueError("only a seat's view of a running game can be dealt again")
    if not view.get("to_act"):
        raise ValueError("only a seat's view of a game waiting on a move can be dealt again")
