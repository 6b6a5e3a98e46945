"""The table's decisions, beside every game's play and written once for all of them: how a game is
ended outside its play (a seat's forfeit, a draw, a cancellation) and who sits at the table and their
time (a seat given to a new player, to a bot or back, a fresh clock). A game reaches them as
`game.table`; every game folds and tells their events alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rules.messages import N_, IllegalAction, Message, require, together, word
from rules.shapes import Action

if TYPE_CHECKING:
    from rules.game import Event, Game

# Decisions that end a game outside its play, made by the game (a timeout) or its host. Each game's
# State carries `closure`.
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

S = TypeVar("S")  # a game's state type


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


class Table(Generic[S]):
    """The decisions of one game's table: each checks the game is running and returns its events."""

    def __init__(self, game: Game[S]) -> None:
        self.game = game

    def forfeit(self, state: S, seat: int, seats: int) -> list[Event]:
        """The event of `seat` forfeiting the running game (the winners as `forfeit_result` says)."""
        self._require_running(state)
        require(0 <= seat < seats, N_("This game has no such seat."))
        winners = self.game.forfeit_result(state, seat, seats)["winners"]
        return [self.game.event(FORFEITED, seat=seat, winners=list(winners))]

    def cancel(self, state: S, by: str) -> list[Event]:
        """The event of the running game being cancelled (`by`: who decided, e.g. "host")."""
        self._require_running(state)
        return [self.game.event(CANCELLED, by=by)]

    def draw(self, state: S, by: str, seats: int) -> list[Event]:
        """The event of the running game ended as a draw (`by`: who decided): every seat wins."""
        self._require_running(state)
        return [self.game.event(DRAWN, by=by, winners=list(range(seats)))]

    def replace_seat(self, state: S, seat: int, name: str, replaced: str, seats: int) -> list[Event]:
        """The event of a seat of the running game given to a new player `name` (was `replaced`)."""
        self._require_seat(state, seat, seats)
        require(name.strip(), N_("Give the new player's name."))
        return [self.game.event(SEAT_REPLACED, seat=seat, name=name, replaced=replaced)]

    def keep_seat(self, state: S, seat: int, by_keeper: bool, seats: int, level: str = KEEPER) -> list[Event]:
        """The event of a bot of `level` taking over a seat of the running game (or giving it back).
        The seat-keeper's event has no level, as every such event had before levels."""
        self._require_seat(state, seat, seats)
        require(level in BOT_LEVELS, N_("There is no such bot level."))
        if by_keeper and level != KEEPER:
            return [self.game.event(SEAT_KEPT, seat=seat, by_keeper=True, level=level)]
        return [self.game.event(SEAT_KEPT, seat=seat, by_keeper=by_keeper)]

    def extend_deadline(self, state: S, seat: int, days: int, seats: int) -> list[Event]:
        """The event of a fresh clock of `days` days for the move `seat` owes in the running game."""
        self._require_seat(state, seat, seats)
        require(seat in self.game.to_act(state), N_("The game is not waiting on this seat."))
        require(0 < days <= 365, N_("Give between 1 and 365 days."))
        return [self.game.event(DEADLINE_EXTENDED, seat=seat, days=days)]

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

    def cancelled(self, state: S) -> bool:
        """Whether a decision cancelled the game (it ended without a result)."""
        ended = closure(state)
        return ended is not None and ended.kind == CANCELLED

    def _require_seat(self, state: S, seat: int, seats: int) -> None:
        self._require_running(state)
        require(0 <= seat < seats, N_("This game has no such seat."))

    def _require_running(self, state: S) -> None:
        require(state is not None and self.game.result(state) is None, N_("This game is over."))
        require(not self.cancelled(state), N_("This game is over."))


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


def _strings(decision: Action, *keys: str) -> bool:
    """Whether the decision has a string under each key."""
    return all(isinstance(decision.get(key), str) for key in keys)


def closure(state: object) -> Closure | None:
    """How a decision ended the game at `state`, if one did."""
    ended = getattr(state, "closure", None)
    return ended if isinstance(ended, Closure) else None


def closure_of(event: Event) -> Closure:
    """The closure a GameForfeited, GameDrawn or GameCancelled event records."""
    if event["type"] == FORFEITED:
        return Closure(FORFEITED, seat=event["seat"], winners=tuple(event["winners"]))
    if event["type"] == DRAWN:
        return Closure(DRAWN, winners=tuple(event["winners"]), by=event["by"])
    return Closure(CANCELLED, by=event["by"])


def closed_result(ended: Closure) -> dict[str, Any] | None:
    """The result a decision gives: the winners of a forfeit or a draw; None for a cancellation."""
    if ended.kind == FORFEITED:
        return {"winners": list(ended.winners), "forfeit": ended.seat}
    if ended.kind == DRAWN:
        return {"winners": list(ended.winners), "draw": True}
    return None


def with_closure(view: dict[str, Any], state: object) -> dict[str, Any]:
    """A view with how a decision ended the game, if one did (public information)."""
    ended = closure(state)
    return {**view, "closure": ended.as_json()} if ended else view


def name_of(names: Sequence[str], seat: int) -> str:
    """A seat's player name (or "Seat n" if the list is short)."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def closing_line(event: Event, names: Sequence[str]) -> Message:
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


def table_line(event: Event, names: Sequence[str]) -> Message:
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
