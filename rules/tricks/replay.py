"""The replay of the trick games, written once for Duālis and Double Side Play: which tricks a page
may show at a moment (RULINGS.md §1), the lines of plays whose trick lies face down again, the
replay's headings, and `TrickGame`, the part of the contract both games share."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rules.game import START, Event, Game, Heading
from rules.messages import N_, Message
from rules.table import name_of
from rules.tricks.play import CompletedTrick, shown_tricks


@dataclass(frozen=True)
class TrickWindow:
    """The tricks a page may show at one moment: every trick (open history, or the game is over), or
    only the listed trick numbers of one round (the trick on the table and the last one completed)."""

    everything: bool
    round: int = 0
    numbers: frozenset[int] = frozenset()
    before: tuple[int, int] | None = None  # (round, trick): the last trick of the round before

    def shows(self, round_: int, number: int) -> bool:
        """Whether the cards of trick `number` of round `round_` may be shown."""
        return (
            self.everything
            or (round_ == self.round and number in self.numbers)
            or self.before == (round_, number)
        )


def trick_window(
    round_: int,
    completed: Sequence[CompletedTrick[Any]],
    on_table: int | None,
    open_history: bool,
    game_over: bool,
    before: tuple[int, int] | None = None,
) -> TrickWindow:
    """What a page may show now (RULINGS.md §1): the trick on the table (number `on_table`, None if
    no card of it is down), the completed tricks `shown_tricks` allows and, until a trick of a new
    round is won, `before`: (round, trick) of the last trick of the round before. A replay seen now
    must not show, at an earlier step, a trick that is face down now."""
    if open_history or game_over:
        return TrickWindow(True)
    numbers = {trick.number for trick in shown_tricks(completed, open_history, game_over)}
    if on_table is not None:
        numbers.add(on_table)
    return TrickWindow(False, round_, frozenset(numbers), before)


def face_down_play(seat: int) -> dict[str, Any]:
    """A play of a face-down trick as a replay shows it: who played, not what."""
    return {"seat": seat, "card": None}


def face_down_line(event: Event, window: TrickWindow, name: Callable[[int], str]) -> Message | None:
    """The replay line of a card play or trick win whose trick is face down now (who, not which
    card); None for any other event and for a trick the window shows."""
    kind = event.get("type")
    if kind not in ("CardPlayed", "TrickWon") or window.shows(event["round"], event["trick"]):
        return None
    if kind == "CardPlayed":
        return N_("%(player)s played a card (face down now: a collected trick)."), {
            "player": name(event["seat"])
        }
    return N_("%(player)s won trick %(trick)s (its cards lie face down now)."), {
        "player": name(event["winner"]),
        "trick": event["trick"],
    }


def trick_heading(event: Event, round_: int) -> Heading:
    """A trick game's replay heading: the round, and the trick for a card play or trick win."""
    title: Message = (N_("Round %(round)s"), {"round": round_})
    if event.get("type") in ("CardPlayed", "TrickWon"):
        return Heading(round_, title, event["trick"], (N_("Trick %(trick)s"), {"trick": event["trick"]}))
    return Heading(round_, title)


def round_and_trick(state: TrickState, event: Event) -> Heading:
    """A trick game's replay heading of `event` (which led to `state`): Start, then each round and,
    inside it, each trick."""
    return START if event.get("type") == "GameStarted" else trick_heading(event, state.round)


class TrickState(Protocol):
    """What the replay reads of a trick game's state."""

    @property
    def round(self) -> int: ...
    @property
    def trick(self) -> Sequence[Any]: ...
    @property
    def completed(self) -> Sequence[CompletedTrick[Any]]: ...
    @property
    def previous_trick(self) -> CompletedTrick[Any] | None: ...
    @property
    def open_history(self) -> bool: ...


T = TypeVar("T", bound=TrickState)


class TrickGame(Game[T]):
    """A trick game's contract: the replay's window, face-down lines and headings written once."""

    @abstractmethod
    def finished(self, state: T) -> bool:
        """Whether the play is over (every trick is shown then)."""

    def previous_shown(self, state: T) -> bool:
        """Whether the round before (its score and last trick) is still shown: until a trick of the
        new round is won."""
        return not state.completed and state.previous_trick is not None and not self.finished(state)

    def window(self, state: T) -> TrickWindow:
        """The tricks a page may show at this state."""
        on_table = len(state.completed) + 1 if state.trick else None
        last = state.previous_trick
        before = (state.round - 1, last.number) if last is not None and self.previous_shown(state) else None
        return trick_window(
            state.round, state.completed, on_table, state.open_history, self.finished(state), before
        )

    def _hidden_line(self, event: Event, names: Sequence[str], as_of: T) -> Message | None:
        """Only who played or won, for a trick that lies face down at `as_of`."""
        return face_down_line(event, self.window(as_of), lambda seat: name_of(names, seat))
