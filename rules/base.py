"""The rules contract every game module implements (DESIGN.md, "Rules contract").

A game is an object with pure functions: `start` makes the opening events from a seed, `apply`
folds one event into a state, `act` turns a seat's action into events. Everything else (to_act,
legal_actions, view, result) reads a state. States are immutable; nothing here touches I/O, the
clock or global randomness.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import reduce
from typing import Any, ClassVar

Event = dict[str, Any]
Action = dict[str, Any]
Message = tuple[str, dict[str, Any]]


def N_(msgid: str) -> str:
    """Marks a message for translation without translating it (rules never import Flask-Babel)."""
    return msgid


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


class IllegalAction(ValueError):
    """An action the rules refuse. `msgid` and `params` let the service translate the message."""

    def __init__(self, msgid: str, **params: Any) -> None:
        self.msgid = msgid
        self.params = params
        super().__init__(msgid % params if params else msgid)


class Game(ABC):
    """One game's rules. Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]
    seat_counts: ClassVar[tuple[int, ...]]
    default_options: ClassVar[dict[str, Any]]
    schema_version: ClassVar[int] = 1

    # --- building state -------------------------------------------------------------------

    @abstractmethod
    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """The opening events (options and seed recorded, the first deal, dice, leader...)."""

    @abstractmethod
    def apply(self, state: Any, event: Event) -> Any:
        """The state after one event; `state` is None before the first event. Never mutates."""

    def fold(self, events: Iterable[Event]) -> Any:
        """The state a log of events describes: the only way state is built."""
        return reduce(self.apply, events, None)

    # --- reading state --------------------------------------------------------------------

    @abstractmethod
    def to_act(self, state: Any) -> frozenset[int]:
        """The seats the game is waiting on."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Every legal action of that seat, each once, in the shapes of RULINGS.md."""

    @abstractmethod
    def act(self, state: Any, seat: int, action: Action) -> list[Event]:
        """The events an action causes; raises IllegalAction with a clear message."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What that seat may see (None: a spectator), as plain JSON."""

    @abstractmethod
    def result(self, state: Any) -> dict[str, Any] | None:
        """None while the game runs, else at least {"winners": [seats]}."""

    def forfeit_result(self, state: Any, seat: int, seats: int) -> dict[str, Any]:
        """The result when `seat` forfeits a running game: every other side wins."""
        return {"winners": [other for other in range(seats) if other != seat], "forfeit": seat}

    @abstractmethod
    def describe(self, event: Event, seat: int | None, names: list[str]) -> Message | None:
        """One line in words of what `event` shows to `seat` (None: public only), as a gettext
        msgid with %(name)s parameters; None when the event shows that seat nothing."""

    # --- replay ---------------------------------------------------------------------------

    @abstractmethod
    def open_view(self, state: Any) -> dict[str, Any]:
        """Everything at this state face up (a finished game's replay): the public view plus every
        hand, every hidden choice, the set-aside cards and every trick of the round."""

    def replay_view(self, state: Any, seat: int | None, now: Any) -> dict[str, Any]:
        """What `seat` (None: a spectator) saw at `state` that it may still look at in `now`, a later
        state of the same game. The view then, unless the game hides again what it once showed
        (collected tricks lie face down): such games override this and `replay_describe`."""
        return self.view(state, seat)

    def replay_describe(self, event: Event, seat: int | None, names: list[str], now: Any) -> Message | None:
        """`describe` for a replay seen from `now`, under the same rule as `replay_view`."""
        return self.describe(event, seat, names)

    @abstractmethod
    def heading(self, state: Any, event: Event) -> Heading:
        """Where the step of `event` (which led to `state`) belongs in a replay."""

    @abstractmethod
    def score_sheet(self, state: Any) -> ScoreSheet:
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


def require(condition: object, msgid: str, **params: Any) -> None:
    """Raise IllegalAction(msgid) unless the condition holds."""
    if not condition:
        raise IllegalAction(msgid, **params)
