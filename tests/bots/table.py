"""Games for the seat-keeper's tests: every game and option combination, a table that folds moves as
they are made, random walks to a position, and the keeper asked through the contract only."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bots import choose_action
from rules import get_game
from rules.game import Event, Game
from rules.shapes import Action


@dataclass(frozen=True)
class Config:
    """A game with a seat count and options."""

    name: str
    seats: int
    options: dict[str, Any]

    @property
    def label(self) -> str:
        """A short test id: the game, seats and the options set to true."""
        flags = "+".join(k for k, v in sorted(self.options.items()) if v is True)
        return f"{self.name}-{self.seats}" + (f"-{flags}" if flags else "")


def dualis_configs() -> list[Config]:
    """Every Duālis variant: partnership or iso (3 and 4 seats), with and without High-Low and the
    short game (open_history only changes what a page shows)."""
    out = []
    for short, high_low, iso in itertools.product((False, True), repeat=3):
        options = {"short": short, "high_low": high_low, "iso": iso}
        for seats in (3, 4) if iso else (4,):
            out.append(Config("dualis", seats, options))
    out.append(Config("dualis", 4, {"open_history": True}))
    return out


CONFIGS: list[Config] = [
    *dualis_configs(),
    *(Config("double_side", seats, {"trump": trump}) for seats in (3, 4) for trump in (False, True)),
    Config("double_side", 4, {"open_history": True}),
    *(Config("dupli", seats, {}) for seats in (3, 4)),
    Config("red_black", 2, {}),
]


@dataclass
class Table:
    """A game being played: its events and the state they fold to, moved on one action at a time."""

    game: Game
    state: Any
    events: list[Event] = field(default_factory=list)

    @classmethod
    def start(cls, name: str, seed: int, seats: int, options: dict[str, Any] | None = None) -> Table:
        """A new game of `name`."""
        game = get_game(name)
        events = game.start(seed, seats, options or {})
        return cls(game, game.fold(events), events)

    def do(self, seat: int, action: Action) -> list[Event]:
        """Act for a seat (the rules check it); the state moves on."""
        new = self.game.act(self.state, seat, action)
        for event in new:
            self.state = self.game.apply(self.state, event)
        self.events += new
        return new

    def keeper(self, seat: int) -> Action:
        """The seat-keeper's move for a seat, from that seat's view and legal actions only."""
        return choose_action(
            self.game, self.game.view(self.state, seat), self.game.legal_actions(self.state, seat), seat
        )

    def view(self, seat: int) -> dict[str, Any]:
        """The seat's view."""
        return self.game.view(self.state, seat)

    def legal(self, seat: int) -> list[Action]:
        """The seat's legal actions."""
        return self.game.legal_actions(self.state, seat)

    @property
    def waiting(self) -> list[int]:
        """The seats the game waits on, in order."""
        return sorted(self.game.to_act(self.state))

    @property
    def over(self) -> bool:
        """Whether the game has a result."""
        return self.game.result(self.state) is not None


def play(table: Table, pick: Callable[[Table, int], Action], max_moves: int = 100_000) -> int:
    """Play to the end, `pick` choosing for the first waiting seat each time; the moves made."""
    moves = 0
    while not table.over:
        assert moves < max_moves, "the game did not end"
        seat = table.waiting[0]
        table.do(seat, pick(table, seat))
        moves += 1
    return moves


def random_pick(rng: random.Random) -> Callable[[Table, int], Action]:
    """A player choosing uniformly among the legal actions."""
    return lambda table, seat: rng.choice(table.legal(seat))


def keeper_pick(table: Table, seat: int) -> Action:
    """The seat-keeper choosing."""
    return table.keeper(seat)
